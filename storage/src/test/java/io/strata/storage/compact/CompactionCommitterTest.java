package io.strata.storage.compact;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.CommitMessage;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.BucketId;
import io.strata.storage.data.GenericRow;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The compaction committer's handling of results that another compaction overtook. */
class CompactionCommitterTest {
    @TempDir
    Path dir;

    private final TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);

    private final Random rnd = new Random(31);

    private FileStoreTable table(int commits) {
        FileStoreTable t = Catalog.open(dir.toString())
                .createTable(
                        "db",
                        "t",
                        TestTables.modelSchema(
                                false, 1, Map.of("num-sorted-run.compaction-trigger", "3", "write-only", "true")));
        append(t, commits, 1);
        return t.copyWithOptions(Map.of("write-only", "false"));
    }

    private void append(FileStoreTable t, int commits, long firstIdentifier) {
        try (TableWrite w = t.copyWithOptions(Map.of("write-only", "true")).newWrite("w");
                TableCommit c = t.newCommit("w")) {
            for (int i = 0; i < commits; i++) {
                for (int r = 0; r < 100; r++) {
                    GenericRow row = TableModel.randomRow(rnd, 80);
                    model.apply(row);
                    w.write(row);
                }
                c.commit(firstIdentifier + i, w.prepareCommit());
            }
        }
    }

    /** Bucket {@code bucket}'s full compaction planned from the latest snapshot and rewritten, uncommitted. */
    private static CommitMessage fullCompaction(FileStoreTable t, int bucket) {
        TableCompactor compactor = t.newCompactor();
        BucketPlan plan = compactor
                .planBucket(BucketId.of(new Object[0], bucket), CompactStrategy.FULL)
                .orElseThrow();
        return compactor.rewrite(plan).toCommitMessage(t.schema().numBuckets());
    }

    private static CompactionCommitter.Outcome commit(FileStoreTable t, long identifier, List<CommitMessage> results) {
        return t.newCompactionCommitter("job", CompactStrategy.FULL).commit(identifier, results, 0);
    }

    private boolean exists(FileStoreTable t, DataFileMeta f) {
        return Files.exists(Path.of(t.paths().dataFile("", 0, f.fileName()).toUri()));
    }

    @Test
    void aResultOvertakenByAnotherCompactionIsReplannedAndItsFilesRemoved() {
        FileStoreTable t = table(6);
        CommitMessage stale = fullCompaction(t, 0);
        CommitMessage staleMessage = stale;
        // another compactor lands a compaction of the same bucket first, and the writer goes on
        t.newCompactor().compact(CompactStrategy.FULL, "other-compactor", 1);
        append(t, 2, 100);
        List<DataFileMeta> liveBefore = t
                .manifests()
                .scanner()
                .scan(t.snapshotManager().latest().orElseThrow().baseManifestList(), EntryFilter.ALL)
                .stream()
                .map(e -> e.file())
                .toList();

        CompactionCommitter.Outcome o = commit(t, 7, List.of(stale));

        assertThat(o.conflicts()).isEqualTo(1);
        assertThat(o.replanned())
                .as("the bucket has new level-0 files to compact")
                .isEqualTo(1);
        assertThat(o.snapshots()).hasSize(1);
        assertThat(TableModel.toContents(TestTables.scan(t))).isEqualTo(model.contents());
        assertThat(t.newCompactor()
                        .levels(t.snapshotManager().latest().orElseThrow(), EntryFilter.ALL)
                        .values())
                .allMatch(l -> l.numberOfSortedRuns() == 1);
        for (DataFileMeta f : staleMessage.compactAfter()) {
            assertThat(exists(t, f))
                    .as("output of the overtaken result %s is removed", f.fileName())
                    .isFalse();
        }
        for (DataFileMeta f : liveBefore) {
            assertThat(exists(t, f))
                    .as("a file that was live is never deleted by the pass: %s", f.fileName())
                    .isTrue();
        }
    }

    @Test
    void aResultOnlyIngestionFollowedIsCommittedAsItIsBesideAnOvertakenOneThatIsReplanned() {
        FileStoreTable t = Catalog.open(dir.toString())
                .createTable(
                        "db",
                        "two",
                        TestTables.modelSchema(
                                false, 2, Map.of("num-sorted-run.compaction-trigger", "3", "write-only", "true")))
                .copyWithOptions(Map.of("write-only", "false"));
        append(t, 4, 1);
        CommitMessage fresh = fullCompaction(t, 0);
        CommitMessage overtaken = fullCompaction(t, 1);
        // another compactor lands bucket 1 first; then the writer appends to both buckets
        CommitMessage other = fullCompaction(t, 1);
        try (TableCommit c = t.newCommit("other-compactor")) {
            c.commit(1, List.of(other));
        }
        append(t, 2, 100);

        CompactionCommitter.Outcome o = commit(t, 7, List.of(fresh, overtaken));

        assertThat(o.conflicts()).isEqualTo(1);
        assertThat(o.replanned()).as("only the overtaken bucket").isEqualTo(1);
        assertThat(o.committedBuckets()).isEqualTo(2);
        for (DataFileMeta f : fresh.compactAfter()) {
            assertThat(exists(t, f))
                    .as("the result of bucket 0 is committed as it was: %s", f.fileName())
                    .isTrue();
        }
        assertThat(TableModel.toContents(TestTables.scan(t))).isEqualTo(model.contents());
    }

    @Test
    void twoResultsForOneBucketCommitOnceInsteadOfConflictingWithEachOther() {
        FileStoreTable t = table(5);
        CommitMessage a = fullCompaction(t, 0);
        CommitMessage b = fullCompaction(t, 0);

        CompactionCommitter.Outcome o = commit(t, 3, List.of(a, b));

        assertThat(o.snapshots()).hasSize(1);
        assertThat(o.committedBuckets()).isEqualTo(1);
        a.compactAfter().forEach(f -> assertThat(exists(t, f)).isTrue());
        b.compactAfter()
                .forEach(f ->
                        assertThat(exists(t, f)).as("the second result's files").isFalse());
        assertThat(TableModel.toContents(TestTables.scan(t))).isEqualTo(model.contents());
    }

    @Test
    void anIdentifierAlreadyCommittedIsSkippedAndNothingIsDeleted() {
        FileStoreTable t = table(4);
        CommitMessage r = fullCompaction(t, 0);
        CompactionCommitter.Outcome first = commit(t, 5, List.of(r));
        assertThat(first.snapshots()).hasSize(1);
        long latest = t.snapshotManager().latestId().getAsLong();

        CompactionCommitter.Outcome replay = commit(t, 5, List.of(r));

        assertThat(replay.skipped()).isTrue();
        assertThat(t.snapshotManager().latestId().getAsLong()).isEqualTo(latest);
        for (DataFileMeta f : r.compactAfter()) {
            assertThat(exists(t, f)).isTrue();
        }
        assertThat(TableModel.toContents(TestTables.scan(t))).isEqualTo(model.contents());
    }
}
