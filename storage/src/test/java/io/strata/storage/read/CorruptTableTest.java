package io.strata.storage.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.format.PageMap;
import io.strata.storage.manifest.ManifestFileMeta;
import io.strata.storage.schema.DataType;
import io.strata.storage.schema.Schema;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.DirListing;
import io.strata.storage.testutil.JsonFiles;
import io.strata.storage.util.CloseableIterator;
import io.strata.storage.util.CorruptFileException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One damaged, replaced or missing file of a table (issue 18): a full scan fails with a {@link
 * CorruptFileException} naming the file (and the column and page, or the snapshot, where one is
 * at fault), returns no row, and changes no file; never a wrong answer.
 */
class CorruptTableTest {
    private static final long SEED = 18L;
    private static final int ROWS_PER_COMMIT = 1200;

    @TempDir
    Path warehouse;

    private Catalog catalog;
    private FileStoreTable table;
    private Path tableDir;

    /** Three commits of {@link #ROWS_PER_COMMIT} rows into one bucket: several pages per column. */
    private void createTable(String compression) {
        createTable(compression, 1);
    }

    private void createTable(String compression, int buckets) {
        catalog = Catalog.open(warehouse.toString());
        table = catalog.createTable(
                "db",
                "t",
                Schema.newBuilder()
                        .column("id", "BIGINT")
                        .column("ts", "BIGINT")
                        .column("v", "STRING")
                        .primaryKey("id")
                        .option("bucket", String.valueOf(buckets))
                        .option("file.compression", compression)
                        .option("file.page-size", "4kb")
                        .build());
        tableDir = warehouse.resolve("db.db").resolve("t");
        Random random = new Random(SEED);
        try (TableWrite w = table.newWrite("u");
                TableCommit c = table.newCommit("u")) {
            for (int commit = 0; commit < 3; commit++) {
                for (int i = 0; i < ROWS_PER_COMMIT; i++) {
                    w.write(GenericRow.insert(
                            (long) random.nextInt(10_000), random.nextLong(), "v" + random.nextInt(8)));
                }
                c.commit(commit, w.prepareCommit());
            }
        }
    }

    private List<GenericRow> scan(FileStoreTable t, List<GenericRow> got) {
        try (CloseableIterator<GenericRow> it = t.newReadBuilder().readAll()) {
            while (it.hasNext()) {
                got.add(it.next());
            }
        }
        return got;
    }

    /** A fresh handle's full scan fails naming {@code file} and {@code parts}, returns no row and changes no file. */
    private CorruptFileException expectCorrupt(Path file, String... parts) {
        Map<String, String> before = DirListing.of(tableDir);
        List<GenericRow> got = new ArrayList<>();
        CorruptFileException[] thrown = new CorruptFileException[1];
        assertThatThrownBy(() -> scan(catalog.getTable("db", "t"), got))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContainingAll(parts)
                .satisfies(e -> thrown[0] = (CorruptFileException) e);
        assertThat(thrown[0].file()).endsWith(file.toString());
        assertThat(got).as("rows returned").isEmpty();
        assertThat(DirListing.of(tableDir)).as("the table's files").isEqualTo(before);
        return thrown[0];
    }

    private List<Path> files(String dir, String prefix) throws IOException {
        try (Stream<Path> s = Files.list(tableDir.resolve(dir))) {
            return s.filter(p -> p.getFileName().toString().startsWith(prefix))
                    .sorted()
                    .toList();
        }
    }

    /** The largest data file of bucket 0: the one with the most pages. */
    private Path biggestDataFile() throws IOException {
        Path best = null;
        for (Path p : files("bucket-0", "data-")) {
            if (best == null || Files.size(p) > Files.size(best)) {
                best = p;
            }
        }
        return best;
    }

    private Snapshot latest() {
        return table.snapshotManager().latest().orElseThrow();
    }

    private Path manifestDir() {
        return tableDir.resolve("manifest");
    }

    private Path snapshotFile(long id) {
        return tableDir.resolve("snapshot").resolve("snapshot-" + id);
    }

