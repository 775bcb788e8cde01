package io.strata.compaction.rewrite;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.compaction.JobTestSupport;
import io.strata.compaction.source.CompactionWork;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.BucketId;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.mergetree.Levels;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bucket rewritten from the file list the planner shipped in its work: the same plan as from the
 * snapshot's manifests, and still checked against the latest snapshot when that moved on.
 */
class BucketRewriteTest {
    @TempDir
    Path dir;

    private static final BucketId BUCKET_0 = BucketId.of(new Object[0], 0);

    private final TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
    private final Random rnd = new Random(5);

    /** The job's view of a write-only table (compaction allowed); {@link #append} writes to it write-only. */
    private FileStoreTable table() {
        return JobTestSupport.create(dir.toString(), "t", false, 1, Map.of())
                .copyWithOptions(Map.of("write-only", "false"));
    }

    private void append(FileStoreTable t, int commits, long firstIdentifier) {
        JobTestSupport.ingest(
                t.copyWithOptions(Map.of("write-only", "true")), model, rnd, commits, 200, 150, "w", firstIdentifier);
    }

    private static Levels bucket0(FileStoreTable t) {
        return t.newCompactor()
                .levels(t.snapshotManager().latest().orElseThrow(), EntryFilter.ALL)
                .values()
                .iterator()
                .next();
    }

    /** The files as they travel: through the work's encoding, as the rewrite operator gets them. */
    private static List<DataFileMeta> shipped(FileStoreTable t, long snapshotId) {
        CompactionWork w = new CompactionWork("t", BUCKET_0, snapshotId, CompactStrategy.FULL)
                .withFiles(bucket0(t).allFiles());
        return w.filesValue().orElseThrow();
    }

    private static long latestId(FileStoreTable t) {
        return t.snapshotManager().latest().orElseThrow().id();
    }

    /** Bucket 0's full compaction planned from {@code snapshot}, with {@code files} shipped (null: none). */
    private static Optional<CompactionCommittable> fullFrom(FileStoreTable t, long snapshot, List<DataFileMeta> files) {
        CompactionWork w = new CompactionWork("t", BUCKET_0, snapshot, CompactStrategy.FULL);
        if (files != null) {
            w.withFiles(files);
        }
        return BucketRewrite.run(t, w);
    }

    /** A table after {@code commits} write-only commits, and bucket 0's files as the planner ships them from its latest snapshot. */
    private final class Planned {
        final FileStoreTable t = table();
        final long snapshot;
        final List<DataFileMeta> files;

        Planned(int commits) {
            append(t, commits, 1);
            snapshot = latestId(t);
            files = shipped(t, snapshot);
        }
    }

    private static void commit(FileStoreTable t, CompactionCommittable c, long identifier) {
        try (TableCommit commit = t.newCommit("job")) {
            commit.commit(identifier, List.of(c.commitMessage()));
        }
    }

    @Test
    void plansFromTheShippedFilesAsFromTheManifests() {
        Planned p = new Planned(5);
        FileStoreTable t = p.t;
        long snapshot = p.snapshot;
        List<DataFileMeta> files = p.files;
        assertThat(files).isEqualTo(bucket0(t).allFiles());

        CompactionCommittable viaList = fullFrom(t, snapshot, files).orElseThrow();
        CompactionCommittable viaManifests = fullFrom(t, snapshot, null).orElseThrow();
        assertThat(viaList.commitMessage().compactBefore())
                .isEqualTo(viaManifests.commitMessage().compactBefore());
        assertThat(viaList.rowsRead)
                .isEqualTo(files.stream().mapToLong(DataFileMeta::rowCount).sum());
        assertThat(viaList.sortedRunsBefore).isEqualTo(5);
        assertThat(viaList.plannedFromSnapshot).isEqualTo(snapshot);

        commit(t, viaList, 1);
        assertThat(TableModel.toContents(TestTables.scan(t))).isEqualTo(model.contents());
        assertThat(bucket0(t).numberOfSortedRuns()).isEqualTo(1);
    }

    @Test
    void theShippedListIsWhatIsPlannedNotARereadOfTheManifests() {
        Planned p = new Planned(5);
        List<DataFileMeta> two = p.files.subList(0, 2);
        CompactionCommittable c = fullFrom(p.t, p.snapshot, two).orElseThrow();
        assertThat(c.commitMessage().compactBefore()).containsExactlyInAnyOrderElementsOf(two);
        assertThat(c.sortedRunsBefore).isEqualTo(2);
    }

    @Test
    void aWriterCommittingAfterPlanningLeavesThePlanOfThePlannersSnapshot() {
        Planned p = new Planned(4);
        FileStoreTable t = p.t;
        append(t, 2, 10); // level-0 files the plan does not know of

        CompactionCommittable c = fullFrom(t, p.snapshot, p.files).orElseThrow();
        assertThat(c.commitMessage().compactBefore()).containsExactlyInAnyOrderElementsOf(p.files);
        commit(t, c, 1);
        assertThat(TableModel.toContents(TestTables.scan(t))).isEqualTo(model.contents());
        assertThat(bucket0(t).numberOfSortedRuns())
                .as("the compacted run and the two newer level-0 files")
                .isEqualTo(3);
    }

    @Test
    void aCompactionLandingAfterPlanningMakesTheShippedPlanStale() {
        Planned p = new Planned(4);
        p.t.newCompactor().compact(CompactStrategy.FULL, "other-compactor", 1);

        Optional<CompactionCommittable> c = fullFrom(p.t, p.snapshot, p.files);
        assertThat(c).as("its inputs are gone from the latest snapshot").isEmpty();
        assertThat(TableModel.toContents(TestTables.scan(p.t))).isEqualTo(model.contents());
    }
}
