package io.strata.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.history.Run;
import io.strata.scheduler.history.RunOutcome;
import io.strata.scheduler.ops.CompactionRunner;
import io.strata.scheduler.ops.EmbeddedCompactionRunner;
import io.strata.scheduler.ops.Outcome;
import io.strata.scheduler.quartz.SchedulerDatabase;
import io.strata.scheduler.support.ModelWriter;
import io.strata.scheduler.support.SchedulerTests;
import io.strata.scheduler.support.ShortenedAgeFileIO;
import io.strata.scheduler.support.ShortenedClock;
import io.strata.scheduler.support.TableChecks;
import io.strata.scheduler.table.TableHealth;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.maintenance.ExpirePlan;
import io.strata.storage.snapshot.SnapshotNotFoundException;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduler end to end on one table: a writer commits small write-only batches for about 45 s
 * while a real service (embedded Flink compactions, an H2 store) runs backlog compaction,
 * expiration, orphan cleanup and an off-peak full compaction on a clock that runs 600 times fast
 * (a real second is ten minutes: the 02:00-05:00 window opens and closes, retention and orphan
 * ages pass), and a reader scans the latest and the earliest retained snapshot over and over.
 *
 * <p>Which times the shortened clock drives: the service's (window decisions, run history, lease
 * expiry, so the lease TTL is set to outlive the runs), and the catalogs of the writer and the
 * service ({@code Catalog.withClock}: snapshot times, so expiration's {@code older-than}, and
 * writer heartbeats); file ages through {@link ShortenedAgeFileIO}, so orphan cleanup's one hour
 * passes in 6 s. Quartz fires on the system clock, the embedded compaction job commits on it too
 * (its snapshots look older than they are, which only lets them expire sooner).
 *
 * <p>No read may fail, except with the engine's documented "snapshot N has expired" (a {@code
 * SnapshotNotFoundException}) for a snapshot that expiration removed while it was being read; every
 * read equals the model of the writer commit it holds. At the end the latest snapshot equals the
 * model, and snapshots, sorted runs and files are bounded.
 */
class SchedulerEndToEndTest {
    private static final long SEED = Long.getLong("strata.e2e.seed", 1616);
    private static final long SPEED = 600;
    private static final Duration WRITING = Duration.ofSeconds(45);
    private static final String TABLE = "db.t";
    private static final LocalTime OPENS = LocalTime.of(2, 0);
    private static final LocalTime CLOSES = LocalTime.of(5, 0);
    private static final int MAX_SORTED_RUNS = 12;
    private static final int RETAIN_MAX = 20;
    private static final int PLANTED_ORPHANS = 3;

    @TempDir
    Path dir;

    private final List<Throwable> failures = new CopyOnWriteArrayList<>();

    @Test
    void aWriterBesideEveryOperationOnAShortenedClock() throws Exception {
        try {
            run();
        } catch (Throwable t) {
            throw new AssertionError("end to end with seed " + SEED + " (-Dstrata.e2e.seed=" + SEED + "): " + t, t);
        }
    }

    /** A compaction the service started: its strategy and when, on the shortened clock. */
    private record Started(CompactStrategy strategy, Instant at) {}

