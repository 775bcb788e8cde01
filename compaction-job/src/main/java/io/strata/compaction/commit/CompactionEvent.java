package io.strata.compaction.commit;

/**
 * What the committer reports downstream, one record per event: a bucket rewritten (the result
 * reached the committer), a bucket that failed to compact, a commit published, a commit skipped
 * as already done, or a bucket re-planned after a conflict. The embedded runner prints progress and the summary from these;
 * a cluster job discards them (metrics carry the same figures). A Flink POJO.
 */
public final class CompactionEvent {
    public static final String REWRITTEN = "REWRITTEN";
    public static final String COMMITTED = "COMMITTED";
    public static final String SKIPPED = "SKIPPED";
    public static final String CONFLICT = "CONFLICT";
    public static final String FAILED = "FAILED";

    public String kind;
    public String table;
    /**
     * Bucket events: the partition as {@code PartitionPath.display} prints it ({@code dt=2026-11-29},
     * empty for an unpartitioned table); null for commits.
     */
    public String partition;
    /** Bucket events: the bucket number; null for commits. */
    public String bucket;

    public long rowsRead;
    public long rowsWritten;
    public long bytesRead;
    public long bytesWritten;
    public long changelogRows;
    public int sortedRunsBefore;
    public int sortedRunsAfter;
    public int level0FilesBefore;
    public int level0FilesAfter;
    /** COMMITTED: the snapshots published, comma-separated; the buckets committed in {@link #buckets}. */
    public String snapshots;

    public int buckets;
    public long identifier;
    public long millis;
    /** FAILED: the failure, naming the table, partition, bucket and cause. */
    public String failure;

    public CompactionEvent() {}

    @Override
    public String toString() {
        String where = kind + " " + table
                + (bucket == null
                        ? ""
                        : " " + (partition == null || partition.isEmpty() ? "-" : partition) + "/" + bucket);
        if (FAILED.equals(kind)) {
            return where + " failed: " + failure;
        }
        if (COMMITTED.equals(kind)) {
            return where + " snapshots " + snapshots + " (" + buckets + " buckets, identifier " + identifier + ")";
        }
        return where + " runs " + sortedRunsBefore + "->" + sortedRunsAfter;
    }
}
