package io.strata.storage.compact;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.BucketId;
import io.strata.storage.data.GenericRow;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.manifest.ManifestEntry;
import io.strata.storage.manifest.PartitionBucketFilter;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine's planning API as the compaction job and the scheduler call it: a snapshot planned
 * into per-bucket plans with their shapes, plans re-made from a given snapshot, and staleness
 * against later snapshots.
 */
class SnapshotPlanningTest {
    @TempDir
    Path dir;

    private final Random rnd = new Random(77);
    private final TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);

    /** A write-only-ingested table with partitions p=0 and p=1, 2 buckets, trigger 3; compaction allowed on this handle. */
    private FileStoreTable table() {
        return Catalog.open(dir.toString())
                .createTable(
                        "db",
                        "t",
                        TestTables.modelSchema(
                                true, 2, Map.of("num-sorted-run.compaction-trigger", "3", "write-only", "true")))
                .copyWithOptions(Map.of("write-only", "false"));
    }

    private void append(FileStoreTable t, int commits, long firstIdentifier) {
        try (TableWrite w = t.copyWithOptions(Map.of("write-only", "true")).newWrite("w");
                TableCommit c = t.newCommit("w")) {
            for (int i = 0; i < commits; i++) {
                for (int r = 0; r < 80; r++) {
                    GenericRow row = TableModel.randomRow(rnd, 60);
                    model.apply(row);
                    w.write(row);
                }
                c.commit(firstIdentifier + i, w.prepareCommit());
            }
        }
    }

    private static Snapshot latest(FileStoreTable t) {
        return t.snapshotManager().latest().orElseThrow();
    }

    @Test
    void aSnapshotPlanHasTheShapeOfEveryBucketAndAPlanForEachBucketOverItsTrigger() {
        FileStoreTable t = table();
        append(t, 5, 1);
        Snapshot s = latest(t);
        Map<BucketId, List<DataFileMeta>> files = new HashMap<>();
        for (ManifestEntry e : t.manifests().scanner().scan(s.baseManifestList(), EntryFilter.ALL)) {
            files.computeIfAbsent(e.bucketId(), x -> new ArrayList<>()).add(e.file());
        }
        assertThat(files).hasSize(4); // 2 partitions x 2 buckets

        SnapshotPlan plan = t.newCompactor().plan(s, EntryFilter.ALL, CompactStrategy.MINOR);

        assertThat(plan.snapshotId()).isEqualTo(s.id());
        assertThat(plan.shapes()).hasSize(4);
        for (BucketShape shape : plan.shapes()) {
            List<DataFileMeta> fs = files.get(shape.bucket());
            assertThat(shape.files()).as("%s", shape).isEqualTo(fs.size());
            assertThat(shape.bytes())
                    .isEqualTo(fs.stream().mapToLong(DataFileMeta::fileSize).sum());
            assertThat(shape.level0Files())
                    .as("write-only: every file on level 0")
                    .isEqualTo(fs.size());
            assertThat(shape.sortedRuns()).isEqualTo(5);
            assertThat(plan.contains(shape.bucket())).isTrue();
        }
        assertThat(plan.backlog())
                .as("every bucket has 5 sorted runs, over the trigger of 3")
                .isEqualTo(4);
        assertThat(plan.plans()).hasSize(4);
        for (BucketPlan p : plan.plans()) {
            assertThat(p.snapshotId()).isEqualTo(s.id());
            assertThat(p.reason()).isNotNull();
            assertThat(p.bucketFiles()).containsExactlyInAnyOrderElementsOf(files.get(p.bucket()));
            assertThat(p.shape())
                    .isEqualTo(plan.shapes().stream()
                            .filter(x -> x.bucket().equals(p.bucket()))
                            .findFirst()
                            .orElseThrow());
            assertThat(plan.holdsAll(p.bucket(), p.inputFileNames())).isTrue();
        }
        assertThat(plan.contains(BucketId.of(new Object[] {7}, 0))).isFalse();
        assertThat(plan.holdsAll(BucketId.of(new Object[] {7}, 0), List.of())).isFalse();
        assertThat(plan.holdsAll(plan.shapes().get(0).bucket(), List.of("no-such-file.parquet")))
                .isFalse();
    }

    @Test
    void theFilterSelectsBucketsAndTheShapeIsUnchangedByIt() {
        FileStoreTable t = table();
        append(t, 2, 1);
        BucketId one = BucketId.of(new Object[] {1}, 0);
        SnapshotPlan plan = t.newCompactor()
                .plan(
                        latest(t),
                        new PartitionBucketFilter(t.schema().typesOf(t.schema().partitionIndexes())).add(one),
                        CompactStrategy.FULL);
        assertThat(plan.shapes()).extracting(BucketShape::bucket).containsExactly(one);
        assertThat(plan.plans()).extracting(BucketPlan::bucket).containsExactly(one);
        assertThat(plan.backlog()).as("2 runs, trigger 3").isZero();
    }

    @Test
    void aPlanStaysValidThroughAppendsAndGoesStaleWhenAnotherCompactionLands() {
        FileStoreTable t = table();
        append(t, 4, 1);
        TableCompactor compactor = t.newCompactor();
        Snapshot planned = latest(t);
        BucketPlan plan = compactor
                .plan(planned, EntryFilter.ALL, CompactStrategy.FULL)
                .plans()
                .get(0);
        assertThat(compactor.isStale(plan, planned)).isFalse();

        append(t, 2, 10);
        assertThat(compactor.isStale(plan, latest(t)))
                .as("appends add level-0 files only")
                .isFalse();
        BucketPlan again = compactor
                .planBucket(plan.bucket(), planned.id(), CompactStrategy.FULL)
                .orElseThrow();
        assertThat(again.snapshotId()).isEqualTo(planned.id());
        assertThat(again.inputFileNames())
                .as("planning is pure: the same plan from the same snapshot")
                .isEqualTo(plan.inputFileNames());
        assertThat(compactor
                        .planBucket(plan.bucket(), planned.id(), plan.bucketFiles(), CompactStrategy.FULL)
                        .orElseThrow()
                        .inputFileNames())
                .as("planned from the shipped files")
                .isEqualTo(plan.inputFileNames());

        // another compactor lands a compaction of this bucket
        try (TableCommit c = t.newCommit("other")) {
            c.commit(
                    1,
                    List.of(compactor
                            .rewrite(compactor
                                    .planBucket(plan.bucket(), CompactStrategy.FULL)
                                    .orElseThrow())
                            .toCommitMessage(t.schema().numBuckets())));
        }
        assertThat(compactor.isStale(plan, latest(t))).isTrue();
        assertThat(compactor.planBucket(plan.bucket(), planned.id(), CompactStrategy.FULL))
                .as("re-planned from the old snapshot, it is stale in the latest")
                .isEmpty();
        assertThat(compactor.planBucket(plan.bucket(), planned.id(), plan.bucketFiles(), CompactStrategy.FULL))
                .isEmpty();
        BucketPlan other = compactor
                .plan(planned, EntryFilter.ALL, CompactStrategy.FULL)
                .plans()
                .get(1);
        assertThat(compactor.isStale(other, latest(t)))
                .as("another bucket's plan is untouched")
                .isFalse();
        assertThat(TableModel.toContents(TestTables.scan(t))).isEqualTo(model.contents());
    }

    @Test
    void aPlanFromASnapshotThatIsGoneIsMadeFromTheLatest() {
        FileStoreTable t = table();
        append(t, 4, 1);
        BucketId bucket = BucketId.of(new Object[] {0}, 1);
        long latestId = latest(t).id();
        BucketPlan fromLater = t.newCompactor()
                .planBucket(bucket, latestId + 5, CompactStrategy.FULL)
                .orElseThrow();
        assertThat(fromLater.snapshotId()).isEqualTo(latestId);
        assertThat(t.newCompactor().planBucket(bucket, latestId + 5, List.of(), CompactStrategy.FULL))
                .as("no files shipped: nothing to plan")
                .isEmpty();
        assertThat(t.newCompactor().planBucket(BucketId.of(new Object[] {9}, 1), CompactStrategy.FULL))
                .as("a bucket without files")
                .isEmpty();
    }
}
