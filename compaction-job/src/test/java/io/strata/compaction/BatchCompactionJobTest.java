package io.strata.compaction;

import static io.strata.compaction.JobTestSupport.contents;
import static io.strata.compaction.JobTestSupport.create;
import static io.strata.compaction.JobTestSupport.ingest;
import static io.strata.compaction.JobTestSupport.levels;
import static io.strata.compaction.JobTestSupport.runToEnd;
import static io.strata.compaction.JobTestSupport.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.compaction.commit.CompactionEvent;
import io.strata.compaction.job.JobSpec;
import io.strata.storage.mergetree.Levels;
import io.strata.storage.schema.Schema;
import io.strata.storage.snapshot.CommitKind;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.testutil.LsmInvariants;
import io.strata.storage.testutil.TableModel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The job in batch mode on a MiniCluster, against the in-memory model. */
class BatchCompactionJobTest {
    @RegisterExtension
    static final MiniClusterExtension MINI = JobTestSupport.miniCluster();

    @TempDir
    Path dir;

    private String wh() {
        return dir.toString();
    }

    @Test
    void fullCompactionOfAPartitionedMultiBucketTableEqualsTheModel() throws Exception {
        long seed = 11;
        FileStoreTable t = create(wh(), "orders", true, 3, Map.of());
        TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
        ingest(t, model, new Random(seed), 6, 300, 200, "writer", 1);
        int buckets = levels(t).size();
        assertThat(levels(t).values())
                .as("seed %d: several level-0 runs per bucket before", seed)
                .allMatch(l -> l.level0().size() >= 5);

        List<CompactionEvent> events = runToEnd(spec(wh(), "full", "batch", 2, "--table", "orders"));

        assertThat(contents(t)).as("seed %d", seed).isEqualTo(model.contents());
        for (Levels l : levels(t).values()) {
            assertThat(l.level0()).isEmpty();
            assertThat(l.numberOfSortedRuns()).isEqualTo(1);
            assertThat(l.nonEmptyHighestLevel()).isEqualTo(l.maxLevel());
        }
        LsmInvariants.check(t);
        LsmInvariants.checkRowCounts(t);
        assertThat(events.stream().filter(e -> e.kind.equals(CompactionEvent.REWRITTEN)))
                .hasSize(buckets);
        Snapshot last = t.snapshotManager().latest().orElseThrow();
        assertThat(last.commitKind()).isEqualTo(CommitKind.COMPACT);
        assertThat(last.id()).as("one commit at the end of a batch job").isEqualTo(7);
    }

    @Test
    void minorCompactionBringsEveryBucketUnderTheTrigger() throws Exception {
        FileStoreTable t = create(wh(), "minor", true, 2, Map.of("num-sorted-run.compaction-trigger", "4"));
        TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
        ingest(t, model, new Random(12), 9, 200, 150, "writer", 1);
        assertThat(levels(t).values()).anyMatch(l -> l.numberOfSortedRuns() > 4);

        runToEnd(spec(wh(), "minor", "batch", 2, "--table", "minor"));

        assertThat(contents(t)).isEqualTo(model.contents());
        assertThat(levels(t).values()).allMatch(l -> l.numberOfSortedRuns() <= 4);
        LsmInvariants.check(t);
    }

