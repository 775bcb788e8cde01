package io.strata.scheduler.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * The YAML shape of {@code scheduler.yaml}, as Jackson binds it: every key optional here (absent
 * is null), unknown keys rejected by the loader. {@link ConfigLoader} checks and types it.
 */
record RawConfig(
        @JsonProperty("warehouse") String warehouse,
        @JsonProperty("store") Store store,
        @JsonProperty("tables") Tables tables,
        @JsonProperty("defaults") Settings defaults,
        @JsonProperty("overrides") Map<String, Settings> overrides,
        @JsonProperty("discovery-interval") String discoveryInterval,
        @JsonProperty("shutdown-timeout") String shutdownTimeout,
        @JsonProperty("max-concurrent-operations") Integer maxConcurrentOperations,
        @JsonProperty("max-concurrent-compactions") Integer maxConcurrentCompactions,
        @JsonProperty("max-concurrent-maintenance") Integer maxConcurrentMaintenance,
        @JsonProperty("scheduler-id") String schedulerId,
        @JsonProperty("lease-ttl") String leaseTtl,
        @JsonProperty("history-retention") String historyRetention,
        @JsonProperty("max-bucket-series") Integer maxBucketSeries,
        @JsonProperty("catch-up-spread") String catchUpSpread) {

    record Store(
            @JsonProperty("h2-path") String h2Path,
            @JsonProperty("jdbc-url") String jdbcUrl,
            @JsonProperty("user") String user,
            @JsonProperty("password") String password,
            @JsonProperty("clustered") Boolean clustered,
            @JsonProperty("cluster-checkin-interval") String clusterCheckinInterval) {}

    record Tables(
            @JsonProperty("names") List<String> names,
            @JsonProperty("databases") List<Database> databases) {}

    record Database(
            @JsonProperty("name") String name,
            @JsonProperty("include") List<String> include,
            @JsonProperty("exclude") List<String> exclude) {}

    record Settings(
            @JsonProperty("expiration") Expiration expiration,
            @JsonProperty("changelog-expiration") Expiration changelogExpiration,
            @JsonProperty("partition-expiration") PartitionExpiration partitionExpiration,
            @JsonProperty("auto-tag") AutoTag autoTag,
            @JsonProperty("orphan-cleanup") OrphanCleanup orphanCleanup,
            @JsonProperty("full-compaction") FullCompaction fullCompaction,
            @JsonProperty("backlog-compaction") BacklogCompaction backlogCompaction,
            @JsonProperty("compaction") Compaction compaction) {}

    record Expiration(
            @JsonProperty("enabled") Boolean enabled,
            @JsonProperty("cron") String cron,
            @JsonProperty("zone") String zone,
            @JsonProperty("retain-min") Integer retainMin,
            @JsonProperty("retain-max") Integer retainMax,
            @JsonProperty("older-than") String olderThan) {}

    record PartitionExpiration(
            @JsonProperty("enabled") Boolean enabled,
            @JsonProperty("cron") String cron,
            @JsonProperty("zone") String zone,
            @JsonProperty("older-than") String olderThan,
            @JsonProperty("timestamp-pattern") String timestampPattern,
            @JsonProperty("timestamp-formatter") String timestampFormatter,
            @JsonProperty("dry-run") Boolean dryRun) {}

    record AutoTag(
            @JsonProperty("enabled") Boolean enabled,
            @JsonProperty("cron") String cron,
            @JsonProperty("zone") String zone) {}

    record OrphanCleanup(
            @JsonProperty("enabled") Boolean enabled,
            @JsonProperty("cron") String cron,
            @JsonProperty("zone") String zone,
            @JsonProperty("older-than") String olderThan,
            @JsonProperty("dry-run") Boolean dryRun) {}

    record FullCompaction(
            @JsonProperty("enabled") Boolean enabled,
            @JsonProperty("cron") String cron,
            @JsonProperty("window") String window,
            @JsonProperty("zone") String zone) {}

    record BacklogCompaction(
            @JsonProperty("enabled") Boolean enabled,
            @JsonProperty("poll-interval") String pollInterval,
            @JsonProperty("max-sorted-runs") Integer maxSortedRuns,
            @JsonProperty("max-level0-files") Integer maxLevel0Files) {}

    record Compaction(
            @JsonProperty("runs-on") String runsOn,
            @JsonProperty("parallelism") Integer parallelism,
            @JsonProperty("rest-address") String restAddress,
            @JsonProperty("job-jar") String jobJar,
            @JsonProperty("cancel-on-shutdown") Boolean cancelOnShutdown,
            @JsonProperty("poll-interval") String pollInterval) {}
}
