package io.strata.scheduler.quartz;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.scheduler.SchedulerService;
import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.history.Run;
import io.strata.scheduler.history.RunOutcome;
import io.strata.scheduler.ops.CompactionReport;
import io.strata.scheduler.ops.CompactionRunner;
import io.strata.scheduler.support.SchedulerTests;
import io.strata.storage.testutil.TestTables;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quartz.JobKey;

/**
 * Two schedulers clustered on one PostgreSQL store: every fire of a trigger runs on exactly one of
 * them (no second run of the same fire, none held back by the other's lease), and a scheduler that
 * joins while another runs an operation leaves that run alone (its recovery of fires is for dead
 * members only). Recovery after a member is killed is not tested here: it needs a child JVM.
 */
class ClusteredSchedulersTest {
    @TempDir
    Path dir;

    @Test
    void eachFireRunsOnceAcrossTheCluster() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        TestTables.oneRowTable(warehouse.toString());
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder()
                .setDataDirectory(dir.resolve("pg"))
                .setCleanDataDirectory(true)
                .start()) {
            String store = "store:\n  jdbc-url: " + pg.getJdbcUrl("postgres", "postgres")
                    + "\n  user: postgres\n  clustered: true\n  cluster-checkin-interval: 1s\n";
            String body = """
                    max-concurrent-operations: 2
                    tables:
                      names: [db.t]
                    defaults:
                      expiration:
                        cron: "0/1 * * * * ?"
                        retain-min: 1
                        retain-max: 5
                    """;
            SchedulerConfig a = SchedulerTests.config(warehouse, store, "scheduler-id: node-a\n" + body);
            SchedulerConfig b = SchedulerTests.config(warehouse, store, "scheduler-id: node-b\n" + body);
            assertThat(a.store().clustered()).isTrue();
            long start = System.nanoTime();
            try (SchedulerService sa = start(a);
                    SchedulerService sb = start(b)) {
                Thread.sleep(Duration.ofSeconds(8).toMillis());
            }
            long seconds = Duration.ofNanos(System.nanoTime() - start).toSeconds();
            try (SchedulerDatabase db = SchedulerDatabase.open(a.store(), 2, Clock.systemUTC())) {
                List<Run> runs = db.history().recent(Optional.of("db.t"), 1_000);
                assertThat(runs)
                        .as("no fire held back by a lease of the other scheduler: no fire ran twice")
                        .noneMatch(r -> r.outcome() == RunOutcome.SKIPPED);
                assertThat(runs).allMatch(r -> r.outcome() == RunOutcome.SUCCEEDED);
                assertThat(runs.size())
                        .as("about one run per second over %d s, not two", seconds)
                        .isBetween(3, (int) seconds + 2);
                Set<String> fires =
                        runs.stream().map(r -> r.fireId().orElseThrow()).collect(Collectors.toSet());
                assertThat(fires).as("each run a fire of its own").hasSize(runs.size());
                Set<String> owners = runs.stream().map(Run::owner).collect(Collectors.toSet());
                assertThat(owners).as("owners").isSubsetOf(Set.of("node-a", "node-b"));
            }
        }
    }

    @Test
    void aSchedulerJoiningTheClusterLeavesAnotherOnesRunningOperationAlone() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        TestTables.oneRowTable(warehouse.toString());
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder()
                .setDataDirectory(dir.resolve("pg"))
                .setCleanDataDirectory(true)
                .start()) {
            String store = "store:\n  jdbc-url: " + pg.getJdbcUrl("postgres", "postgres")
                    + "\n  user: postgres\n  clustered: true\n  cluster-checkin-interval: 1s\n";
            String body = """
                    lease-ttl: 3s
                    tables:
                      names: [db.t]
                    defaults:
                      full-compaction:
                        cron: "0 0 2 1 1 ? 2099"
                        window: 00:00-23:59
                        zone: UTC
                    """;
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger joinerCompactions = new AtomicInteger();
            CompactionRunner slow = (table, strategy, placement) -> {
                started.countDown();
                release.await();
                return new CompactionReport(table, strategy, 1, 3, 1, 1_000, List.of("2"), 0);
            };
            CompactionRunner joiner = (table, strategy, placement) -> {
                joinerCompactions.incrementAndGet();
                return new CompactionReport(table, strategy, 0, 0, 0, 0, List.of(), 0);
            };
            SchedulerConfig a = SchedulerTests.config(warehouse, store, "scheduler-id: node-a\n" + body);
            SchedulerConfig b = SchedulerTests.config(warehouse, store, "scheduler-id: node-b\n" + body);
            try (SchedulerService sa = SchedulerService.start(a, slow, Clock.systemUTC(), o -> {})) {
                sa.quartz().triggerJob(new JobKey("full-compaction", "db.t"));
                assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
                try (SchedulerService sb = SchedulerService.start(b, joiner, Clock.systemUTC(), o -> {})) {
                    // longer than a recovered fire would wait for node-a's lease (TTL + 1 s)
                    Thread.sleep(6_000);
                    release.countDown();
                    Thread.sleep(1_000);
                }
            }
            assertThat(joinerCompactions).hasValue(0);
            try (SchedulerDatabase db = SchedulerDatabase.open(a.store(), 2, Clock.systemUTC())) {
                List<Run> runs = db.history().recent(Optional.of("db.t"), 100);
                assertThat(runs).as("one run, node-a's, finished").hasSize(1);
                assertThat(runs.get(0).owner()).isEqualTo("node-a");
                assertThat(runs.get(0).outcome()).isEqualTo(RunOutcome.SUCCEEDED);
            }
        }
    }

    private static SchedulerService start(SchedulerConfig config) throws Exception {
        return SchedulerService.start(config, SchedulerTests.noCompactions(), Clock.systemUTC(), o -> {});
    }
}