    /**
     * The job merges with the table's engine: first-row under sequence.field (late lower rows
     * replace the winner) and aggregation with product, first_value, first_non_null_value and
     * retracting last_non_null_value and last_value, and the ordered engines (partial-update
     * under sequence.field and sequence groups, order-sensitive functions in a group, aggregation
     * under sequence.field, with late rows)
     * compact minor, then full, to the model.
     */
    @ParameterizedTest
    @EnumSource(
            value = TableModel.Mode.class,
            names = {
                "FIRST_ROW_SEQUENCE_FIELD",
                "AGGREGATION_OTHER_FUNCTIONS",
                "PARTIAL_UPDATE_SEQUENCE_FIELD",
                "PARTIAL_UPDATE_SEQUENCE_FIELD_REMOVE",
                "PARTIAL_UPDATE_SEQUENCE_GROUPS",
                "PARTIAL_UPDATE_SEQUENCE_FIELD_GROUPS",
                "AGGREGATION_SEQUENCE_FIELD",
                "PARTIAL_UPDATE_SEQUENCE_GROUP_FUNCTIONS"
            })
    void tablesOfOtherEnginesCompactToTheModel(TableModel.Mode mode) throws Exception {
        long seed = 14 + mode.ordinal();
        String name = mode.name().toLowerCase(Locale.ROOT);
        FileStoreTable t = create(wh(), name, true, 2, TableModel.options(mode));
        TableModel model = new TableModel(mode);
        ingest(t, model, new Random(seed), 8, 150, 60, "writer", 1);

        runToEnd(spec(wh(), "minor", "batch", 2, "--table", name));
        assertThat(contents(t)).as("seed %d, after minor", seed).isEqualTo(model.contents());
        runToEnd(spec(wh(), "full", "batch", 2, "--table", name));
        assertThat(contents(t)).as("seed %d, after full", seed).isEqualTo(model.contents());
        assertThat(levels(t).values()).allMatch(l -> l.numberOfSortedRuns() == 1);
        LsmInvariants.check(t);
        LsmInvariants.checkRowCounts(t);
    }

    @Test
    void oneJobCompactsSeveralTablesOfADatabaseAndSkipsAppendTables() throws Exception {
        List<FileStoreTable> tables = new ArrayList<>();
        List<TableModel> models = new ArrayList<>();
        for (String name : List.of("t_a", "t_b", "other")) {
            FileStoreTable t = create(wh(), name, false, 2, Map.of());
            TableModel m = new TableModel(TableModel.Mode.DEDUPLICATE);
            ingest(t, m, new Random(name.hashCode()), 4, 100, 80, "w", 1);
            tables.add(t);
            models.add(m);
        }
        Catalog.open(wh())
                .createTable(
                        "db", "log", Schema.newBuilder().column("x", "BIGINT").build());

        runToEnd(spec(wh(), "full", "batch", 2, "--including-tables", "t_.*"));
        for (int i = 0; i < 2; i++) {
            assertThat(contents(tables.get(i))).isEqualTo(models.get(i).contents());
            assertThat(levels(tables.get(i)).values()).allMatch(l -> l.numberOfSortedRuns() == 1);
        }
        assertThat(levels(tables.get(2)).values())
                .as("not matched by the regex")
                .allMatch(l -> l.level0().size() == 4);

        runToEnd(spec(wh(), "full", "batch", 1)); // the whole database
        assertThat(levels(tables.get(2)).values()).allMatch(l -> l.numberOfSortedRuns() == 1);
        assertThat(contents(tables.get(2))).isEqualTo(models.get(2).contents());
    }

    @Test
    void partitionFiltersRestrictTheJob() throws Exception {
        FileStoreTable t = create(wh(), "parts", true, 2, Map.of());
        TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
        ingest(t, model, new Random(13), 5, 200, 100, "w", 1);

        runToEnd(spec(wh(), "full", "batch", 1, "--table", "parts", "--where", "p >= 1"));
        levels(t)
                .forEach((k, l) -> assertThat(l.numberOfSortedRuns())
                        .as("bucket %s", k)
                        .isEqualTo(((Integer) k.partition()[0]) >= 1 ? 1 : 5));
        runToEnd(spec(wh(), "full", "batch", 1, "--table", "parts", "--partition", "p=0"));
        assertThat(levels(t).values()).allMatch(l -> l.numberOfSortedRuns() == 1);
        assertThat(contents(t)).isEqualTo(model.contents());

        assertThatThrownBy(() -> runToEnd(spec(wh(), "full", "batch", 1, "--table", "parts", "--where", "id = 3")))
                .hasStackTraceContaining("'id' is not a partition column");
    }

