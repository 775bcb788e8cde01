package io.strata.scheduler.support;

import io.strata.scheduler.config.ConfigLoader;
import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.ops.CompactionRunner;
import java.nio.file.Path;

/** Configs and stand-ins shared by the scheduler's tests. */
public final class SchedulerTests {
    private SchedulerTests() {}

    /** A config of {@code warehouse} with {@code body} (YAML after the warehouse and store keys). */
    public static SchedulerConfig config(Path warehouse, String store, String body) {
        return config(warehouse, store, body, "10s");
    }

    /** {@link #config(Path, String, String)} with the given shutdown timeout. */
    public static SchedulerConfig config(Path warehouse, String store, String body, String shutdownTimeout) {
        return ConfigLoader.parse(
                "test.yaml",
                "warehouse: " + warehouse + "\n" + "discovery-interval: 1h\n" + "shutdown-timeout: " + shutdownTimeout
                        + "\n" + store + body);
    }

    /** The YAML of an H2 job store file under {@code dir}. */
    public static String h2Store(Path dir) {
        return "store:\n  h2-path: " + dir.resolve("quartz") + "\n";
    }

    /** A runner for tests in which no compaction may start. */
    public static CompactionRunner noCompactions() {
        return (table, strategy, placement) -> {
            throw new AssertionError("no compaction expected, got " + strategy + " of " + table);
        };
    }
}
