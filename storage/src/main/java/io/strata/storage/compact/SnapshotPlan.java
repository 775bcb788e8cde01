package io.strata.storage.compact;

import io.strata.storage.data.BucketId;
import io.strata.storage.mergetree.Levels;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The compaction plan of one snapshot of a table: the shape of every bucket the filter selected,
 * and a {@link BucketPlan} for each bucket the strategy picks. Made by
 * {@link TableCompactor#plan(io.strata.storage.snapshot.Snapshot, io.strata.storage.manifest.EntryFilter, CompactStrategy)};
 * no data file is read to make it.
 */
public final class SnapshotPlan {
    private final long snapshotId;
    private final Map<BucketId, Levels> levels;
    private final List<BucketShape> shapes;
    private final List<BucketPlan> plans;
    private final int trigger;

    SnapshotPlan(long snapshotId, Map<BucketId, Levels> levels, List<BucketPlan> plans, int trigger) {
        this.snapshotId = snapshotId;
        this.levels = Collections.unmodifiableMap(levels);
        List<BucketShape> s = new ArrayList<>(levels.size());
        levels.forEach((bucket, l) -> s.add(BucketShape.of(bucket, l)));
        this.shapes = List.copyOf(s);
        this.plans = List.copyOf(plans);
        this.trigger = trigger;
    }

    public long snapshotId() {
        return snapshotId;
    }

    /** Every selected bucket, in manifest order. */
    public List<BucketShape> shapes() {
        return shapes;
    }

    /** The buckets the strategy picks, in manifest order. */
    public List<BucketPlan> plans() {
        return plans;
    }

    /** Whether the snapshot holds {@code bucket} (with at least one file). */
    public boolean contains(BucketId bucket) {
        return levels.containsKey(bucket);
    }

    /**
     * Whether every file named in {@code fileNames} is live in {@code bucket} in this snapshot: a plan
     * made earlier with those inputs is still pending, not stale.
     */
    public boolean holdsAll(BucketId bucket, Collection<String> fileNames) {
        Levels l = levels.get(bucket);
        return l != null && BucketPlan.namesOf(l.allFiles()).containsAll(fileNames);
    }

    /**
     * The buckets with more sorted runs than {@code num-sorted-run.compaction-trigger}: reads of them
     * merge more runs than the table is configured for.
     */
    public int backlog() {
        int n = 0;
        for (BucketShape s : shapes) {
            if (s.sortedRuns() > trigger) {
                n++;
            }
        }
        return n;
    }
}
