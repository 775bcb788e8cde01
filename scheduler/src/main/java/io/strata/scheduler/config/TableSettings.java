package io.strata.scheduler.config;

import io.strata.scheduler.time.OffPeakWindow;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The operations scheduled for one table; an empty section is not scheduled.
 *
 * @param compaction where this table's compactions run
 */
public record TableSettings(
        Optional<Expiration> expiration,
        Optional<OrphanCleanup> orphanCleanup,
        Optional<FullCompaction> fullCompaction,
        Optional<BacklogCompaction> backlogCompaction,
        Compaction compaction) {

    /**
     * Snapshot expiration on {@code cron} (Quartz syntax, in {@code zone}); the retention given
     * here overrides the table's {@code snapshot.*} options for these runs, the rest come from the table.
     */
    public record Expiration(
            String cron, ZoneId zone, OptionalInt retainMin, OptionalInt retainMax, Optional<Duration> olderThan) {}

    /** Orphan cleanup on {@code cron} of files older than {@code olderThan}; a dry run only reports. */
    public record OrphanCleanup(String cron, ZoneId zone, Duration olderThan, boolean dryRun) {}

    /** Full compaction on {@code cron} (in the window's zone), started only inside {@code window}. */
    public record FullCompaction(String cron, OffPeakWindow window) {}

    /**
     * Every {@code pollInterval} the table's latest snapshot is read; a bucket with more than
     * {@code maxSortedRuns} sorted runs or more than {@code maxLevel0Files} level-0 files starts a
     * compaction of the table.
     */
    public record BacklogCompaction(Duration pollInterval, int maxSortedRuns, int maxLevel0Files) {
        /** Both thresholds when the config leaves them out, and for tables without backlog compaction. */
        public static final int DEFAULT_THRESHOLD = 10;
    }

    /** Where compactions run: this slice runs them on an embedded Flink only. */
    public record Compaction(RunsOn runsOn, int parallelism) {}

    public enum RunsOn {
        EMBEDDED
    }
}
