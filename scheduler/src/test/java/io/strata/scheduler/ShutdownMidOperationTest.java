package io.strata.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.history.Run;
import io.strata.scheduler.history.RunOutcome;
import io.strata.scheduler.ops.CompactionRunner;
import io.strata.scheduler.ops.EmbeddedCompactionRunner;
import io.strata.scheduler.ops.Outcome;
import io.strata.scheduler.quartz.SchedulerDatabase;
import io.strata.scheduler.support.BlockingFileIO;
import io.strata.scheduler.support.GatedCommitLock;
import io.strata.scheduler.support.ModelWriter;
import io.strata.scheduler.support.SchedulerTests;
import io.strata.scheduler.support.TableChecks;
import io.strata.scheduler.table.TableHealth;
import io.strata.storage.maintenance.TableFile;
import io.strata.storage.options.ExpireOptions;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quartz.JobKey;

/**
 * The graceful shutdown in the middle of each operation kind, on real storage: the operation is
 * held at a chosen point of its run (a delete held by {@link BlockingFileIO}, a compaction job's
 * commit held by {@link GatedCommitLock}), the service is closed with a short shutdown timeout,
 * and then: close returns within the timeout plus the interrupt grace; the run is recorded
 * interrupted (or succeeded, when it finished within the timeout), never left running; no lease
 * stays; the table reads as its model; and the next run of the same operation, by a new service on
 * the same store, finishes the work and leaves every retained snapshot readable with its files.
 *
 * <p>An operation whose storage call ignores the interrupt is abandoned once the grace has passed
 * ({@link #anExpirationThatIgnoresTheInterruptIsAbandonedAndFinishedByTheNextRun}): what it leaves
 * is what a crash leaves, which the engine's journal and the next start of the service recover.
 */
class ShutdownMidOperationTest {
    private static final long SEED = 1718;
    private static final String TABLE = "db.t";
    private static final String OWNER = "shutdown-test";
    private static final Duration TIMEOUT = Duration.ofMillis(500);
    /** SchedulerService's wait for interrupted operations before it abandons them. */
    private static final Duration INTERRUPT_GRACE = Duration.ofSeconds(5);
    /** For Quartz's and the pools' shutdown, and a loaded machine. */
    private static final Duration MARGIN = Duration.ofSeconds(3);

    private static final String EXPIRATION = """
            expiration:
              cron: "0 0 3 1 1 ? 2099"
              retain-min: 2
              older-than: 0 ms
            """;
    private static final String ORPHAN_CLEANUP = """
            orphan-cleanup:
              cron: "0 0 3 1 1 ? 2099"
              older-than: 1d
            """;
    private static final String FULL_COMPACTION = """
            full-compaction:
              cron: "0 0 3 1 1 ? 2099"
              window: 00:00-23:59
              zone: UTC
            compaction:
              parallelism: 1
            """;
    private static final String BACKLOG_COMPACTION = """
            backlog-compaction:
              poll-interval: 500 ms
              max-sorted-runs: 3
              max-level0-files: 100
            compaction:
              parallelism: 1
            """;

    @TempDir
    Path dir;