    // ---------------------------------------------------------------------------------------
    // data files

    /**
     * The first two cases: a flipped byte in a zstd page of ts (before: same count, wrong
     * checksum) and in an uncompressed page of id (before: a wrong count).
     */
    @ParameterizedTest
    @CsvSource({"zstd, ts", "uncompressed, id", "zstd, id", "uncompressed, ts"})
    void aFlippedByteInADataPageFailsTheScanNamingFileColumnAndPage(String compression, String column)
            throws IOException {
        createTable(compression);
        Path file = biggestDataFile();
        PageMap.Page page = PageMap.dataPage(file, column, 1);
        PageMap.flip(file, page.bodyStart() + page.bodyLength() / 2);

        expectCorrupt(file, "column " + column + ", row group 0, page 1 at byte " + page.headerStart(), "CRC32");
    }

    @Test
    void aFlippedByteInADictionaryPageFailsTheScanNamingIt() throws IOException {
        createTable("zstd");
        Path file = biggestDataFile();
        PageMap.Page dictionary = PageMap.dictionaryPage(file, "v");
        PageMap.flip(file, dictionary.bodyStart() + dictionary.bodyLength() / 2);

        expectCorrupt(file, "column v, row group 0, dictionary page at byte " + dictionary.headerStart());
    }

    @Test
    void aFlippedByteInAPageHeaderFailsTheScanNamingTheColumn() throws IOException {
        createTable("zstd");
        Path file = biggestDataFile();
        PageMap.Page page = PageMap.dataPage(file, "ts", 1);
        PageMap.flip(file, page.headerStart()); // the header's first field

        expectCorrupt(file, "column ts, row group 0, page ");
    }

    @Test
    void aFlippedByteInTheFooterFailsTheScan() throws IOException {
        createTable("zstd");
        Path file = biggestDataFile();
        long[] footer = PageMap.footer(file);
        PageMap.flip(file, footer[1] - 1); // the footer's last byte: the end of the FileMetaData struct

        expectCorrupt(file, "cannot open data file");
    }

    @Test
    void aTruncatedDataFileFailsNamingBothSizes() throws IOException {
        createTable("zstd");
        Path file = biggestDataFile();
        long size = Files.size(file);
        Files.write(file, Arrays.copyOf(Files.readAllBytes(file), (int) (size - 1)));

        expectCorrupt(file, "the file has " + (size - 1) + " bytes, the manifest records " + size);
    }

    // ---------------------------------------------------------------------------------------
    // manifests

    private Path oneManifest() {
        List<ManifestFileMeta> base = table.manifests().manifestList().read(latest().baseManifestList());
        return manifestDir().resolve(base.get(base.size() - 1).fileName());
    }

    @ParameterizedTest
    @ValueSource(strings = {"zstd", "uncompressed"})
    void aFlippedByteInAManifestPageFailsNamingTheManifestColumnAndPage(String compression) throws IOException {
        createTable(compression);
        Path manifest = oneManifest();
        PageMap.Page page = PageMap.dataPage(manifest, "file_name", 0);
        PageMap.flip(manifest, page.bodyStart() + page.bodyLength() / 2);

        expectCorrupt(
                manifest,
                "manifest cannot be read",
                "column file_name, row group 0, page 0 at byte " + page.headerStart(),
                "(snapshot 3 of table db.t names it)");
    }

    @Test
    void aFlippedByteInAManifestPageHeaderFailsNamingTheManifest() throws IOException {
        createTable("zstd");
        Path manifest = oneManifest();
        PageMap.Page page = PageMap.dataPage(manifest, "min_key", 0);
        PageMap.flip(manifest, page.headerStart());

        expectCorrupt(manifest, "manifest cannot be read", "column min_key");
    }