    /** The runner on a cluster started beforehand (the extension's), one job after another: the benchmark's setup. */
    @Test
    void anEmbeddedRunnerOnAGivenClusterRunsJobAfterJobAndReportsTheirEvents() throws Exception {
        for (String name : List.of("shared_a", "shared_b")) {
            FileStoreTable t = create(wh(), name, false, 3, Map.of());
            TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
            ingest(t, model, new Random(name.hashCode()), 5, 150, 120, "w", 1);
            int buckets = levels(t).size();
            List<CompactionEvent> events = new CopyOnWriteArrayList<>();
            JobSpec spec = spec(wh(), "full", "batch", 2, "--table", name);
            AtomicInteger environments = new AtomicInteger();
            try (EmbeddedJobRunner runner = new EmbeddedJobRunner(
                    spec, dir.resolve("savepoints").toUri().toString(), () -> {
                        environments.incrementAndGet();
                        return StreamExecutionEnvironment.getExecutionEnvironment();
                    })) {
                runner.run(events::add);
            }
            assertThat(environments)
                    .as("the job ran where the given environment submits")
                    .hasValue(1);
            assertThat(events.stream().filter(e -> e.kind.equals(CompactionEvent.REWRITTEN)))
                    .as(name)
                    .hasSize(buckets);
            assertThat(events.stream().filter(e -> e.kind.equals(CompactionEvent.COMMITTED)))
                    .as(name)
                    .hasSize(1);
            assertThat(contents(t)).as(name).isEqualTo(model.contents());
            assertThat(levels(t).values()).allMatch(l -> l.numberOfSortedRuns() == 1);
            LsmInvariants.check(t);
        }
    }

    @Test
    void partialCommitsKeepProgressEveryNBuckets() throws Exception {
        FileStoreTable t = create(wh(), "partial", false, 4, Map.of());
        TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
        ingest(t, model, new Random(14), 4, 200, 400, "w", 1);
        long before = t.snapshotManager().latestId().getAsLong();

        List<CompactionEvent> events =
                runToEnd(spec(wh(), "full", "batch", 2, "--table", "partial", "--partial-commit-every", "1"));

        assertThat(events.stream().filter(e -> e.kind.equals(CompactionEvent.COMMITTED)))
                .hasSize(4);
        assertThat(t.snapshotManager().latestId().getAsLong()).isEqualTo(before + 4);
        assertThat(contents(t)).isEqualTo(model.contents());
    }

    @Test
    void twoJobsCompactingTheSameTableAtOnceLeaveItCorrect() throws Exception {
        FileStoreTable t = create(wh(), "racy", false, 4, Map.of());
        TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
        ingest(t, model, new Random(15), 6, 300, 500, "w", 1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<List<CompactionEvent>> a =
                    pool.submit(() -> runToEnd(spec(wh(), "full", "batch", 1, "--table", "racy")));
            Future<List<CompactionEvent>> b =
                    pool.submit(() -> runToEnd(spec(wh(), "full", "batch", 1, "--table", "racy")));
            a.get();
            b.get();
        } finally {
            pool.shutdownNow();
        }
        assertThat(contents(t)).isEqualTo(model.contents());
        assertThat(levels(t).values()).allMatch(l -> l.numberOfSortedRuns() == 1);
        LsmInvariants.check(t);
        LsmInvariants.checkRowCounts(t);
    }

    @Test
    void fullStrategyIsRejectedInStreamingMode() {
        assertThatThrownBy(() -> spec(wh(), "full", "streaming", 1, "--table", "x"))
                .hasMessageContaining("batch mode only");
        assertThatThrownBy(() -> spec(wh(), "minor", "nonsense", 1, "--table", "x"))
                .hasMessageContaining("--mode must be batch or streaming");
    }
}
