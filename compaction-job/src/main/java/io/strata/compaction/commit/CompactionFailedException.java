package io.strata.compaction.commit;

import java.util.List;

/**
 * Ends a batch compaction job in which buckets failed to compact (a data file missing or unreadable, a
 * write refused): thrown by the committer once it has committed every bucket that did compact, so
 * the message names the failed buckets first (table, partition, bucket and the cause, with the file
 * when the engine named one) and says that their files are unchanged. A Flink restart plans the
 * failed buckets again; nothing of theirs was committed.
 */
public final class CompactionFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int failedBuckets;

    CompactionFailedException(List<String> failures, long committedBuckets) {
        super(message(failures, committedBuckets));
        this.failedBuckets = failures.size();
    }

    /** How many buckets failed. */
    public int failedBuckets() {
        return failedBuckets;
    }

    private static String message(List<String> failures, long committedBuckets) {
        String committed = committedBuckets + " other bucket" + (committedBuckets == 1 ? "" : "s") + " committed";
        if (failures.size() == 1) {
            return failures.get(0) + " (the bucket's files are unchanged; " + committed + ")";
        }
        return String.join("; ", failures) + " (" + failures.size() + " buckets failed to compact, their files are "
                + "unchanged; " + committed + ")";
    }
}
