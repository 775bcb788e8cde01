package io.strata.storage.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.strata.storage.commit.CommitMessage;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.manifest.ManifestFileMeta;
import io.strata.storage.options.InvalidOptionException;
import io.strata.storage.read.ReadBuilder;
import io.strata.storage.schema.Schema;
import io.strata.storage.schema.SchemaFiles;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.testutil.DirListing;
import io.strata.storage.testutil.JsonFiles;
import io.strata.storage.testutil.Rows;
import io.strata.storage.util.CorruptFileException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Damaged files and wrong input: every failure names the file, table or option at fault, and
 * nothing in the table directory is changed or deleted by the failing call.
 */
class BadInputTest {
    /** How a file is damaged. */
    enum Damage {
        /** the first half survives (a partial copy or a torn write by some other tool) */
        TRUNCATED,
        /** same length, random content */
        GARBAGE,
        /** zero bytes */
        EMPTY
    }

    /** The table's content after {@link #setUp()}: snapshot 1, 2 and 3. */
    private static final Map<Long, List<Object>> AT_1 = Rows.expect(1, "a", 2, "b", 3, "c", 4, "d", 5, "e");

    private static final Map<Long, List<Object>> AT_3 = Rows.expect(1, "a", 2, "B", 4, "d", 5, "e", 6, "f");

    @TempDir
    Path warehouse;

    private Catalog catalog;
    private FileStoreTable table;
    private Path tableDir;

    @BeforeEach
    void setUp() {
        catalog = Catalog.open(warehouse.toString());
        table = catalog.createTable(
                "db",
                "t",
                Schema.newBuilder()
                        .column("id", "BIGINT")
                        .column("v", "STRING")
                        .primaryKey("id")
                        .build());
        tableDir = warehouse.resolve("db.db").resolve("t");
        try (TableWrite w = table.newWrite("u");
                TableCommit c = table.newCommit("u")) {
            for (long k = 1; k <= 5; k++) {
                w.write(GenericRow.insert(k, String.valueOf((char) ('a' + k - 1))));
            }
            c.commit(1, w.prepareCommit());
            w.write(GenericRow.insert(2L, "B"));
            w.write(GenericRow.delete(3L, null));
            c.commit(2, w.prepareCommit());
            w.write(GenericRow.insert(6L, "f"));
            c.commit(3, w.prepareCommit());
        }
        assertThat(read(table.newReadBuilder())).isEqualTo(AT_3);
        assertThat(read(table.newReadBuilder().withSnapshot(1))).isEqualTo(AT_1);
    }

    private static Map<Long, List<Object>> read(ReadBuilder rb) {
        return Rows.byKey(Rows.readAll(rb));
    }