    private String warehouse;
    private final List<SchedulerService> services = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        GatedCommitLock.clear();
        for (SchedulerService s : services) {
            s.close();
        }
    }

    @Test
    void anExpirationInterruptedInItsDeletesIsFinishedByTheNextRun() throws Exception {
        ModelWriter model = table(Map.of());
        List<TableFile> planned = expirationPlan();
        assertThat(planned)
                .as("files the expiration deletes after the snapshot files")
                .isNotEmpty();
        BlockingFileIO io = new BlockingFileIO(warehouse);
        BlockingFileIO.Block block = io.blockDelete(ShutdownMidOperationTest::isManifestFile, 1, true);
        SchedulerConfig config = config(EXPIRATION, TIMEOUT);
        SchedulerService s = start(config, Catalog.open(warehouse, io), SchedulerTests.noCompactions(), o -> {});

        s.quartz().triggerJob(new JobKey("expiration", TABLE));
        block.awaitReached(Duration.ofSeconds(30));
        assertThat(journals()).as("the expiration's journal while it deletes").hasSize(1);
        closeWithinBound(s);

        assertThat(block.wasInterrupted()).as("the held delete was interrupted").isTrue();
        assertRunEnded(config, "expiration", RunOutcome.INTERRUPTED);
        assertThat(journals()).as("the journal of the interrupted run").hasSize(1);
        assertReadsAsModel(model, "after the interrupted expiration");

        Outcome.Expired resumed = (Outcome.Expired) runAgain("expiration", EXPIRATION, SchedulerTests.noCompactions());
        assertThat(resumed.result().resumed())
                .as("journals finished by the next run")
                .isEqualTo(1);
        assertThat(journals()).as("journals after the next run").isEmpty();
        assertThat(planned)
                .as("the files the interrupted run planned to delete")
                .allSatisfy(f -> assertThat(Path.of(new org.apache.hadoop.fs.Path(f.path()).toUri()))
                        .doesNotExist());
        assertThat(Catalog.open(warehouse).getTable(TABLE).snapshotManager().earliestId())
                .hasValue(model.commits() - 1);
        assertIntact(model, "after the next expiration");
    }

    @Test
    void anExpirationThatFinishesWithinTheTimeoutSucceeds() throws Exception {
        ModelWriter model = table(Map.of());
        BlockingFileIO io = new BlockingFileIO(warehouse);
        BlockingFileIO.Block block = io.blockDelete(ShutdownMidOperationTest::isManifestFile, 1, true);
        SchedulerConfig config = config(EXPIRATION, Duration.ofSeconds(20));
        BlockingQueue<Outcome> outcomes = new LinkedBlockingQueue<>();
        SchedulerService s = start(config, Catalog.open(warehouse, io), SchedulerTests.noCompactions(), outcomes::add);

        s.quartz().triggerJob(new JobKey("expiration", TABLE));
        block.awaitReached(Duration.ofSeconds(30));
        Thread release = new Thread(() -> {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                return;
            }
            block.release();
        });
        release.start();
        long t0 = System.nanoTime();
        s.close();
        release.join();
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(20));
        assertThat(outcomes.poll()).as("delivered before close returned").isInstanceOf(Outcome.Expired.class);
        assertThat(block.wasInterrupted()).isFalse();
        assertRunEnded(config, "expiration", RunOutcome.SUCCEEDED);
        assertThat(journals()).isEmpty();
        assertIntact(model, "after an expiration that finished during shutdown");
    }

    @Test
    void anExpirationThatIgnoresTheInterruptIsAbandonedAndFinishedByTheNextRun() throws Exception {
        ModelWriter model = table(Map.of());
        BlockingFileIO io = new BlockingFileIO(warehouse);
        BlockingFileIO.Block block = io.blockDelete(ShutdownMidOperationTest::isManifestFile, 1, false);
        // a short lease, so that the lease the abandoned run cannot release expires within the test
        SchedulerConfig config = config("lease-ttl: 3 s\n", EXPIRATION, TIMEOUT);
        SchedulerService s = start(config, Catalog.open(warehouse, io), SchedulerTests.noCompactions(), o -> {});

        s.quartz().triggerJob(new JobKey("expiration", TABLE));
        block.awaitReached(Duration.ofSeconds(30));
        closeAbandoning(s);
        assertThat(block.wasInterrupted()).as("the held delete was interrupted").isTrue();
        try (SchedulerDatabase db = SchedulerDatabase.open(config.store(), 1, Clock.systemUTC())) {
            Run abandoned = db.history().recent(Optional.of(TABLE), 1).get(0);
            assertThat(abandoned.outcome())
                    .as("an abandoned run stays running until the scheduler starts again")
                    .isEqualTo(RunOutcome.RUNNING);
            assertThat(db.leases().live())
                    .as("its lease, left to expire")
                    .singleElement()
                    .satisfies(l -> assertThat(l.owner()).isEqualTo(OWNER));
        }
        assertReadsAsModel(model, "while the abandoned expiration is held");

        // the held call returns: the abandoned run goes on in the background, with its thread's
        // interrupt status set (a later channel write of it fails), until it ends one way or another
        Thread abandonedRun = block.holder();
        block.release();
        abandonedRun.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(abandonedRun.isAlive())
                .as("the abandoned run's thread ended")
                .isFalse();
        assertReadsAsModel(model, "after the abandoned expiration ended");
        Thread.sleep(config.leaseTtl().toMillis());

        Outcome next = runAgain("expiration", EXPIRATION, SchedulerTests.noCompactions());
        assertThat(next).isInstanceOf(Outcome.Expired.class);
        assertThat(journals()).as("journals after the next run").isEmpty();
        try (SchedulerDatabase db = SchedulerDatabase.open(config.store(), 1, Clock.systemUTC())) {
            List<Run> runs = db.history().recent(Optional.of(TABLE), 2);
            assertThat(runs.get(0).outcome()).isEqualTo(RunOutcome.SUCCEEDED);
            assertThat(runs.get(1).outcome())
                    .as("the abandoned run, marked by the next start")
                    .isEqualTo(RunOutcome.INTERRUPTED);
        }
        assertIntact(model, "after an abandoned expiration and the next run");
    }

    @Test
    void anOrphanCleanupInterruptedInItsDeletesIsFinishedByTheNextRun() throws Exception {
        ModelWriter model = table(Map.of());
        List<Path> orphans = plantOrphans(4);
        BlockingFileIO io = new BlockingFileIO(warehouse);
        BlockingFileIO.Block block = io.blockDelete(p -> p.getName().startsWith("data-orphan-"), 2, true);
        SchedulerConfig config = config(ORPHAN_CLEANUP, TIMEOUT);
        SchedulerService s = start(config, Catalog.open(warehouse, io), SchedulerTests.noCompactions(), o -> {});

        s.quartz().triggerJob(new JobKey("orphan-cleanup", TABLE));
        block.awaitReached(Duration.ofSeconds(30));
        closeWithinBound(s);

        assertThat(block.wasInterrupted()).isTrue();
        assertRunEnded(config, "orphan-cleanup", RunOutcome.INTERRUPTED);
        assertThat(orphans.stream().filter(Files::exists).count())
                .as("orphans left by the interrupted run")
                .isEqualTo(3);
        assertReadsAsModel(model, "after the interrupted orphan cleanup");

        Outcome.OrphansCleaned next =
                (Outcome.OrphansCleaned) runAgain("orphan-cleanup", ORPHAN_CLEANUP, SchedulerTests.noCompactions());
        assertThat(next.result().deleted()).as("deleted by the next run").hasSize(3);
        assertThat(orphans).allSatisfy(p -> assertThat(p).doesNotExist());
        assertIntact(model, "after the next orphan cleanup");
    }

    @Test
    void aFullCompactionInterruptedInItsCommitCommitsNothingAndTheNextOneCompacts() throws Exception {
        compactionInterruptedInItsCommit("full-compaction", FULL_COMPACTION, true);
    }

    @Test
    void aBacklogCompactionInterruptedInItsCommitCommitsNothingAndTheNextOneCompacts() throws Exception {
        compactionInterruptedInItsCommit("backlog-compaction", BACKLOG_COMPACTION, false);
    }

    /**
     * A compaction job on the embedded Flink held at its commit (its files rewritten, nothing
     * published), the service closed: the job is cancelled, its committer interrupted at the gate.
     */
    private void compactionInterruptedInItsCommit(String kind, String section, boolean trigger) throws Exception {
        ModelWriter model = table(Map.of("commit.lock.class", GatedCommitLock.class.getName()));
        long latest = model.commits();
        int runsBefore =
                TableHealth.probe(Catalog.open(warehouse).getTable(TABLE)).maxSortedRuns();
        GatedCommitLock.Gate gate = GatedCommitLock.closeBeforeNextCommit();
        SchedulerConfig config = config(section, TIMEOUT);
        CompactionRunner embedded = new EmbeddedCompactionRunner(warehouse, dir.toFile());
        SchedulerService s = start(config, Catalog.open(warehouse), embedded, o -> {});

        if (trigger) {
            s.quartz().triggerJob(new JobKey(kind, TABLE));
        }
        gate.awaitReached(Duration.ofSeconds(60));
        closeWithinBound(s);

        assertThat(gate.awaitInterrupted(Duration.ofSeconds(30)))
                .as("the job's committer was interrupted at the gate (the job was cancelled)")
                .isTrue();
        assertRunEnded(config, kind, RunOutcome.INTERRUPTED);
        FileStoreTable t = Catalog.open(warehouse).getTable(TABLE);
        assertThat(t.snapshotManager().latestId()).as("nothing committed").hasValue(latest);
        assertReadsAsModel(model, "after the interrupted " + kind);

        Outcome next = runAgain(kind, section, embedded);
        assertThat(next).isInstanceOf(Outcome.Compacted.class);
        assertThat(((Outcome.Compacted) next).report().committedSnapshots()).isNotEmpty();
        assertThat(TableHealth.probe(Catalog.open(warehouse).getTable(TABLE)).maxSortedRuns())
                .as("sorted runs after the next %s", kind)
                .isLessThan(runsBefore);
        assertIntact(model, "after the next " + kind);
    }

    /** The table {@code db.t} with 8 commits of 20 upserts of keys below 200. */
    private ModelWriter table(Map<String, String> options) {
        warehouse = dir.resolve("warehouse").toString();
        ModelWriter w = new ModelWriter(Catalog.open(warehouse), "t", options, SEED);
        for (int i = 0; i < 8; i++) {
            w.commitBatch(20, 200);
        }
        w.close();
        return w;
    }

    private SchedulerConfig config(String section, Duration timeout) {
        return config("", section, timeout);
    }

    private SchedulerConfig config(String top, String section, Duration timeout) {
        String body =
                "scheduler-id: " + OWNER + "\n" + top + "tables:\n  names: [db.t]\ndefaults:\n" + section.indent(2);
        return SchedulerTests.config(Path.of(warehouse), SchedulerTests.h2Store(dir), body, timeout.toMillis() + " ms");
    }

    private SchedulerService start(
            SchedulerConfig config,
            Catalog catalog,
            CompactionRunner compactions,
            java.util.function.Consumer<Outcome> l)
            throws Exception {
        SchedulerService s = SchedulerService.start(config, catalog, compactions, Clock.systemUTC(), l);
        services.add(s);
        return s;
    }

    /**
     * Closes {@code s} while an operation is held: an operation that reacts to the interrupt ends
     * at once, so close returns within the timeout and a margin.
     */
    private static void closeWithinBound(SchedulerService s) throws Exception {
        Duration took = close(s);
        assertThat(took).as("close").isLessThan(TIMEOUT.plus(MARGIN));
    }

    /** Closes {@code s} while an operation ignores the interrupt: close waits the grace, then returns. */
    private static void closeAbandoning(SchedulerService s) throws Exception {
        Duration took = close(s);
        assertThat(took)
                .as("close")
                .isBetween(
                        TIMEOUT.plus(INTERRUPT_GRACE),
                        TIMEOUT.plus(INTERRUPT_GRACE).plus(MARGIN));
    }

    private static Duration close(SchedulerService s) throws Exception {
        long t0 = System.nanoTime();
        s.close();
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        assertThat(s.state()).isEqualTo(SchedulerService.State.STOPPED);
        return took;
    }

    /** The last run of {@code operation} ended as {@code outcome}, and no lease is left. */
    private static void assertRunEnded(SchedulerConfig config, String operation, RunOutcome outcome) throws Exception {
        try (SchedulerDatabase db = SchedulerDatabase.open(config.store(), 1, Clock.systemUTC())) {
            List<Run> runs = db.history().recent(Optional.of(TABLE), 100).stream()
                    .filter(r -> r.operation().equals(operation) && r.outcome() != RunOutcome.SKIPPED)
                    .toList();
            assertThat(runs).as("runs of %s", operation).isNotEmpty();
            assertThat(runs.get(0).outcome())
                    .as("the run of %s: %s", operation, runs.get(0))
                    .isEqualTo(outcome);
            if (outcome == RunOutcome.INTERRUPTED) {
                assertThat(runs.get(0).error())
                        .hasValueSatisfying(e -> assertThat(e).contains("interrupted"));
            }
            assertThat(db.leases().live()).as("leases after close").isEmpty();
        }
    }

    /**
     * Starts a new service on the same store with only {@code section}, runs {@code operation} once
     * (a backlog compaction fires by itself) and returns its outcome; the run is recorded succeeded.
     */
    private Outcome runAgain(String operation, String section, CompactionRunner compactions) throws Exception {
        SchedulerConfig config = config(section, Duration.ofSeconds(30));
        BlockingQueue<Outcome> outcomes = new LinkedBlockingQueue<>();
        try (SchedulerService s = start(config, Catalog.open(warehouse), compactions, outcomes::add)) {
            if (!operation.equals("backlog-compaction")) {
                s.quartz().triggerJob(new JobKey(operation, TABLE));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline) {
                Outcome o = outcomes.poll(1, TimeUnit.SECONDS);
                if (o != null && !(o instanceof Outcome.Skipped)) {
                    s.close();
                    assertRunEnded(config, operation, RunOutcome.SUCCEEDED);
                    return o;
                }
            }
        }
        throw new AssertionError("no " + operation + " ran within 60 s");
    }

    private void assertReadsAsModel(ModelWriter model, String what) {
        assertThat(TableChecks.rows(Catalog.open(warehouse).getTable(TABLE)))
                .as(what + " (seed " + SEED + ")")
                .isEqualTo(model.model());
    }

    private void assertIntact(ModelWriter model, String what) {
        assertReadsAsModel(model, what);
        TableChecks.assertRetainedSnapshotsIntact(Catalog.open(warehouse).getTable(TABLE), model, what);
    }

    /** The files the config's expiration deletes after the snapshot files, planned now. */
    private List<TableFile> expirationPlan() {
        return Catalog.open(warehouse)
                .getTable(TABLE)
                .copyWithOptions(
                        Map.of(ExpireOptions.NUM_RETAINED_MIN.key(), "2", ExpireOptions.TIME_RETAINED.key(), "0 ms"))
                .newSnapshotExpiration()
                .plan()
                .files();
    }

    private static boolean isManifestFile(org.apache.hadoop.fs.Path p) {
        return p.getParent() != null && p.getParent().getName().equals("manifest");
    }

    private List<Path> journals() throws Exception {
        try (Stream<Path> s = Files.list(tableDir().resolve("snapshot"))) {
            return s.filter(p -> p.getFileName().toString().startsWith("expiring-"))
                    .toList();
        }
    }

    private Path tableDir() {
        return Path.of(warehouse, "db.db", "t");
    }

    /** Copies of a data file under names nothing references, two days old. */
    private List<Path> plantOrphans(int n) throws Exception {
        Path data;
        try (Stream<Path> s = Files.walk(tableDir())) {
            data = s.filter(p -> p.getFileName().toString().endsWith(".parquet")
                            && p.getParent().getFileName().toString().startsWith("bucket-"))
                    .findFirst()
                    .orElseThrow();
        }
        List<Path> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Path orphan = Files.copy(data, data.resolveSibling("data-orphan-" + i + ".parquet"));
            Files.setLastModifiedTime(orphan, FileTime.from(Instant.now().minus(Duration.ofDays(2))));
            out.add(orphan);
        }
        return out;
    }
}
