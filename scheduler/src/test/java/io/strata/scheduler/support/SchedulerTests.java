package io.strata.scheduler.support;

import io.strata.scheduler.config.ConfigLoader;
import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.lease.TestDatabase;
import io.strata.scheduler.ops.CompactionRunner;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Configs and stand-ins shared by the scheduler's tests. */
public final class SchedulerTests {
    private SchedulerTests() {}

    /** A config of {@code warehouse} with {@code body} (YAML after the warehouse and store keys). */
    public static SchedulerConfig config(Path warehouse, String store, String body) {
        return config(warehouse, store, body, "10s");
    }

    /** {@link #config(Path, String, String)} with the given shutdown timeout. */
    public static SchedulerConfig config(Path warehouse, String store, String body, String shutdownTimeout) {
        return ConfigLoader.parse("test.yaml", yaml(warehouse, store, body, shutdownTimeout));
    }

    /** The YAML text of {@link #config(Path, String, String, String)}, for a file a child process loads. */
    public static String yaml(Path warehouse, String store, String body, String shutdownTimeout) {
        return "warehouse: " + warehouse + "\n" + "discovery-interval: 1h\n" + "shutdown-timeout: " + shutdownTimeout
                + "\n" + store + body;
    }

    /**
     * The YAML text of a scheduler node's config file: {@link #yaml} with its {@code scheduler-id}
     * and {@code lease-ttl} ahead of {@code body}.
     */
    public static String nodeYaml(
            Path warehouse, String store, String id, String leaseTtl, String body, String shutdownTimeout) {
        return yaml(
                warehouse, store, "scheduler-id: " + id + "\nlease-ttl: " + leaseTtl + "\n" + body, shutdownTimeout);
    }

    /** The YAML of a clustered PostgreSQL job store in {@code db}, checking in every second. */
    public static String clusteredStore(TestDatabase db) {
        return "store:\n  jdbc-url: " + db.jdbcUrl() + "\n  user: " + db.user() + "\n  password: " + db.password()
                + "\n  clustered: true\n  cluster-checkin-interval: 1s\n";
    }

    /** The YAML of an H2 job store file under {@code dir}. */
    public static String h2Store(Path dir) {
        return "store:\n  h2-path: " + dir.resolve("quartz") + "\n";
    }

    /**
     * The config body of a full compaction of {@code db.t} whose cron fires in 2099 only (so it runs
     * when triggered) and whose window is open for an hour either side of now, in UTC.
     */
    public static String fullCompactionWhenTriggered() {
        DateTimeFormatter hm = DateTimeFormatter.ofPattern("HH:mm");
        LocalTime now = LocalTime.now(ZoneOffset.UTC);
        return "tables:\n  names: [db.t]\ndefaults:\n  full-compaction:\n    cron: \"0 0 3 1 1 ? 2099\"\n"
                + "    window: " + now.minusHours(1).format(hm) + "-"
                + now.plusHours(1).format(hm) + "\n"
                + "    zone: UTC\n";
    }

    /** A runner for tests in which no compaction may start. */
    public static CompactionRunner noCompactions() {
        return (table, strategy, placement) -> {
            throw new AssertionError("no compaction expected, got " + strategy + " of " + table);
        };
    }
}
