package io.strata.compaction;

import io.strata.compaction.commit.CompactionEvent;
import io.strata.compaction.job.JobSpec;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.BucketId;
import io.strata.storage.data.GenericRow;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.mergetree.Levels;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TestTables;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;

/** Tables written by a write-only writer against the in-memory model, and jobs run on the shared MiniCluster. */
public final class JobTestSupport {
    private JobTestSupport() {}

    static MiniClusterExtension miniCluster() {
        return new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                .setNumberTaskManagers(1)
                .setNumberSlotsPerTaskManager(4)
                .build());
    }

    /** A model table (p INT, id INT, ...), write-only, with {@code options}. */
    public static FileStoreTable create(
            String warehouse, String name, boolean partitioned, int buckets, Map<String, String> options) {
        Map<String, String> o = new HashMap<>(options);
        o.put("write-only", "true");
        o.putIfAbsent("num-sorted-run.compaction-trigger", "3");
        return Catalog.open(warehouse).createTable("db", name, TestTables.modelSchema(partitioned, buckets, o));
    }

    /** Writes {@code commits} commits of {@code rows} random rows each, applying them to the model. */
    public static void ingest(
            FileStoreTable t,
            TableModel model,
            Random rnd,
            int commits,
            int rows,
            int keys,
            String user,
            long firstIdentifier) {
        try (TableWrite w = t.newWrite(user);
                TableCommit c = t.newCommit(user)) {
            for (int i = 0; i < commits; i++) {
                for (int r = 0; r < rows; r++) {
                    GenericRow row = TableModel.randomRow(rnd, keys);
                    model.apply(row);
                    w.write(row);
                }
                c.commit(firstIdentifier + i, w.prepareCommit());
            }
        }
    }

    static Map<List<Object>, List<Object>> contents(FileStoreTable t) {
        return TableModel.toContents(TestTables.scan(t));
    }

    static Map<BucketId, Levels> levels(FileStoreTable t) {
        return t.newCompactor().levels(t.snapshotManager().latest().orElseThrow(), EntryFilter.ALL);
    }

    public static JobSpec spec(String warehouse, String strategy, String mode, int parallelism, String... extra) {
        List<String> argv = new ArrayList<>(List.of(
                "--warehouse",
                warehouse,
                "--strategy",
                strategy,
                "--mode",
                mode,
                "--parallelism",
                String.valueOf(parallelism)));
        argv.addAll(List.of(extra));
        if (!argv.contains("--discovery-interval")) {
            argv.addAll(List.of("--discovery-interval", "200 ms"));
        }
        if (!argv.contains("--checkpoint-interval")) {
            argv.addAll(List.of("--checkpoint-interval", "500 ms"));
        }
        if (!argv.contains("--database") && argv.stream().noneMatch(a -> a.startsWith("db."))) {
            argv.addAll(List.of("--database", "db"));
        }
        return picocli.CommandLine.populateCommand(new CompactionJob.Args(), argv.toArray(new String[0]))
                .toSpec();
    }

    /** Runs a job to its end on the shared MiniCluster and returns the committer's events. */
    static List<CompactionEvent> runToEnd(JobSpec spec) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        List<CompactionEvent> events = new ArrayList<>();
        try (CloseableIterator<CompactionEvent> it =
                CompactionPipeline.build(env, spec).executeAndCollect()) {
            it.forEachRemaining(events::add);
        }
        return events;
    }

    static Configuration restarts(int attempts) {
        Configuration c = new Configuration();
        c.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        c.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, attempts);
        c.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
        return c;
    }
}
