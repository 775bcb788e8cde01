package io.strata.scheduler.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A checked scheduler configuration ({@link ConfigLoader#load}): the warehouse, the job store, which
 * tables, and the operations of each table ({@link #settingsFor}).
 *
 * @param source the file it was read from, for messages
 * @param discoveryInterval how often the warehouse is listed for tables that appeared or went
 * @param shutdownTimeout how long running operations may take to finish once shutdown begins
 * @param maxConcurrentOperations Quartz worker threads: operations that run at once
 * @param schedulerId the owner of this scheduler's leases and runs and its Quartz instance id:
 *     stable across restarts, so a restart finds the runs its previous process left running, and
 *     unique per process in a cluster (a second live process under the same id is refused at start)
 * @param leaseTtl how long a lease lives without renewal (renewed every third of it while its
 *     operation runs)
 * @param historyRetention finished runs older than this are pruned from the run history
 * @param maxBucketSeries buckets per table that get metric series of their own (the worst ones)
 * @param keys where each key is written, for errors found after loading (a table the warehouse
 *     does not have)
 * @param maxConcurrentCompactions full and backlog compactions that run at once (at most
 *     {@code maxConcurrentOperations}); a fire that finds them all running waits for one to end
 * @param maxConcurrentMaintenance every other operation (expirations, automatic tags, orphan
 *     cleanup) that runs at once (at most {@code maxConcurrentOperations}), waiting likewise
 * @param catchUpSpread how long the fires a downtime left due are spaced over once the scheduler is
 *     back, instead of all at once ({@code quartz.CatchUpSpread}); zero fires them at once
 */
public record SchedulerConfig(
        String source,
        String warehouse,
        StoreConfig store,
        TableSelection tables,
        TableSettings defaults,
        Map<String, TableSettings> overrides,
        Duration discoveryInterval,
        Duration shutdownTimeout,
        int maxConcurrentOperations,
        String schedulerId,
        Duration leaseTtl,
        Duration historyRetention,
        int maxBucketSeries,
        ConfigKeys keys,
        int maxConcurrentCompactions,
        int maxConcurrentMaintenance,
        Duration catchUpSpread) {

    /** The operations of {@code table} ({@code db.name}): its override merged over the defaults. */
    public TableSettings settingsFor(String table) {
        return overrides.getOrDefault(table, defaults);
    }

    /** An error at {@code key} (a dotted path such as {@code tables.names[0]}), located in the file. */
    public ConfigException error(String key, String reason) {
        return keys.error(key, reason);
    }

    /**
     * How Quartz reaches its job store, and whether this scheduler is one node of a Quartz cluster
     * on it.
     *
     * @param clustered whether several scheduler processes share the store (PostgreSQL only): each
     *     trigger fires on one of them, and the work of one that dies mid-run is re-fired by another
     * @param clusterCheckinInterval how often a clustered scheduler checks in; another node counts
     *     it failed once it missed its check-in by this interval plus Quartz's 7.5 s grace
     */
    public record StoreConfig(
            String jdbcUrl, String user, String password, boolean clustered, Duration clusterCheckinInterval) {
        public boolean isH2() {
            return jdbcUrl.startsWith("jdbc:h2:");
        }

        public boolean isPostgres() {
            return jdbcUrl.startsWith("jdbc:postgresql:");
        }

        @Override
        public String toString() {
            return "StoreConfig[" + jdbcUrl + ", user=" + user
                    + (clustered ? ", clustered, check-in every " + clusterCheckinInterval : "") + "]";
        }
    }

    /** Tables by name ({@code db.name}) and whole databases filtered by glob patterns. */
    public record TableSelection(List<String> names, List<DatabaseSelection> databases) {}

    /**
     * The tables of one database whose names match an {@code include} glob ({@code *} and
     * {@code ?}) and no {@code exclude} glob.
     */
    public record DatabaseSelection(String name, List<String> include, List<String> exclude) {
        public boolean matches(String table) {
            return include.stream().anyMatch(g -> Globs.matches(g, table))
                    && exclude.stream().noneMatch(g -> Globs.matches(g, table));
        }
    }
}
