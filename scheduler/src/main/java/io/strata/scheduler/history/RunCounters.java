package io.strata.scheduler.history;

/** What a run did, as its operation reported it; zero for what the operation does not do. */
public record RunCounters(long snapshotsExpired, long filesDeleted, long bytesFreed, long rowsCompacted) {
    public static final RunCounters NONE = new RunCounters(0, 0, 0, 0);

    public RunCounters {
        if (snapshotsExpired < 0 || filesDeleted < 0 || bytesFreed < 0 || rowsCompacted < 0) {
            throw new IllegalArgumentException("Run counters cannot be negative: " + snapshotsExpired + " snapshots, "
                    + filesDeleted + " files, " + bytesFreed + " bytes, " + rowsCompacted + " rows");
        }
    }
}
