package io.strata.scheduler.config;

import io.strata.scheduler.time.OffPeakWindow;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The operations scheduled for one table; an empty section is not scheduled.
 *
 * @param compaction where this table's compactions run
 */
public record TableSettings(
        Optional<Expiration> expiration,
        Optional<ChangelogExpiration> changelogExpiration,
        Optional<PartitionExpiration> partitionExpiration,
        Optional<AutoTag> autoTag,
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

    /**
     * Expiration of the kept changelogs alone (the changes of snapshots that expired already) on
     * {@code cron}; the retention given here overrides the table's {@code changelog.*} options for
     * these runs ({@code changelog.num-retained.min}, {@code .max}, {@code changelog.time-retained}).
     */
    public record ChangelogExpiration(
            String cron, ZoneId zone, OptionalInt retainMin, OptionalInt retainMax, Optional<Duration> olderThan) {}

    /**
     * Partition expiration on {@code cron}: whole partitions older than the table's
     * {@code partition.expiration-time} (or {@code olderThan}) dropped in one snapshot, their time read
     * with the table's {@code partition.timestamp-pattern} and {@code -formatter} unless given here.
     * A dry run only reports what would be dropped.
     */
    public record PartitionExpiration(
            String cron,
            ZoneId zone,
            Optional<Duration> olderThan,
            Optional<String> timestampPattern,
            Optional<String> timestampFormatter,
            boolean dryRun) {}

    /**
     * On {@code cron}, the automatic tag the table's {@code tag.*} options call for is created if it
     * is due and no commit created it, and automatic tags beyond {@code tag.num-retained-max} go.
     */
    public record AutoTag(String cron, ZoneId zone) {}

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

    /**
     * Where a table's compactions run and with how many rewrite subtasks: on an embedded Flink (a
     * MiniCluster in this process), or on the Flink cluster of {@code cluster}, which is present
     * exactly when {@code runsOn} is {@link RunsOn#REST}.
     */
    public record Compaction(RunsOn runsOn, int parallelism, Optional<FlinkCluster> cluster) {
        public Compaction {
            if ((runsOn == RunsOn.REST) != cluster.isPresent()) {
                throw new IllegalArgumentException("runs-on " + runsOn.key() + " with cluster " + cluster);
            }
        }

        /** Compactions on an embedded Flink. */
        public static Compaction embedded(int parallelism) {
            return new Compaction(RunsOn.EMBEDDED, parallelism, Optional.empty());
        }

        /** Compactions on {@code cluster}. */
        public static Compaction on(FlinkCluster cluster, int parallelism) {
            return new Compaction(RunsOn.REST, parallelism, Optional.of(cluster));
        }
    }

    /**
     * A Flink cluster reached through its REST endpoint {@code host:port}.
     *
     * @param jobJar the shaded compaction job jar, uploaded to the cluster once and run for each job
     * @param cancelOnShutdown whether a job whose scheduler thread is interrupted (shutdown past its
     *     timeout) is cancelled; otherwise it is left running, and commits on its own
     * @param pollInterval how often a running job's status is read
     */
    public record FlinkCluster(String host, int port, Path jobJar, boolean cancelOnShutdown, Duration pollInterval) {
        public String address() {
            return host + ":" + port;
        }
    }

    /** Where compactions run, by the value of {@code runs-on}. */
    public enum RunsOn {
        EMBEDDED("embedded"),
        REST("rest");

        private final String key;

        RunsOn(String key) {
            this.key = key;
        }

        public String key() {
            return key;
        }

        /** The place {@code key} names, or empty. */
        public static Optional<RunsOn> of(String key) {
            return Arrays.stream(values()).filter(r -> r.key.equals(key)).findFirst();
        }

        /** Every value of {@code runs-on}, for messages. */
        public static List<String> keys() {
            return Arrays.stream(values()).map(RunsOn::key).toList();
        }
    }
}
