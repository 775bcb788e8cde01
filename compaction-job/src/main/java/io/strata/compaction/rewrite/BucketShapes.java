package io.strata.compaction.rewrite;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The LSM shape of each bucket after its last compaction on this subtask (sorted runs and level-0
 * files, before and after), read by the per-bucket gauges. Bounded: at most {@code capacity}
 * buckets are tracked, the first ones compacted. Flink cannot unregister a metric group, so a
 * gauge once registered stays for the life of the task; without a bound, a streaming job over
 * daily partitions would add four gauges (and, before, a whole committable) for every bucket of
 * every new partition, for as long as it runs. Past the bound, buckets are still compacted and
 * counted in the operator's totals; they only get no gauges of their own.
 *
 * <p>Thread-safe: the task thread records, the metric reporters read.
 */
final class BucketShapes {
    /** Sorted runs before and after, level-0 files before and after. */
    static final class Shape {
        final int sortedRunsBefore;
        final int sortedRunsAfter;
        final int level0FilesBefore;
        final int level0FilesAfter;

        Shape(int sortedRunsBefore, int sortedRunsAfter, int level0FilesBefore, int level0FilesAfter) {
            this.sortedRunsBefore = sortedRunsBefore;
            this.sortedRunsAfter = sortedRunsAfter;
            this.level0FilesBefore = level0FilesBefore;
            this.level0FilesAfter = level0FilesAfter;
        }
    }

    /** What {@link #record} did. */
    enum Recorded {
        NEW_BUCKET,
        UPDATED,
        NOT_TRACKED
    }

    private final int capacity;
    private final Map<String, Shape> byBucket = new ConcurrentHashMap<>();

    BucketShapes(int capacity) {
        this.capacity = capacity;
    }

    /**
     * Records the bucket's shape; {@link Recorded#NEW_BUCKET} tells the caller to register its
     * gauges, {@link Recorded#NOT_TRACKED} that the bound is reached and it gets none.
     */
    Recorded record(String bucketKey, Shape shape) {
        if (byBucket.containsKey(bucketKey)) {
            byBucket.put(bucketKey, shape);
            return Recorded.UPDATED;
        }
        if (byBucket.size() >= capacity) {
            return Recorded.NOT_TRACKED;
        }
        byBucket.put(bucketKey, shape);
        return Recorded.NEW_BUCKET;
    }

    /** The last shape recorded for a tracked bucket. */
    Shape get(String bucketKey) {
        return byBucket.get(bucketKey);
    }

    int size() {
        return byBucket.size();
    }
}