    @Test
    void aFlippedByteInAManifestDictionaryPageFailsNamingIt() throws IOException {
        createTable("zstd", 16); // 16 entries a manifest: columns of repeated values get a dictionary
        Path manifest = oneManifest();
        List<PageMap.Page> dictionaries = PageMap.pages(manifest).stream()
                .filter(PageMap.Page::dictionary)
                .toList();
        assertThat(dictionaries).isNotEmpty();
        PageMap.Page dictionary = dictionaries.get(0);
        PageMap.flip(manifest, dictionary.bodyStart() + dictionary.bodyLength() / 2);

        expectCorrupt(
                manifest,
                "column " + dictionary.column() + ", row group 0, dictionary page at byte " + dictionary.headerStart());
    }

    @Test
    void aFlippedByteInAManifestFooterFailsNamingTheManifest() throws IOException {
        createTable("zstd");
        Path manifest = oneManifest();
        PageMap.flip(manifest, PageMap.footer(manifest)[1] - 1);

        expectCorrupt(manifest, "manifest cannot be read");
    }

    @Test
    void aTruncatedManifestFailsNamingBothSizes() throws IOException {
        createTable("zstd");
        Path manifest = oneManifest();
        long size = Files.size(manifest);
        Files.write(manifest, Arrays.copyOf(Files.readAllBytes(manifest), (int) size / 2));

        expectCorrupt(manifest, "manifest has " + size / 2 + " bytes but its manifest list records " + size);
    }

    /**
     * The third case (before: a scan of 37,365 rows instead of 40,267), where the size
     * cannot tell: the manifests of commits that add as many files are often of one size.
     */
    @Test
    void aManifestReplacedByAValidManifestOfTheSameSizeFailsOnItsChecksum() throws IOException {
        createTable("zstd");
        List<ManifestFileMeta> base = table.manifests().manifestList().read(latest().baseManifestList());
        ManifestFileMeta victim = base.get(base.size() - 1);
        ManifestFileMeta other = base.get(0);
        Path file = manifestDir().resolve(victim.fileName());
        Files.copy(manifestDir().resolve(other.fileName()), file, StandardCopyOption.REPLACE_EXISTING);
        // their sizes differ by a byte or two, or not at all: make the list's size the copy's
        Path list = manifestDir().resolve(latest().baseManifestList());
        JsonFiles.rewriteSealed(
                list,
                root -> root.get("manifests").forEach(m -> {
                    if (m.path("fileName").asText().equals(victim.fileName())) {
                        ((ObjectNode) m).put("fileSize", other.fileSize());
                    }
                }));

        expectCorrupt(
                file,
                "manifest's CRC32C is " + other.crc32c() + " but its manifest list records " + victim.crc32c(),
                "snapshot 3 of table db.t");
    }

    /** The same, of a manifest list written before manifests' CRC32Cs were recorded: the size still tells. */
    @Test
    void aManifestReplacedByAManifestOfAnotherSizeFailsNamingBothSizesWithoutRecordedCrcs() throws IOException {
        createTable("zstd", 16);
        try (TableWrite w = table.newWrite("u");
                TableCommit c = table.newCommit("u")) {
            w.write(GenericRow.insert(1L, 2L, "x"));
            c.commit(3, w.prepareCommit()); // a manifest of one entry
        }
        List<ManifestFileMeta> base = table.manifests().manifestList().read(latest().baseManifestList());
        ManifestFileMeta victim = base.get(base.size() - 1);
        ManifestFileMeta other = base.get(0);
        assertThat(other.fileSize()).isNotEqualTo(victim.fileSize());
        Path list = manifestDir().resolve(latest().baseManifestList());
        JsonFiles.rewriteSealed(list, root -> root.get("manifests").forEach(m -> ((ObjectNode) m).remove("crc32c")));
        Path file = manifestDir().resolve(victim.fileName());
        Files.copy(manifestDir().resolve(other.fileName()), file, StandardCopyOption.REPLACE_EXISTING);

        expectCorrupt(
                file,
                "manifest has " + other.fileSize() + " bytes but its manifest list records " + victim.fileSize(),
                "snapshot 4 of table db.t");
    }

    @Test
    void aMissingManifestFailsNamingItAndTheSnapshot() throws IOException {
        createTable("zstd");
        Path manifest = oneManifest();
        Files.delete(manifest);

        expectCorrupt(manifest, "manifest is missing", "(snapshot 3 of table db.t names it)");
    }

