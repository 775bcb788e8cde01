package io.strata.scheduler.history;

/**
 * What a run did, as its operation reported it; zero for what the operation does not do (and for a
 * dry run, which changes nothing).
 *
 * @param snapshotsExpired snapshots an expiration removed
 * @param filesDeleted files deleted (snapshot, changelog, data, manifest files)
 * @param bytesFreed bytes of the deleted files whose size was known
 * @param rowsCompacted rows a compaction rewrote
 * @param changelogsExpired kept changelogs (of snapshots expired earlier) an expiration removed
 * @param partitionsExpired partitions a partition expiration dropped
 * @param tagsCreated automatic tags created
 */
public record RunCounters(
        long snapshotsExpired,
        long filesDeleted,
        long bytesFreed,
        long rowsCompacted,
        long changelogsExpired,
        long partitionsExpired,
        long tagsCreated) {
    public static final RunCounters NONE = new RunCounters(0, 0, 0, 0, 0, 0, 0);

    public RunCounters {
        if (snapshotsExpired < 0
                || filesDeleted < 0
                || bytesFreed < 0
                || rowsCompacted < 0
                || changelogsExpired < 0
                || partitionsExpired < 0
                || tagsCreated < 0) {
            throw new IllegalArgumentException("Run counters cannot be negative: " + snapshotsExpired + " snapshots, "
                    + filesDeleted + " files, " + bytesFreed + " bytes, " + rowsCompacted + " rows, "
                    + changelogsExpired + " changelogs, " + partitionsExpired + " partitions, " + tagsCreated
                    + " tags");
        }
    }

    /** The counters of a run that expired, deleted or compacted but touched no changelog, partition or tag. */
    public RunCounters(long snapshotsExpired, long filesDeleted, long bytesFreed, long rowsCompacted) {
        this(snapshotsExpired, filesDeleted, bytesFreed, rowsCompacted, 0, 0, 0);
    }

    /** Whether every counter is zero. */
    public boolean isNone() {
        return equals(NONE);
    }
}
