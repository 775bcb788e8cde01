package io.strata.storage.compact;

import io.strata.storage.data.BucketId;
import io.strata.storage.format.DataFileMeta;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One bucket's compaction as planned from one snapshot: the plan (which carries its reason and
 * inputs), the snapshot it was planned from, and the bucket's shape there. Immutable.
 *
 * <p>A plan is stale in a later state of the bucket when any of its input files is no longer live
 * there: another compaction replaced them first. Appends never make a plan stale (they add
 * level-0 files only), so a plan stays valid while ingestion goes on.
 */
public final class BucketPlan {
    private final long snapshotId;
    private final CompactPlan plan;
    private final BucketShape shape;

    BucketPlan(long snapshotId, CompactPlan plan) {
        this.snapshotId = snapshotId;
        this.plan = plan;
        this.shape = BucketShape.of(plan.bucketId(), plan.levels());
    }

    public BucketId bucket() {
        return plan.bucketId();
    }

    public long snapshotId() {
        return snapshotId;
    }

    public CompactPlan plan() {
        return plan;
    }

    public CompactReason reason() {
        return plan.reason();
    }

    public BucketShape shape() {
        return shape;
    }

    /** Every file of the bucket in the snapshot planned from (not only the inputs). */
    public List<DataFileMeta> bucketFiles() {
        return plan.levels().allFiles();
    }

    /** The names of the files the plan reads or moves. */
    public Set<String> inputFileNames() {
        return namesOf(plan.inputFiles());
    }

    /** Whether the plan is stale in a state of its bucket whose live files are {@code liveFileNames}. */
    public boolean isStaleIn(Collection<String> liveFileNames) {
        return !liveFileNames.containsAll(inputFileNames());
    }

    static Set<String> namesOf(Collection<DataFileMeta> files) {
        Set<String> names = new HashSet<>(files.size() * 2);
        for (DataFileMeta f : files) {
            names.add(f.fileName());
        }
        return names;
    }

    @Override
    public String toString() {
        return "BucketPlan{" + bucket() + ", snapshot=" + snapshotId + ", " + reason() + ", runs=" + shape.sortedRuns()
                + ", inputs=" + plan.inputFiles().size() + "}";
    }
}
