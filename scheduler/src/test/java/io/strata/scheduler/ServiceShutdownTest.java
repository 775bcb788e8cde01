package io.strata.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.config.TableSettings.Compaction;
import io.strata.scheduler.history.Run;
import io.strata.scheduler.history.RunOutcome;
import io.strata.scheduler.ops.CompactionReport;
import io.strata.scheduler.ops.CompactionRunner;
import io.strata.scheduler.ops.Outcome;
import io.strata.scheduler.quartz.SchedulerDatabase;
import io.strata.scheduler.support.SchedulerTests;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quartz.JobKey;

/**
 * The graceful shutdown: a running operation finishes within the shutdown timeout and its outcome
 * is delivered; one still running after it is interrupted; nothing new starts meanwhile.
 */
class ServiceShutdownTest {
    private static final String FULL_COMPACTION = """
            tables:
              names: [db.t]
            defaults:
              full-compaction:
                cron: "0 0 2 * * ?"
                window: 00:00-23:59
                zone: UTC
            """;
    private static final Clock INSIDE = Clock.fixed(Instant.parse("2026-06-10T12:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path dir;

    @Test
    void aRunningOperationFinishesWithinTheTimeout() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        TestTables.oneRowTable(warehouse.toString());
        CountDownLatch started = new CountDownLatch(1);
        CompactionRunner slow = (table, strategy, placement) -> {
            started.countDown();
            Thread.sleep(1_000);
            return new CompactionReport(table, strategy, 1, 3, 1, 1_000, List.of("2"), 0);
        };
        BlockingQueue<Outcome> outcomes = new LinkedBlockingQueue<>();
        SchedulerConfig config = SchedulerTests.config(warehouse, SchedulerTests.h2Store(dir), FULL_COMPACTION);
        SchedulerService s = SchedulerService.start(config, slow, INSIDE, outcomes::add);
        s.quartz().triggerJob(new JobKey("full-compaction", "db.t"));
        assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
        s.close();
        assertThat(s.state()).isEqualTo(SchedulerService.State.STOPPED);
        assertThat(outcomes.poll()).as("finished before close returned").isInstanceOf(Outcome.Compacted.class);
        assertThat(s.quartz().isShutdown()).isTrue();
    }

    @Test
    void anOperationPastTheTimeoutIsInterrupted() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        TestTables.oneRowTable(warehouse.toString());
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        CompactionRunner stuck = (table, strategy, placement) -> {
            started.countDown();
            try {
                Thread.sleep(120_000);
            } catch (InterruptedException e) {
                interrupted.set(true);
                throw e;
            }
            throw new AssertionError("not interrupted");
        };
        SchedulerConfig config =
                SchedulerTests.config(warehouse, SchedulerTests.h2Store(dir), FULL_COMPACTION, "500 ms");
        SchedulerService s = SchedulerService.start(config, stuck, INSIDE, o -> {});
        s.quartz().triggerJob(new JobKey("full-compaction", "db.t"));
        assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
        long t0 = System.nanoTime();
        s.close();
        assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0)).isLessThan(10);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!interrupted.get() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(interrupted).isTrue();
        assertThat(s.state()).isEqualTo(SchedulerService.State.STOPPED);
        try (SchedulerDatabase db = SchedulerDatabase.open(config.store(), 1, Clock.systemUTC())) {
            Run run = db.history().recent(Optional.of("db.t"), 1).get(0);
            assertThat(run.outcome()).isEqualTo(RunOutcome.INTERRUPTED);
            assertThat(run.error()).hasValueSatisfying(e -> assertThat(e).contains("interrupted"));
            assertThat(db.leases().live()).as("the lease is released").isEmpty();
        }
    }

    @Test
    void theServiceClosesItsRunnerWhenItStopsAndWhenItFailsToStart() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        TestTables.oneRowTable(warehouse.toString());
        SchedulerConfig config = SchedulerTests.config(warehouse, SchedulerTests.h2Store(dir), FULL_COMPACTION);
        AtomicBoolean closed = new AtomicBoolean();
        CompactionRunner runner = new CompactionRunner() {
            @Override
            public CompactionReport compact(String table, CompactStrategy strategy, Compaction placement) {
                throw new AssertionError("no compaction expected");
            }

            @Override
            public void close() {
                closed.set(true);
            }
        };
        SchedulerService s = SchedulerService.start(config, runner, INSIDE, o -> {});
        assertThat(closed).isFalse();
        s.close();
        assertThat(closed).as("closed with the service").isTrue();

        closed.set(false);
        SchedulerConfig unknownTable =
                SchedulerTests.config(warehouse, SchedulerTests.h2Store(dir), "tables:\n  names: [db.nope]\n");
        assertThatThrownBy(() -> SchedulerService.start(unknownTable, runner, INSIDE, o -> {}))
                .hasMessageContaining("db.nope");
        assertThat(closed).as("closed when the start fails").isTrue();
    }
}