    private void run() throws Exception {
        long t0 = System.nanoTime();
        // 15 s before the window opens (the first embedded Flink in a JVM starts slowly), 18 s in it
        ShortenedClock clock = new ShortenedClock(next(LocalTime.of(23, 30)), SPEED);
        String warehouse = dir.resolve("warehouse").toString();
        Path tableDir = dir.resolve("warehouse").resolve("db.db").resolve("t");
        ModelWriter writer = new ModelWriter(
                Catalog.open(warehouse).withClock(clock),
                "t",
                Map.of("num-sorted-run.compaction-trigger", String.valueOf(MAX_SORTED_RUNS)),
                SEED);
        writer.commitBatch(20, 1000);
        List<Path> orphans = plantOrphans(tableDir);

        List<Started> started = new CopyOnWriteArrayList<>();
        EmbeddedCompactionRunner embedded = new EmbeddedCompactionRunner(warehouse, dir.toFile());
        CompactionRunner recording = (table, strategy, placement) -> {
            started.add(new Started(strategy, clock.instant()));
            return embedded.compact(table, strategy, placement);
        };
        ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
        SchedulerConfig config = SchedulerTests.config(
                Path.of(warehouse), SchedulerTests.h2Store(dir), """
                scheduler-id: e2e
                max-concurrent-operations: 4
                # the service's clock runs 600x: a lease of 24 h lives 144 s, longer than any run here
                lease-ttl: 24h
                tables:
                  names: [db.t]
                defaults:
                  expiration:
                    cron: "0/3 * * * * ?"
                    retain-min: 5
                    retain-max: %d
                    older-than: 30 min
                  orphan-cleanup:
                    cron: "0/5 * * * * ?"
                    older-than: 1h
                  # every second: a full compaction gets the table between two backlog compactions
                  full-compaction:
                    cron: "* * * * * ?"
                    window: 02:00-05:00
                    zone: UTC
                  backlog-compaction:
                    poll-interval: 2 s
                    max-sorted-runs: %d
                    max-level0-files: 1000
                  compaction:
                    parallelism: 1
                """.formatted(RETAIN_MAX, MAX_SORTED_RUNS), "30s");
        Catalog scheduled = Catalog.open(warehouse, new ShortenedAgeFileIO(warehouse, clock))
                .withClock(clock);
        SchedulerService service = SchedulerService.start(config, scheduled, recording, clock, outcomes::add);

        AtomicBoolean stopWriting = new AtomicBoolean();
        Thread writing = new Thread(() -> write(writer, stopWriting), "e2e-writer");
        AtomicBoolean stopReading = new AtomicBoolean();
        Reader reader = new Reader(warehouse, writer, tableDir, stopReading);
        Thread reading = new Thread(reader, "e2e-reader");
        long closeMillis;
        try {
            writing.start();
            reading.start();
            long writeUntil = System.nanoTime() + WRITING.toNanos();
            while (System.nanoTime() < writeUntil && failures.isEmpty()) {
                Thread.sleep(200);
            }
        } finally {
            stopWriting.set(true);
            writing.join();
            try {
                awaitMaintained(warehouse, orphans);
            } finally {
                stopReading.set(true);
                reading.join();
                long c0 = System.nanoTime();
                service.close();
                closeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - c0);
            }
        }
        long commits = writer.commits();
        // sorted runs and files on the way are printed, not bounded: they follow how fast the embedded
        // compactions keep up with the writer, which depends on the load
        System.out.printf(
                "end to end (seed %d): %d commits, %d reads (%d of an expired snapshot), at most %d sorted runs,"
                        + " %d snapshots and %d files on the way, %d files at the end %s, %d compactions; close took"
                        + " %d ms; %d s in all%n",
                SEED,
                commits,
                reader.reads.get(),
                reader.expiredWhileRead.get(),
                reader.maxSortedRuns.get(),
                reader.maxSnapshots.get(),
                reader.maxFiles.get(),
                TableChecks.files(tableDir),
                TableChecks.filesByDirectory(tableDir),
                started.size(),
                closeMillis,
                TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0));
        assertThat(failures).as("failed writes and reads").isEmpty();
        // expiration runs beside the table's compactions (the in-process locks follow the lease
        // matrix), so retention holds on the way too: at most retain-max plus the commits of two
        // expiration intervals (the writer commits about 6 times a second, an expiration fires every
        // 3 s). Were expiration skipped while a compaction holds the table, as it was when a table
        // ran one operation at a time, snapshots would pile up for as long as each compaction runs
        // (86 on the way in a run so).
        assertThat(reader.maxSnapshots.get())
                .as("snapshots retained on the way, while compactions run")
                .isLessThanOrEqualTo(RETAIN_MAX + 40);

        FileStoreTable t = Catalog.open(warehouse).getTable(TABLE);
        assertThat(TableChecks.rows(t)).as("the final scan").isEqualTo(writer.model());
        TableChecks.assertRetainedSnapshotsIntact(t, writer, "at the end");
        TableHealth health = TableHealth.probe(t);
        assertThat(health.snapshotsRetained()).as("snapshots retained").isLessThanOrEqualTo(RETAIN_MAX);
        assertThat(health.maxSortedRuns()).as("sorted runs per bucket").isLessThanOrEqualTo(MAX_SORTED_RUNS);
        // a retained snapshot keeps at most about 10 files: its own, its manifest lists and manifests,
        // the data files it added and those it replaced; the latest adds its live files
        long files = TableChecks.files(tableDir);
        assertThat(files)
                .as("files in the table directory, by the retention")
                .isLessThanOrEqualTo(10L * RETAIN_MAX + 4L * MAX_SORTED_RUNS);
        // an unmaintained table holds at least 4 files per commit: a data file in each of 2 buckets,
        // the snapshot and its delta manifest list
        assertThat(files)
                .as("files in the table directory after %d commits, against an unmaintained table", commits)
                .isLessThan(2 * commits);
        assertThat(reader.reads.get()).as("reads").isGreaterThan(50);
        assertThat(orphans).as("planted orphans").allSatisfy(p -> assertThat(p).doesNotExist());
        assertThat(closeMillis)
                .as("a graceful close")
                .isLessThan(config.shutdownTimeout().toMillis() + 10_000);

        List<Run> runs;
        try (SchedulerDatabase db = SchedulerDatabase.open(config.store(), 1, clock)) {
            runs = db.history().recent(Optional.of(TABLE), 100_000);
            assertThat(db.leases().live()).as("leases after close").isEmpty();
        }
        assertThat(runs).as("runs left running").noneMatch(r -> r.outcome() == RunOutcome.RUNNING);
        for (String kind : List.of("expiration", "orphan-cleanup", "full-compaction", "backlog-compaction")) {
            assertThat(runs)
                    .as("a successful %s", kind)
                    .anyMatch(r -> r.operation().equals(kind) && r.outcome() == RunOutcome.SUCCEEDED);
        }
        assertThat(runs.stream()
                        .filter(r -> r.operation().equals("orphan-cleanup"))
                        .mapToLong(r -> r.counters().filesDeleted())
                        .sum())
                .as("orphan files deleted")
                .isGreaterThanOrEqualTo(PLANTED_ORPHANS);
        assertThat(outcomes)
                .as("an expiration held back by its older-than on the shortened clock")
                .anyMatch(o -> o instanceof Outcome.Expired e
                        && e.result().plan().heldBackBy() == ExpirePlan.HeldBack.TIME_RETAINED);
        assertFullCompactionsInsideTheWindow(runs, started, clock);
    }

    /**
     * Every full compaction that ran started inside the window, and fires outside it were skipped.
     * The window decision falls between the run's recorded start and the job's start; on the
     * shortened clock a real millisecond is 0.6 s, so each bound has a margin of a real second.
     */
    private static void assertFullCompactionsInsideTheWindow(List<Run> runs, List<Started> started, ShortenedClock c) {
        Duration margin = Duration.ofSeconds(c.speed());
        List<Run> ran = runs.stream()
                .filter(r -> r.operation().equals("full-compaction") && r.outcome() != RunOutcome.SKIPPED)
                .toList();
        List<Instant> jobs = started.stream()
                .filter(s -> s.strategy() == CompactStrategy.FULL)
                .map(Started::at)
                .toList();
        assertThat(ran).as("full compactions run").isNotEmpty().hasSameSizeAs(jobs);
        for (Run r : ran) {
            assertThat(r.outcome()).as("full compaction run %s", r).isEqualTo(RunOutcome.SUCCEEDED);
            LocalTime at = r.start().atZone(ZoneOffset.UTC).toLocalTime();
            assertThat(at).as("run %s starts", r.id()).isBetween(OPENS.minus(margin), CLOSES.minusNanos(1));
        }
        for (Instant job : jobs) {
            LocalTime at = job.atZone(ZoneOffset.UTC).toLocalTime();
            assertThat(at).as("a full compaction job starts").isBetween(OPENS, CLOSES.plus(margin));
        }
        List<Run> outside = runs.stream()
                .filter(r -> r.operation().equals("full-compaction")
                        && r.outcome() == RunOutcome.SKIPPED
                        && r.heldBack().orElse("").contains("outside the off-peak window 02:00-05:00 UTC"))
                .toList();
        assertThat(outside)
                .as("full compaction fires skipped outside the window")
                .isNotEmpty();
        for (Run r : outside) {
            LocalTime at = r.start().atZone(ZoneOffset.UTC).toLocalTime();
            assertThat(at.isBefore(OPENS) || !at.isBefore(CLOSES.minus(margin)))
                    .as("skipped run %s at %s is outside the window", r.id(), at)
                    .isTrue();
        }
        assertThat(outside)
                .as("skipped before the window opened and after it closed")
                .anyMatch(r -> r.start().atZone(ZoneOffset.UTC).toLocalTime().isBefore(OPENS))
                .anyMatch(r -> !r.start().atZone(ZoneOffset.UTC).toLocalTime().isBefore(CLOSES));
    }

    /** The next {@code time} UTC at least a minute from now: the shortened clock never reads before real time. */
    private static Instant next(LocalTime time) {
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC).plusMinutes(1);
        ZonedDateTime at = now.with(time);
        return (at.isBefore(now) ? at.plusDays(1) : at).toInstant();
    }

    /** Copies of a data file under names nothing references, in the table's bucket directories. */
    private static List<Path> plantOrphans(Path tableDir) throws Exception {
        Path data;
        try (Stream<Path> s = Files.walk(tableDir)) {
            data = s.filter(p -> p.getFileName().toString().endsWith(".parquet")
                            && p.getParent().getFileName().toString().startsWith("bucket-"))
                    .findFirst()
                    .orElseThrow();
        }
        List<Path> out = new ArrayList<>();
        for (int i = 0; i < PLANTED_ORPHANS; i++) {
            out.add(Files.copy(data, data.resolveSibling("data-orphan-" + i + ".parquet")));
        }
        return out;
    }

    /** Commits batches every 100-200 ms until stopped; a batch is committed whole or not written. */
    private void write(ModelWriter writer, AtomicBoolean stop) {
        Random pauses = new Random(SEED);
        try {
            while (!stop.get()) {
                writer.commitBatch(20, 1000);
                Thread.sleep(100 + pauses.nextInt(100));
            }
        } catch (Throwable e) {
            failures.add(new AssertionError("the writer failed after " + writer.commits() + " commits", e));
        }
    }

    /**
     * Once the writer stopped, waits for the service to bring the table within its thresholds: no
     * bucket over the sorted runs, no more snapshots than retained at most, the orphans gone.
     */
    private void awaitMaintained(String warehouse, List<Path> orphans) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
        while (System.nanoTime() < deadline && failures.isEmpty()) {
            TableHealth h = TableHealth.probe(Catalog.open(warehouse).getTable(TABLE));
            if (h.maxSortedRuns() <= MAX_SORTED_RUNS
                    && h.snapshotsRetained() <= RETAIN_MAX
                    && orphans.stream().noneMatch(Files::exists)) {
                return;
            }
            Thread.sleep(250);
        }
    }

    /**
     * Scans the latest and the earliest retained snapshot over and over; each read must equal the
     * model of the writer commit it holds. Samples the sorted runs and the files on the way.
     */
    private final class Reader implements Runnable {
        private final String warehouse;
        private final ModelWriter writer;
        private final Path tableDir;
        private final AtomicBoolean stop;
        final AtomicInteger reads = new AtomicInteger();
        final AtomicInteger expiredWhileRead = new AtomicInteger();
        final AtomicInteger maxSortedRuns = new AtomicInteger();
        final AtomicLong maxSnapshots = new AtomicLong();
        final AtomicLong maxFiles = new AtomicLong();

        Reader(String warehouse, ModelWriter writer, Path tableDir, AtomicBoolean stop) {
            this.warehouse = warehouse;
            this.writer = writer;
            this.tableDir = tableDir;
            this.stop = stop;
        }

        @Override
        public void run() {
            try {
                while (!stop.get() && failures.isEmpty()) {
                    FileStoreTable t = Catalog.open(warehouse).getTable(TABLE);
                    check("the latest snapshot", t, OptionalLong.empty());
                    check(
                            "the earliest retained snapshot",
                            t,
                            t.snapshotManager().earliestId());
                    TableHealth health = TableHealth.probe(t);
                    maxSortedRuns.accumulateAndGet(health.maxSortedRuns(), Math::max);
                    maxSnapshots.accumulateAndGet(health.snapshotsRetained(), Math::max);
                    maxFiles.accumulateAndGet(TableChecks.files(tableDir), Math::max);
                    Thread.sleep(50);
                }
            } catch (Throwable e) {
                failures.add(new AssertionError("the reader failed after " + reads.get() + " reads", e));
            }
        }

        private void check(String what, FileStoreTable t, OptionalLong snapshot) throws InterruptedException {
            Map<Long, String> rows;
            try {
                rows = TableChecks.rows(
                        snapshot.isPresent()
                                ? t.newReadBuilder().withSnapshot(snapshot.getAsLong())
                                : t.newReadBuilder());
            } catch (SnapshotNotFoundException e) {
                // the engine's answer for a snapshot expiration removed while (or before) it was read
                if (e.getMessage().contains("has expired")) {
                    expiredWhileRead.incrementAndGet();
                    return;
                }
                throw e;
            }
            reads.incrementAndGet();
            long version = ModelWriter.versionOf(rows);
            // the writer takes a commit into the model right after the commit returns
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (writer.commits() < version && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(rows)
                    .as("%s (%s) holding writer commit %d", what, snapshot, version)
                    .isEqualTo(writer.modelAt(version));
        }
    }
}
