package io.strata.scheduler.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.scheduler.SchedulerService;
import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.config.TableSettings;
import io.strata.scheduler.support.ModelWriter;
import io.strata.scheduler.support.SchedulerTests;
import io.strata.storage.data.GenericRow;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quartz.JobKey;
import org.quartz.Trigger;
import org.quartz.TriggerKey;

/** The operations on real tables in a temporary warehouse, fired through Quartz. */
class OperationsTest {
    private static final long SEED = 16;

    @TempDir
    Path dir;

    @Test
    void anExpirationScheduleExpires() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        BlockingQueue<Outcome> outcomes = new LinkedBlockingQueue<>();
        try (ModelWriter feeder = new ModelWriter(warehouse.toString(), "t", Map.of(), SEED)) {
            for (int i = 0; i < 6; i++) {
                feeder.commitBatch(10);
            }
        }
        SchedulerConfig config = SchedulerTests.config(warehouse, SchedulerTests.h2Store(dir), """
                tables:
                  databases:
                    - name: db
                defaults:
                  expiration:
                    cron: "0 0 3 * * ?"
                    retain-min: 2
                    older-than: 0 ms
                """);
        Outcome o;
        try (SchedulerService s =
                SchedulerService.start(config, SchedulerTests.noCompactions(), Clock.systemUTC(), outcomes::add)) {
            s.quartz().triggerJob(new JobKey("expiration", "db.t"));
            o = outcomes.poll(30, TimeUnit.SECONDS);
            assertThat(o).isInstanceOf(Outcome.Expired.class);
        }
        FileStoreTable t = Catalog.open(warehouse.toString()).getTable("db.t");
        // everything older than 0 ms goes, down to retain-min
        assertThat(t.snapshotManager().listIds()).containsExactly(5L, 6L);
        assertThat(((Outcome.Expired) o).result().plan().snapshotsExpired()).isEqualTo(4);
    }

    @Test
    void backlogPollingCompactsATableAWriterKeepsFeeding() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        BlockingQueue<Outcome> outcomes = new LinkedBlockingQueue<>();
        SchedulerConfig config = SchedulerTests.config(warehouse, SchedulerTests.h2Store(dir), """
                tables:
                  databases:
                    - name: db
                defaults:
                  backlog-compaction:
                    poll-interval: 500 ms
                    max-sorted-runs: 3
                    max-level0-files: 100
                  compaction:
                    parallelism: 1
                """);
        // the table's own trigger agrees with the threshold, so the minor compaction picks the backlog
        try (ModelWriter feeder = new ModelWriter(
                        warehouse.toString(), "feed", Map.of("num-sorted-run.compaction-trigger", "3"), SEED);
                SchedulerService s = SchedulerService.start(
                        config,
                        new EmbeddedCompactionRunner(warehouse.toString(), dir.toFile()),
                        Clock.systemUTC(),
                        outcomes::add)) {
            s.discoverNow();
            // stopped by a flag, not an interrupt: a batch is committed whole or not written
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            Thread writer = new Thread(() -> {
                while (!stop.get()) {
                    feeder.commitBatch(50);
                    try {
                        Thread.sleep(100);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            writer.start();
            Outcome.Compacted compacted = null;
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (compacted == null && System.nanoTime() < deadline) {
                    Outcome o = outcomes.poll(1, TimeUnit.SECONDS);
                    if (o instanceof Outcome.Compacted c) {
                        compacted = c;
                    }
                }
            } finally {
                stop.set(true);
                writer.join();
            }
            assertThat(compacted).as("a compaction fired by the backlog").isNotNull();
            assertThat(compacted.kind()).isEqualTo(OperationKind.BACKLOG_COMPACTION);
            CompactionReport r = compacted.report();
            assertThat(r.buckets()).isPositive();
            assertThat(r.sortedRunsAfter()).isLessThan(r.sortedRunsBefore());
            assertThat(r.committedSnapshots()).isNotEmpty();
            Map<Long, String> scanned = new TreeMap<>();
            for (GenericRow row : TestTables.scan(feeder.table())) {
                scanned.put((Long) row.get(0), (String) row.get(1));
            }
            assertThat(scanned)
                    .as("the table after compaction beside the writer (seed " + SEED + ")")
                    .isEqualTo(feeder.model());
        }
    }

    @Test
    void fullCompactionIsRefusedOutsideItsWindowAndDeferredToItsOpening() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        TestTables.oneRowTable(warehouse.toString());
        BlockingQueue<Outcome> outcomes = new LinkedBlockingQueue<>();
        SchedulerConfig config = SchedulerTests.config(warehouse, SchedulerTests.h2Store(dir), """
                tables:
                  names: [db.t]
                defaults:
                  full-compaction:
                    cron: "0 0 2 * * ?"
                    window: 02:00-05:00
                    zone: UTC
                """);
        Clock noon = Clock.fixed(Instant.parse("2026-06-10T12:00:00Z"), ZoneOffset.UTC);
        try (SchedulerService s = SchedulerService.start(config, SchedulerTests.noCompactions(), noon, outcomes::add)) {
            s.quartz().triggerJob(new JobKey("full-compaction", "db.t"));
            Outcome o = outcomes.poll(30, TimeUnit.SECONDS);
            assertThat(o).isInstanceOf(Outcome.Skipped.class);
            Outcome.Skipped skipped = (Outcome.Skipped) o;
            assertThat(skipped.reason()).contains("outside the off-peak window 02:00-05:00 UTC");
            Instant opening = Instant.parse("2026-06-11T02:00:00Z");
            assertThat(skipped.retryAt()).contains(opening);
            Trigger deferred = s.quartz().getTrigger(new TriggerKey("full-compaction-deferred", "db.t"));
            assertThat(deferred.getStartTime().toInstant()).isEqualTo(opening);
        }
    }

    @Test
    void fullCompactionRunsInsideItsWindow() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        TestTables.oneRowTable(warehouse.toString());
        BlockingQueue<Outcome> outcomes = new LinkedBlockingQueue<>();
        List<String> ran = new java.util.concurrent.CopyOnWriteArrayList<>();
        CompactionRunner recording = (table, strategy, placement) -> {
            ran.add(table + " " + strategy);
            return new CompactionReport(table, strategy, 1, 2, 1, 1_000, List.of("1"), 0);
        };
        SchedulerConfig config = SchedulerTests.config(warehouse, SchedulerTests.h2Store(dir), """
                tables:
                  names: [db.t]
                defaults:
                  full-compaction:
                    cron: "0 0 2 * * ?"
                    window: 22:00-05:00
                    zone: UTC
                """);
        Clock night = Clock.fixed(Instant.parse("2026-06-10T23:30:00Z"), ZoneOffset.UTC);
        try (SchedulerService s = SchedulerService.start(config, recording, night, outcomes::add)) {
            s.quartz().triggerJob(new JobKey("full-compaction", "db.t"));
            Outcome o = outcomes.poll(30, TimeUnit.SECONDS);
            assertThat(o).isInstanceOf(Outcome.Compacted.class);
            assertThat(ran).containsExactly("db.t FULL");
        }
    }

    @Test
    void orphanCleanupDeletesOldOrphansAndADryRunOnlyReportsThem() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        TestTables.oneRowTable(warehouse.toString());
        Path tableDir = warehouse.resolve("db.db").resolve("t");
        Path data;
        try (var files = java.nio.file.Files.walk(tableDir)) {
            data = files.filter(f -> f.getFileName().toString().endsWith(".parquet"))
                    .findFirst()
                    .orElseThrow();
        }
        Path orphan = data.resolveSibling("data-orphan-0.parquet");
        java.nio.file.Files.copy(data, orphan);
        java.nio.file.Files.setLastModifiedTime(
                orphan, java.nio.file.attribute.FileTime.from(Instant.now().minus(java.time.Duration.ofDays(2))));
        TableOperations ops = new TableOperations(
                Catalog.open(warehouse.toString()), SchedulerTests.noCompactions(), Clock.systemUTC());

        Outcome dry = ops.cleanOrphans(
                "db.t",
                new TableSettings.OrphanCleanup("0 0 3 * * ?", ZoneOffset.UTC, java.time.Duration.ofDays(1), true));
        assertThat(((Outcome.OrphansCleaned) dry).result().orphans())
                .singleElement()
                .satisfies(f -> assertThat(f.path()).endsWith("data-orphan-0.parquet"));
        assertThat(orphan).as("a dry run deletes nothing").exists();

        Outcome real = ops.cleanOrphans(
                "db.t",
                new TableSettings.OrphanCleanup("0 0 3 * * ?", ZoneOffset.UTC, java.time.Duration.ofDays(1), false));
        assertThat(((Outcome.OrphansCleaned) real).result().deleted()).hasSize(1);
        assertThat(orphan).doesNotExist();
        assertThat(data).as("a referenced file stays").exists();
        assertThat(TestTables.scan(Catalog.open(warehouse.toString()).getTable("db.t")))
                .hasSize(1);
    }

    @Test
    void aMisfiredFullCompactionStartsLateOnlyWhileItsWindowIsOpen() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        TestTables.oneRowTable(warehouse.toString());
        List<String> ran = new java.util.concurrent.CopyOnWriteArrayList<>();
        CompactionRunner recording = (table, strategy, placement) -> {
            ran.add(table);
            return new CompactionReport(table, strategy, 1, 2, 1, 1_000, List.of("2"), 0);
        };
        var full = new TableSettings.FullCompaction(
                "0 0 2 * * ?",
                io.strata.scheduler.time.OffPeakWindow.parse("02:00-05:00", java.time.ZoneId.of("Europe/Berlin")));
        var placement = TableSettings.Compaction.embedded(1);
        Instant due = Instant.parse("2026-06-10T00:00:00Z"); // 02:00 in Berlin
        // the scheduler was down from 02:00 to 04:30 Berlin time: the fire comes late, inside the window
        Clock lateInside = Clock.fixed(Instant.parse("2026-06-10T02:30:00Z"), ZoneOffset.UTC);
        Outcome late = new TableOperations(Catalog.open(warehouse.toString()), recording, lateInside)
                .fullCompaction("db.t", full, placement, due);
        assertThat(late).isInstanceOf(Outcome.Compacted.class);
        assertThat(ran).containsExactly("db.t");
        // down until 06:10: the window closed, the run waits for the next opening
        Clock afterWindow = Clock.fixed(Instant.parse("2026-06-10T04:10:00Z"), ZoneOffset.UTC);
        Outcome waits = new TableOperations(Catalog.open(warehouse.toString()), recording, afterWindow)
                .fullCompaction("db.t", full, placement, due);
        assertThat(((Outcome.Skipped) waits).retryAt()).contains(Instant.parse("2026-06-11T00:00:00Z"));
        assertThat(ran).hasSize(1);
    }
}
