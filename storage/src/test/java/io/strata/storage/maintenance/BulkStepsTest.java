package io.strata.storage.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.GenericRow;
import io.strata.storage.fs.FileIO;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.ManualClock;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The safety rules of expiration and orphan cleanup hold whatever their bulk steps do: a delete
 * step gets one stage at a time, after the snapshot files, and cannot report what it was not
 * given; every file a listing step reports is checked, so a listing cannot add a directory, a
 * link, a file outside its directory or the table, or a metadata file to what is deleted.
 */
class BulkStepsTest {
    @TempDir
    Path dir;

    private final ManualClock later = new ManualClock(Instant.now().plus(Duration.ofDays(2)));
    private final TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);

    private static final Map<String, String> RETAIN_2 =
            Map.of("snapshot.num-retained.min", "1", "snapshot.num-retained.max", "2", "snapshot.expire.limit", "100");

    /** Appends and compactions with changelog: expiring all but the last 2 frees files of every kind. */
    private FileStoreTable history() {
        FileStoreTable t = Catalog.open(dir.resolve("wh").toString())
                .withClock(later)
                .createTable(
                        "db",
                        "t",
                        TestTables.modelSchema(
                                true,
                                2,
                                Map.of(
                                        "write-only", "true",
                                        "changelog-producer", "lookup",
                                        "manifest.merge-min-count", "3")));
        Random rnd = new Random(3);
        long identifier = 0;
        for (int round = 0; round < 4; round++) {
            for (int c = 0; c < 3; c++) {
                try (TableWrite w = t.newWrite("w");
                        TableCommit commit = t.newCommit("w")) {
                    for (int r = 0; r < 40; r++) {
                        GenericRow row = TableModel.randomRow(rnd, 40);
                        model.apply(row);
                        w.write(row);
                    }
                    commit.commit(++identifier, w.prepareCommit());
                }
            }
            t.copyWithOptions(Map.of("write-only", "false"))
                    .newCompactor()
                    .compact(CompactStrategy.FULL, "c", ++identifier);
        }
        return t;
    }

    private static boolean exists(TableFile f) {
        return Files.exists(Path.of(new org.apache.hadoop.fs.Path(f.path()).toUri()));
    }

    @Test
    void expirationHandsTheDeleteStepOneStageAtATimeAfterTheSnapshotFiles() {
        FileStoreTable t = history().copyWithOptions(RETAIN_2);
        ExpirePlan plan = t.newSnapshotExpiration().plan();
        List<Set<TableFile.Kind>> stages = new ArrayList<>();
        List<TableFile> handedOver = new ArrayList<>();
        BulkDelete recording = (files, deleted) -> {
            for (long id = plan.fromId(); id < plan.toId(); id++) {
                assertThat(t.snapshotManager().exists(id))
                        .as("snapshot %d is gone before any other file", id)
                        .isFalse();
            }
            assertThat(handedOver).as("every file of the stages before is gone").noneMatch(BulkStepsTest::exists);
            Set<TableFile.Kind> kinds = EnumSet.noneOf(TableFile.Kind.class);
            files.forEach(f -> kinds.add(f.kind()));
            stages.add(kinds);
            handedOver.addAll(files);
            BulkDelete.local(t.context()).delete(files, deleted);
        };

        ExpireResult r = t.newSnapshotExpiration().deletingWith(recording).expire();

        assertThat(stages)
                .containsExactly(
                        EnumSet.of(TableFile.Kind.DATA, TableFile.Kind.CHANGELOG),
                        EnumSet.of(TableFile.Kind.MANIFEST),
                        EnumSet.of(TableFile.Kind.MANIFEST_LIST));
        assertThat(r.deleted().stream().filter(f -> f.kind() != TableFile.Kind.SNAPSHOT))
                .containsExactlyElementsOf(handedOver);
        assertThat(TableModel.toContents(TestTables.scan(t))).isEqualTo(model.contents());
    }

    @Test
    void aDeleteStepThatReportsAFileItWasNotGivenFailsTheRun() {
        FileStoreTable t = history().copyWithOptions(RETAIN_2);
        String schema = t.paths().root() + "/schema/schema-0";
        BulkDelete lying = (files, deleted) -> {
            deleted.addAll(files);
            deleted.add(new TableFile(TableFile.Kind.DATA, schema, 1));
        };
        assertThatThrownBy(() -> t.newSnapshotExpiration().deletingWith(lying).expire())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("table db.t")
                .hasMessageContaining(schema)
                .hasMessageContaining("which it was not given");
    }

    @Test
    void everyFileAListingStepReportsIsCheckedBeforeOrphanCleanupDeletesIt() throws Exception {
        FileStoreTable t = history();
        Path root = Path.of(t.paths().root().toUri());
        Path outside = Files.writeString(dir.resolve("outside.parquet"), "keep");
        long old = Instant.now().minus(Duration.ofDays(1)).toEpochMilli();
        OrphanFilesClean local = OrphanFilesClean.olderThan(t.context(), Duration.ofDays(1));
        OrphanCleanResult honest = local.dryRun();
        List<List<org.apache.hadoop.fs.Path>> asked = new ArrayList<>();
        BulkListing widening = dirs -> {
            asked.add(dirs);
            List<BulkListing.Listed> out = new ArrayList<>();
            for (org.apache.hadoop.fs.Path d : dirs) {
                BulkListing.Listed l = OrphanFilesClean.listTree(t.context(), d);
                List<FileIO.FileEntry> files = new ArrayList<>(l.files());
                files.add(new FileIO.FileEntry(new org.apache.hadoop.fs.Path(d, "sub"), 0, true, old));
                files.add(FileIO.FileEntry.symbolicLink(new org.apache.hadoop.fs.Path(d, "data-link.parquet"), old));
                files.add(new FileIO.FileEntry(new org.apache.hadoop.fs.Path(outside.toUri()), 4, false, old));
                files.add(new FileIO.FileEntry(
                        new org.apache.hadoop.fs.Path(t.paths().root(), "schema/schema-0"), 100, false, old));
                out.add(new BulkListing.Listed(files, l.refused()));
            }
            return out;
        };

        OrphanCleanResult r = OrphanFilesClean.olderThan(t.context(), Duration.ofDays(1))
                .runningWith(widening, BulkDelete.local(t.context()))
                .clean();

        assertThat(asked).hasSize(1);
        assertThat(asked.get(0))
                .as("the data and manifest directories, not the metadata ones")
                .extracting(org.apache.hadoop.fs.Path::getName)
                .doesNotContain("schema", "snapshot")
                .contains("manifest");
        assertThat(r.deleted()).isEqualTo(honest.orphans());
        assertThat(r.refused()).hasSize(4 * asked.get(0).size());
        assertThat(r.refused()).allMatch(s -> s.contains("reported by the listing of"));
        assertThat(outside).hasContent("keep");
        assertThat(root.resolve("schema").resolve("schema-0")).exists();
        assertThat(TableModel.toContents(TestTables.scan(t))).isEqualTo(model.contents());

        BulkListing short_ = dirs -> List.of();
        assertThatThrownBy(() -> OrphanFilesClean.olderThan(t.context(), Duration.ofDays(1))
                        .runningWith(short_, BulkDelete.local(t.context()))
                        .dryRun())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("table db.t")
                .hasMessageContaining("listings for");
    }
}