    private static void damage(Path file, Damage how) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        assertThat(bytes.length).isGreaterThan(1);
        switch (how) {
            case TRUNCATED:
                Files.write(file, Arrays.copyOf(bytes, bytes.length / 2));
                break;
            case GARBAGE:
                byte[] junk = new byte[bytes.length];
                new Random(42).nextBytes(junk);
                Files.write(file, junk);
                break;
            default:
                Files.write(file, new byte[0]);
        }
    }

    /**
     * Runs {@code call}, expects a {@link CorruptFileException} naming {@code file}, and checks
     * that the call changed no file of the table.
     */
    private void expectCorrupt(Path file, ThrowingCallable call) {
        Map<String, String> before = DirListing.of(tableDir);
        assertThatThrownBy(call)
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining(file.toString())
                .satisfies(e -> assertThat(((CorruptFileException) e).file()).endsWith(file.toString()));
        assertThat(DirListing.of(tableDir))
                .as("files of the table after the failure")
                .isEqualTo(before);
    }

    private Path snapshotFile(long id) {
        return tableDir.resolve("snapshot").resolve("snapshot-" + id);
    }

    private Path manifestDir() {
        return tableDir.resolve("manifest");
    }

    // ---------------------------------------------------------------------------------------
    // snapshots

    @ParameterizedTest
    @EnumSource(Damage.class)
    void damagedLatestSnapshotFailsNamingIt(Damage how) throws IOException {
        Path file = snapshotFile(3);
        damage(file, how);
        expectCorrupt(file, () -> table.newReadBuilder().plan());
        expectCorrupt(file, () -> Rows.readAll(catalog.getTable("db", "t").newReadBuilder()));
        // a writer needs the latest snapshot too (sequence numbers): it must refuse, not guess
        expectCorrupt(file, () -> {
            try (TableWrite w = catalog.getTable("db", "t").newWrite("u2")) {
                w.write(GenericRow.insert(9L, "x"));
            }
        });
        // older snapshots are untouched and still readable
        assertThat(read(table.newReadBuilder().withSnapshot(1))).isEqualTo(AT_1);
    }

    @ParameterizedTest
    @EnumSource(Damage.class)
    void damagedOlderSnapshotFailsTimeTravelNamingIt(Damage how) throws IOException {
        Path file = snapshotFile(1);
        damage(file, how);
        expectCorrupt(file, () -> table.newReadBuilder().withSnapshot(1).plan());
        assertThat(read(table.newReadBuilder())).isEqualTo(AT_3);
    }

    // ---------------------------------------------------------------------------------------
    // manifests and manifest lists

    @ParameterizedTest
    @EnumSource(Damage.class)
    void damagedManifestFailsNamingIt(Damage how) throws IOException {
        Snapshot latest = table.snapshotManager().latest().orElseThrow();
        List<ManifestFileMeta> base = table.manifests().manifestList().read(latest.baseManifestList());
        assertThat(base).isNotEmpty();
        Path file = manifestDir().resolve(base.get(base.size() - 1).fileName());
        assertThat(file.getFileName().toString()).startsWith("manifest-").endsWith(".parquet");
        damage(file, how);
        expectCorrupt(file, () -> table.newReadBuilder().plan());
        expectCorrupt(file, () -> Rows.readAll(catalog.getTable("db", "t").newReadBuilder()));
    }

    @Test
    void aManifestReplacedByAnotherSnapshotsManifestFailsNamingBothSizes() throws IOException {
        Snapshot latest = table.snapshotManager().latest().orElseThrow();
        List<ManifestFileMeta> base = table.manifests().manifestList().read(latest.baseManifestList());
        ManifestFileMeta victim = base.get(base.size() - 1);
        ManifestFileMeta other = base.get(0);
        assertThat(other.fileSize())
                .as("manifests of different commits differ in size")
                .isNotEqualTo(victim.fileSize());
        Path file = manifestDir().resolve(victim.fileName());
        Files.copy(manifestDir().resolve(other.fileName()), file, StandardCopyOption.REPLACE_EXISTING);

        expectCorrupt(file, () -> Rows.readAll(catalog.getTable("db", "t").newReadBuilder()));
        assertThatThrownBy(() -> Rows.readAll(catalog.getTable("db", "t").newReadBuilder()))
                .hasMessageContaining("manifest has " + other.fileSize() + " bytes but its manifest list records "
                        + victim.fileSize());
    }

    @Test
    void aMissingManifestListOrManifestFailsNamingIt() throws IOException {
        Snapshot latest = table.snapshotManager().latest().orElseThrow();
        List<ManifestFileMeta> base = table.manifests().manifestList().read(latest.baseManifestList());
        Path manifest = manifestDir().resolve(base.get(base.size() - 1).fileName());
        Files.delete(manifest);
        expectCorrupt(manifest, () -> Rows.readAll(catalog.getTable("db", "t").newReadBuilder()));

        Path list = manifestDir().resolve(latest.baseManifestList());
        Files.delete(list);
        expectCorrupt(list, () -> Rows.readAll(catalog.getTable("db", "t").newReadBuilder()));
        assertThat(read(table.newReadBuilder().withSnapshot(1))).isEqualTo(AT_1);
    }

    @Test
    void aSnapshotNamingAMissingSchemaFailsNamingTheSchema() throws IOException {
        Path file = snapshotFile(3);
        // well-formed (its content checksum matches), naming a schema file that does not exist
        JsonFiles.rewriteSealed(file, root -> root.put("schemaId", 7));

        assertThatThrownBy(() -> Rows.readAll(catalog.getTable("db", "t").newReadBuilder()))
                .hasMessageContaining("snapshot-3")
                .hasMessageContaining("names schema 7 of table db.t, whose file")
                .hasMessageContaining("schema-7 is missing");
        assertThat(read(table.newReadBuilder().withSnapshot(1))).isEqualTo(AT_1);
    }

    @ParameterizedTest
    @EnumSource(Damage.class)
    void damagedManifestListFailsNamingIt(Damage how) throws IOException {
        Snapshot latest = table.snapshotManager().latest().orElseThrow();
        Path file = manifestDir().resolve(latest.baseManifestList());
        assertThat(file.getFileName().toString()).startsWith("manifest-list-").endsWith(".json");
        damage(file, how);
        expectCorrupt(file, () -> table.newReadBuilder().plan());
        // a commit must not build on a base it cannot read
        expectCorrupt(file, () -> {
            try (TableWrite w = catalog.getTable("db", "t").newWrite("u2")) {
                w.write(GenericRow.insert(9L, "x"));
            }
        });
        assertThat(read(table.newReadBuilder().withSnapshot(1))).isEqualTo(AT_1);
    }

    // ---------------------------------------------------------------------------------------
    // data files

    private Path oneDataFile() throws IOException {
        try (Stream<Path> s = Files.list(tableDir.resolve("bucket-0"))) {
            List<Path> files = s.filter(p -> p.getFileName().toString().startsWith("data-"))
                    .sorted()
                    .toList();
            assertThat(files).hasSize(3); // one level-0 file per commit
            return files.get(0);
        }
    }

    @ParameterizedTest
    @EnumSource(Damage.class)
    void damagedDataFileFailsNamingIt(Damage how) throws IOException {
        Path file = oneDataFile();
        damage(file, how);
        // planning needs only the manifests; reading the rows needs the file
        assertThat(table.newReadBuilder().plan()).hasSize(1);
        expectCorrupt(file, () -> Rows.readAll(table.newReadBuilder()));
        if (how != Damage.GARBAGE) {
            long recorded = table
                    .manifests()
                    .scanner()
                    .scan(table.snapshotManager().latest().orElseThrow().baseManifestList(), EntryFilter.ALL)
                    .stream()
                    .filter(e -> e.file().fileName().equals(file.getFileName().toString()))
                    .findFirst()
                    .orElseThrow()
                    .file()
                    .fileSize();
            assertThatThrownBy(() -> Rows.readAll(table.newReadBuilder()))
                    .as("a size mismatch is reported")
                    .hasMessageContaining(
                            "the file has " + Files.size(file) + " bytes, the manifest records " + recorded);
        }
    }

    @Test
    void missingDataFileFailsNamingIt() throws IOException {
        Path file = oneDataFile();
        Files.delete(file);
        expectCorrupt(file, () -> Rows.readAll(table.newReadBuilder()));
        assertThatThrownBy(() -> Rows.readAll(table.newReadBuilder())).hasMessageContaining("missing");
    }

    // ---------------------------------------------------------------------------------------
    // options

    @Test
    void unknownOptionAtCreateNamesTableKeyAndKnownOptions() {
        Map<String, String> before = DirListing.of(warehouse);
        assertThatThrownBy(() -> catalog.createTable(
                        "db",
                        "bad",
                        Schema.newBuilder()
                                .column("id", "BIGINT")
                                .primaryKey("id")
                                .option("buckets", "4")
                                .build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("db.bad")
                .hasMessageContaining("'buckets'")
                .hasMessageContaining("Known options")
                .hasMessageContaining("bucket, ")
                .hasMessageContaining("commit.max-retries")
                .hasMessageContaining("write-buffer-size");
        assertThat(warehouse.resolve("db.db").resolve("bad")).doesNotExist();
        assertThat(catalog.tableExists("db", "bad")).isFalse();
        assertThat(DirListing.of(warehouse)).isEqualTo(before);
    }

    @Test
    void invalidOptionValueAtCreateNamesTableKeyAndValue() {
        Map<String, String> before = DirListing.of(warehouse);
        String[][] cases = {
            {"bucket", "four"},
            {"commit.max-retry-wait", "soon"},
            {"write-buffer-size", "lots"},
            {"write-buffer-spillable", "yes"},
            {"bucket", "0"}
        };
        for (String[] c : cases) {
            assertThatThrownBy(() -> catalog.createTable(
                            "db",
                            "bad",
                            Schema.newBuilder()
                                    .column("id", "BIGINT")
                                    .primaryKey("id")
                                    .option(c[0], c[1])
                                    .build()))
                    .as("%s=%s", c[0], c[1])
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("db.bad")
                    .hasMessageContaining("'" + c[0] + "'")
                    .hasMessageContaining(c[1]);
            assertThat(warehouse.resolve("db.db").resolve("bad")).doesNotExist();
        }
        assertThat(DirListing.of(warehouse)).isEqualTo(before);
    }

    @Test
    void storedOptionsOutOfRangeFailOpeningNamingTableFileAndOptionAndChangeNothing() throws IOException {
        Path schema = tableDir.resolve("schema").resolve("schema-0");
        String original = Files.readString(schema);
        ObjectNode node = (ObjectNode) new ObjectMapper().readTree(original);
        ((ObjectNode) node.get("options")).put("num-sorted-run.compaction-trigger", "0");
        Files.writeString(
                schema, new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(node));
        Map<String, String> before = DirListing.of(tableDir);

        Catalog fresh = Catalog.open(warehouse.toString());
        List<ThrowingCallable> calls = List.of(
                () -> Rows.readAll(fresh.getTable("db", "t").newReadBuilder()),
                () -> {
                    try (TableWrite w = fresh.getTable("db", "t").newWrite("u2")) {
                        w.write(GenericRow.insert(9L, "x"));
                    }
                },
                () -> fresh.getTable("db", "t").newSnapshotExpiration().expire(),
                () -> fresh.getTable("db", "t")
                        .newOrphanFilesClean(Duration.ofHours(1))
                        .clean());
        for (ThrowingCallable call : calls) {
            assertThatThrownBy(call)
                    .isInstanceOf(InvalidOptionException.class)
                    .hasMessageContaining("table db.t: the options stored in ")
                    .hasMessageContaining(schema.toString())
                    .hasMessageContaining("option 'num-sorted-run.compaction-trigger' = 0 is out of range: must be "
                            + "between 1 and 1000");
            assertThat(DirListing.of(tableDir)).isEqualTo(before);
        }
        Files.writeString(schema, original);
        assertThat(read(Catalog.open(warehouse.toString()).getTable("db", "t").newReadBuilder()))
                .isEqualTo(AT_3);
    }

    @Test
    void invalidJobOptionOverrideNamesTableAndKey() {
        Map<String, String> before = DirListing.of(tableDir);
        assertThatThrownBy(() -> table.copyWithOptions(Map.of("target-file-sise", "64 mb")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("db.t")
                .hasMessageContaining("'target-file-sise'")
                .hasMessageContaining("target-file-size");
        assertThatThrownBy(() -> table.copyWithOptions(Map.of("commit.max-retries", "many")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("db.t")
                .hasMessageContaining("'commit.max-retries'")
                .hasMessageContaining("many");
        assertThat(DirListing.of(tableDir)).isEqualTo(before);
    }

    // ---------------------------------------------------------------------------------------
    // schema files

    @Test
    void wrongTypeInSchemaFileNamesFileFieldAndType(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("orders.json");
        Files.writeString(
                file,
                "{\"fields\": [{\"name\": \"id\", \"type\": \"BIGINT\", \"nullable\": false},\n"
                        + " {\"name\": \"amount\", \"type\": \"INTEGR\"}], \"primaryKey\": [\"id\"]}",
                StandardCharsets.UTF_8);
        assertThatThrownBy(() -> SchemaFiles.read(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("'amount'")
                .hasMessageContaining("INTEGR")
                .hasMessageContaining("INT"); // the known types are listed

        Path yaml = dir.resolve("orders.yaml");
        Files.writeString(
                yaml, "fields:\n  - {name: id, type: BIGINT}\n  - {name: note, type: STRNG}\n", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> SchemaFiles.read(yaml))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(yaml.toString())
                .hasMessageContaining("'note'")
                .hasMessageContaining("STRNG");
    }

    @Test
    void unknownKeyInSchemaFileNamesFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("t.json");
        Files.writeString(
                file,
                "{\"fields\": [{\"name\": \"id\", \"type\": \"BIGINT\"}], \"primaryKeys\": [\"id\"]}",
                StandardCharsets.UTF_8);
        assertThatThrownBy(() -> SchemaFiles.read(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("primaryKeys");
    }

    // ---------------------------------------------------------------------------------------
    // rows that do not match the schema

    @Test
    void rowsNotMatchingTheSchemaAreRejectedAndNothingIsCommitted() throws IOException {
        Map<String, String> before = DirListing.of(tableDir);
        try (TableWrite w = table.newWrite("u2");
                TableCommit c = table.newCommit("u2")) {
            assertThatThrownBy(() -> w.write(GenericRow.insert(7L, "g", "extra")))
                    .as("wrong arity")
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("db.t")
                    .hasMessageContaining("3 fields")
                    .hasMessageContaining("id BIGINT NOT NULL")
                    .hasMessageContaining("v STRING");
            assertThatThrownBy(() -> w.write(GenericRow.insert(7, "g")))
                    .as("Integer for a BIGINT")
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("db.t")
                    .hasMessageContaining("'id'")
                    .hasMessageContaining("BIGINT")
                    .hasMessageContaining("Integer");
            assertThatThrownBy(() -> w.write(GenericRow.insert(7L, 42)))
                    .as("Integer for a STRING")
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("db.t")
                    .hasMessageContaining("'v'")
                    .hasMessageContaining("STRING");
            assertThatThrownBy(() -> w.write(GenericRow.insert(null, "g")))
                    .as("null primary key")
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("db.t")
                    .hasMessageContaining("'id'")
                    .hasMessageContaining("null");
            assertThatThrownBy(() -> w.write(GenericRow.delete(null, null)))
                    .as("null primary key in a delete")
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("db.t")
                    .hasMessageContaining("'id'");

            List<CommitMessage> msgs = w.prepareCommit();
            assertThat(msgs).as("rejected rows are not buffered").isEmpty();
            assertThat(c.commit(4, msgs)).isEmpty();
            assertThat(DirListing.of(tableDir)).isEqualTo(before);
            assertThat(table.snapshotManager().latestId()).hasValue(3);

            // the writer stays usable: a good row after bad ones is written, the bad ones are not
            w.write(GenericRow.insert(7L, "g"));
            assertThatThrownBy(() -> w.write(GenericRow.insert(8L, 8L))).isInstanceOf(IllegalArgumentException.class);
            assertThat(c.commit(5, w.prepareCommit())).containsExactly(4L);
        }
        Map<Long, List<Object>> expected = new TreeMap<>(AT_3);
        expected.put(7L, List.of("g"));
        assertThat(read(table.newReadBuilder())).isEqualTo(expected);
    }

    // ---------------------------------------------------------------------------------------
    // hints are hints

    enum HintDamage {
        GARBAGE,
        DELETED,
        EMPTY,
        STALE,
        AHEAD
    }

    @ParameterizedTest
    @EnumSource(HintDamage.class)
    void damagedHintsDoNotHideTheTrueLatestSnapshot(HintDamage how) throws IOException {
        Path latest = tableDir.resolve("snapshot").resolve("LATEST");
        Path earliest = tableDir.resolve("snapshot").resolve("EARLIEST");
        assertThat(latest).exists();
        assertThat(earliest).exists();
        for (Path hint : List.of(latest, earliest)) {
            switch (how) {
                case GARBAGE:
                    Files.write(hint, new byte[] {(byte) 0xff, 0x00, 'x', '\n'});
                    break;
                case DELETED:
                    Files.delete(hint);
                    break;
                case EMPTY:
                    Files.write(hint, new byte[0]);
                    break;
                case STALE:
                    Files.writeString(hint, "2");
                    break;
                default:
                    Files.writeString(hint, "99");
                    break;
            }
        }
        Map<String, String> before = DirListing.of(tableDir);
        FileStoreTable reopened = catalog.getTable("db", "t");
        assertThat(reopened.snapshotManager().latestId()).hasValue(3);
        assertThat(reopened.snapshotManager().earliestId()).hasValue(1);
        assertThat(reopened.newReadBuilder().snapshot().orElseThrow().id()).isEqualTo(3);
        assertThat(read(reopened.newReadBuilder())).isEqualTo(AT_3);
        assertThat(read(reopened.newReadBuilder().withTimestamp(System.currentTimeMillis())))
                .isEqualTo(AT_3);
        assertThat(read(reopened.newReadBuilder().withSnapshot(1))).isEqualTo(AT_1);
        assertThat(DirListing.of(tableDir))
                .as("reading does not touch the table")
                .isEqualTo(before);

        // the next commit goes after the true latest and leaves the existing snapshots alone
        Map<String, String> snapshotsBefore = DirListing.of(tableDir.resolve("snapshot"));
        try (TableWrite w = reopened.newWrite("u2");
                TableCommit c = reopened.newCommit("u2")) {
            w.write(GenericRow.insert(2L, "BB"));
            assertThat(c.commit(1, w.prepareCommit())).containsExactly(4L);
        }
        Map<String, String> snapshotsAfter = DirListing.of(tableDir.resolve("snapshot"));
        for (long id = 1; id <= 3; id++) {
            assertThat(snapshotsAfter.get("snapshot-" + id)).isEqualTo(snapshotsBefore.get("snapshot-" + id));
        }
        assertThat(snapshotsAfter).containsKey("snapshot-4");
        Map<Long, List<Object>> expected = new TreeMap<>(AT_3);
        expected.put(2L, List.of("BB"));
        assertThat(read(catalog.getTable("db", "t").newReadBuilder())).isEqualTo(expected);
    }
}
