package io.strata.scheduler.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.scheduler.SchedulerService;
import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.config.TableSettings.Compaction;
import io.strata.scheduler.support.ModelWriter;
import io.strata.scheduler.support.SchedulerTests;
import io.strata.storage.compact.CompactStrategy;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quartz.JobKey;

/**
 * The caps on concurrent compactions and maintenance, on Quartz's threads of a running service,
 * with a compaction runner that blocks until the test releases it and records how many of its
 * compactions ran at once.
 */
class OperationCapsTest {
    private static final long SEED = 23;
    /** Inside the full compaction's window 22:00-05:00 UTC. */
    private static final Clock NIGHT = Clock.fixed(Instant.parse("2026-06-10T23:30:00Z"), ZoneOffset.UTC);

    @TempDir
    Path dir;

    /** Compactions that each start and then wait until {@link #release} is counted down. */
    private static final class BlockingRunner implements CompactionRunner {
        final CountDownLatch release = new CountDownLatch(1);
        final Semaphore started = new Semaphore(0);
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger maxRunning = new AtomicInteger();
        final Set<String> compacted = Collections.synchronizedSet(new TreeSet<>());

        @Override
        public CompactionReport compact(String table, CompactStrategy strategy, Compaction placement) throws Exception {
            maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
            started.release();
            try {
                if (!release.await(30, TimeUnit.SECONDS)) {
                    throw new AssertionError("the test never released the compaction of " + table);
                }
                compacted.add(table);
                return new CompactionReport(table, strategy, 1, 2, 1, 1_000, List.of("2"), 0);
            } finally {
                running.decrementAndGet();
            }
        }
    }

    private SchedulerConfig config(Path warehouse, int threads, List<String> tables) {
        // an H2 file without AUTO_SERVER: H2 refuses AUTO_SERVER with the DB_CLOSE_ON_EXIT=FALSE the
        // service adds (main's SchedulerTests.h2Store fails so since 8e4504a)
        String store = "store:\n  jdbc-url: jdbc:h2:file:" + dir.resolve("quartz") + "\n";
        return SchedulerTests.config(warehouse, store, """
                max-concurrent-operations: %d
                max-concurrent-compactions: 1
                max-concurrent-maintenance: 1
                tables:
                  names: [%s]
                defaults:
                  full-compaction:
                    cron: "0 0 2 1 1 ? 2099"
                    window: 22:00-05:00
                    zone: UTC
                  expiration:
                    cron: "0 0 3 1 1 ? 2099"
                    retain-min: 1
                    older-than: 0 ms
                """.formatted(threads, String.join(", ", tables)));
    }

    private static List<String> tables(Path warehouse, int n) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            try (ModelWriter feeder = new ModelWriter(warehouse.toString(), "t" + i, Map.of(), SEED + i)) {
                feeder.commitBatch(5);
                feeder.commitBatch(5);
            }
            names.add("db.t" + i);
        }
        return names;
    }

    /** Waits (at most 30 s) until {@code condition} holds; a wait for a state, not a delay. */
    private static void awaitState(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what + " within 30 s").isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    @Test
    void fourCompactionFiresOnFourThreadsRunOneAtATimeAndAllRun() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        List<String> names = tables(warehouse, 4);
        BlockingRunner runner = new BlockingRunner();
        BlockingQueue<Outcome> outcomes = new LinkedBlockingQueue<>();
        try (SchedulerService s = SchedulerService.start(config(warehouse, 4, names), runner, NIGHT, outcomes::add)) {
            for (String t : names) {
                s.quartz().triggerJob(new JobKey("full-compaction", t));
            }
            // every fire has arrived: one runs and three wait for its slot (or, were the cap not
            // kept, more than one would have started)
            awaitState(
                    "one compaction running and three waiting",
                    () -> runner.started.availablePermits() > 1
                            || (runner.running.get() == 1 && s.admission().waiting() == 3));
            assertThat(runner.started.availablePermits())
                    .as("compactions started")
                    .isEqualTo(1);
            java.io.ByteArrayOutputStream scrape = new java.io.ByteArrayOutputStream();
            s.metrics().write(scrape);
            assertThat(scrape.toString(java.nio.charset.StandardCharsets.UTF_8))
                    .as("the queue gauge counts the fires waiting for a slot")
                    .contains("strata_scheduler_queue_length 3.0");
            runner.release.countDown();
            for (int i = 0; i < 4; i++) {
                Outcome o = outcomes.poll(30, TimeUnit.SECONDS);
                assertThat(o).as("outcome %d of 4", i + 1).isInstanceOf(Outcome.Compacted.class);
            }
            assertThat(runner.compacted).containsExactlyElementsOf(names);
            assertThat(runner.maxRunning.get()).as("compactions at once").isEqualTo(1);
            assertThat(s.admission().waiting()).isZero();
        }
    }

    @Test
    void maintenanceRunsBesideARunningCompaction() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        List<String> names = tables(warehouse, 2);
        BlockingRunner runner = new BlockingRunner();
        BlockingQueue<Outcome> outcomes = new LinkedBlockingQueue<>();
        try (SchedulerService s = SchedulerService.start(config(warehouse, 2, names), runner, NIGHT, outcomes::add)) {
            s.quartz().triggerJob(new JobKey("full-compaction", "db.t0"));
            assertThat(runner.started.tryAcquire(30, TimeUnit.SECONDS))
                    .as("the compaction started")
                    .isTrue();
            s.quartz().triggerJob(new JobKey("expiration", "db.t1"));
            Outcome expired = outcomes.poll(30, TimeUnit.SECONDS);
            assertThat(expired)
                    .as("the expiration, while the compaction still runs")
                    .isInstanceOf(Outcome.Expired.class);
            assertThat(runner.running.get())
                    .as("the compaction is still running")
                    .isEqualTo(1);
            runner.release.countDown();
            assertThat(outcomes.poll(30, TimeUnit.SECONDS)).isInstanceOf(Outcome.Compacted.class);
        }
    }
}