    // ---------------------------------------------------------------------------------------
    // manifest lists and snapshots

    /** A digit of a manifest's recorded size changed: still valid JSON, so only the checksum can tell. */
    @Test
    void aManifestListWhoseContentChangedFailsOnItsChecksum() throws IOException {
        createTable("zstd");
        Path list = manifestDir().resolve(latest().baseManifestList());
        String json = Files.readString(list);
        String changed = json.replaceFirst("\"numAdded\" : (\\d)", "\"numAdded\" : 9$1");
        assertThat(changed).isNotEqualTo(json);
        Files.writeString(list, changed);

        expectCorrupt(list, "content checksum mismatch", "(snapshot 3 of table db.t names it)");
    }

    @Test
    void aTruncatedManifestListFailsNamingIt() throws IOException {
        createTable("zstd");
        Path list = manifestDir().resolve(latest().baseManifestList());
        byte[] bytes = Files.readAllBytes(list);
        Files.write(list, Arrays.copyOf(bytes, bytes.length / 2));

        expectCorrupt(list, "cannot parse manifest list");
    }

    @Test
    void aMissingManifestListFailsNamingItAndTheSnapshot() throws IOException {
        createTable("zstd");
        Path list = manifestDir().resolve(latest().baseManifestList());
        Files.delete(list);

        expectCorrupt(list, "manifest list is missing", "(snapshot 3 of table db.t names it)");
    }

    /** A digit of the record count changed: still a valid snapshot, so only the checksum can tell. */
    @Test
    void aSnapshotWhoseContentChangedFailsOnItsChecksum() throws IOException {
        createTable("zstd");
        Path file = snapshotFile(3);
        String json = Files.readString(file);
        String changed = json.replaceFirst("\"totalRecordCount\" : (\\d)", "\"totalRecordCount\" : 9$1");
        assertThat(changed).isNotEqualTo(json);
        Files.writeString(file, changed);

        expectCorrupt(file, "content checksum mismatch");
    }

    /** The fourth case: before, exit 0. */
    @Test
    void aSnapshotNamingASchemaThatDoesNotExistFailsNamingTheSchemaAndTheSnapshot() throws IOException {
        createTable("zstd");
        Path file = snapshotFile(3);
        JsonFiles.rewriteSealed(file, root -> root.put("schemaId", 5));

        expectCorrupt(file, "names schema 5", "schema-5 is missing");
    }

    @Test
    void aSnapshotWhoseSchemaFileIsMissingFailsNamingIt() throws IOException {
        createTable("zstd");
        FileStoreTable evolved = table.addColumn("extra", DataType.parse("INT"));
        try (TableWrite w = evolved.newWrite("u");
                TableCommit c = evolved.newCommit("u")) {
            w.write(GenericRow.insert(1L, 2L, "x", 3));
            c.commit(3, w.prepareCommit());
        }
        Path schema = tableDir.resolve("schema").resolve("schema-1");
        Files.delete(schema);

        expectCorrupt(snapshotFile(4), "names schema 1", "schema-1 is missing");
    }

    /** Snapshots and manifest lists written before content checksums existed still read. */
    @Test
    void filesWithoutAContentChecksumStillRead() throws IOException {
        createTable("zstd");
        List<GenericRow> expected = scan(table, new ArrayList<>());
        assertThat(Files.readString(snapshotFile(3))).contains("\"checksum\"");
        JsonFiles.removeChecksum(snapshotFile(3));
        for (Path list : files("manifest", "manifest-list-")) {
            assertThat(Files.readString(list)).contains("\"checksum\"");
            JsonFiles.rewriteSealed(
                    list, root -> root.get("manifests").forEach(m -> ((ObjectNode) m).remove("crc32c")));
            JsonFiles.removeChecksum(list);
        }

        assertThat(scan(catalog.getTable("db", "t"), new ArrayList<>())).isEqualTo(expected);
    }
}
