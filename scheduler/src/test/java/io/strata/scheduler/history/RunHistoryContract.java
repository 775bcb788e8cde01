package io.strata.scheduler.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.scheduler.lease.MutableClock;
import io.strata.scheduler.lease.TestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The run history's and pause store's contract, run against H2 and PostgreSQL by the subclasses. */
abstract class RunHistoryContract {
    private static final Instant START = Instant.parse("2026-12-03T12:00:00Z");

    @TempDir
    Path tempDir;

    TestDatabase database;
    MutableClock clock;
    RunHistory history;

    abstract TestDatabase newDatabase(Path directory);

    @BeforeEach
    void open() throws SQLException {
        database = newDatabase(tempDir);
        clock = new MutableClock(START);
        history = RunHistory.open(database.dataSource(), clock);
    }

    @AfterEach
    void close() {
        database.close();
    }

    @Test
    void recordsRunsAndAnswersQueries() throws SQLException {
        long a = history.start("db.a", "full-compaction", Optional.of("fire-1"), "s1");
        clock.advance(Duration.ofMinutes(5));
        history.finish(a, RunResult.succeeded(new RunCounters(0, 12, 4096, 1_000_000)));
        long b = history.start("db.b", "snapshot-expiration", Optional.empty(), "s1");
        clock.advance(Duration.ofMinutes(1));
        history.finish(b, RunResult.failed(new RunCounters(3, 7, 100, 0), new IllegalStateException("disk full")));
        long c = history.start("db.a", "full-compaction", Optional.of("fire-2"), "s2");
        long d = history.skipped("db.a", "minor-compaction", Optional.of("fire-3"), "s1", "held back by a lease");

        Run first = history.find(a).orElseThrow();
        assertThat(first.outcome()).isEqualTo(RunOutcome.SUCCEEDED);
        assertThat(first.start()).isEqualTo(START);
        assertThat(first.end()).contains(START.plus(Duration.ofMinutes(5)));
        assertThat(first.fireId()).contains("fire-1");
        assertThat(first.counters()).isEqualTo(new RunCounters(0, 12, 4096, 1_000_000));
        Run failed = history.find(b).orElseThrow();
        assertThat(failed.outcome()).isEqualTo(RunOutcome.FAILED);
        assertThat(failed.fireId()).isEmpty();
        assertThat(failed.error().orElseThrow()).contains("IllegalStateException: disk full");
        assertThat(failed.counters().snapshotsExpired()).isEqualTo(3);

        assertThat(history.recent(Optional.empty(), 10)).extracting(Run::id).containsExactly(d, c, b, a);
        assertThat(history.recent(Optional.of("db.a"), 2)).extracting(Run::id).containsExactly(d, c);
        assertThat(history.running()).extracting(Run::id).containsExactly(c);
        assertThat(history.running().get(0).end()).isEmpty();
        assertThat(history.lastSuccess("db.a", "full-compaction")).map(Run::id).contains(a);
        assertThat(history.lastSuccess("db.b", "snapshot-expiration")).isEmpty();
        Run skipped = history.find(d).orElseThrow();
        assertThat(skipped.outcome()).isEqualTo(RunOutcome.SKIPPED);
        assertThat(skipped.heldBack()).contains("held back by a lease");
        assertThat(skipped.end()).contains(skipped.start());

        history.finish(c, RunResult.succeeded(RunCounters.NONE));
        long e = history.start("db.b", "snapshot-expiration", Optional.empty(), "s1");
        history.finish(e, RunResult.succeeded(new RunCounters(9, 9, 9, 0)));
        assertThat(history.lastSuccesses())
                .extracting(run -> run.table() + "/" + run.operation() + "/" + run.id())
                .containsExactly("db.a/full-compaction/" + c, "db.b/snapshot-expiration/" + e);
    }

    @Test
    void aRunFinishesOnce() throws SQLException {
        long id = history.start("db.a", "orphan-cleanup", Optional.empty(), "s1");
        history.finish(id, RunResult.succeeded(RunCounters.NONE));
        assertThatThrownBy(() -> history.finish(id, RunResult.succeeded(RunCounters.NONE)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Run " + id)
                .hasMessageContaining("SUCCEEDED");
        assertThatThrownBy(() -> history.finish(id + 100, RunResult.succeeded(RunCounters.NONE)))
                .hasMessageContaining("no such run");
    }

    @Test
    void historySurvivesReopeningTheDatabase() throws SQLException {
        long done = history.start("db.a", "full-compaction", Optional.of("fire-1"), "s1");
        history.finish(done, RunResult.succeeded(new RunCounters(1, 2, 3, 4)));
        long open = history.start("db.a", "snapshot-expiration", Optional.empty(), "s1");
        List<Run> before = history.recent(Optional.empty(), 10);

        database.reopen();
        history = RunHistory.open(database.dataSource(), clock);
        assertThat(history.recent(Optional.empty(), 10)).isEqualTo(before);
        long next = history.start("db.a", "full-compaction", Optional.empty(), "s1");
        assertThat(next).isGreaterThan(open);
    }

    @Test
    void runsLeftRunningByADeadProcessAreMarkedInterruptedAtStartUp() throws SQLException {
        long a1 = history.start("db.a", "full-compaction", Optional.empty(), "scheduler-a");
        long a2 = history.start("db.b", "orphan-cleanup", Optional.empty(), "scheduler-a");
        long b1 = history.start("db.c", "minor-compaction", Optional.empty(), "scheduler-b");

        database.reopen(); // scheduler-a's process died; it starts again
        clock.advance(Duration.ofMinutes(10));
        history = RunHistory.open(database.dataSource(), clock);
        assertThat(history.markInterrupted("scheduler-a")).isEqualTo(2);
        for (long id : new long[] {a1, a2}) {
            Run run = history.find(id).orElseThrow();
            assertThat(run.outcome()).isEqualTo(RunOutcome.INTERRUPTED);
            assertThat(run.end()).contains(clock.instant());
            assertThat(run.error().orElseThrow()).contains("scheduler-a");
        }
        assertThat(history.running()).extracting(Run::id).containsExactly(b1);
        assertThatThrownBy(() -> history.finish(a1, RunResult.succeeded(RunCounters.NONE)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("INTERRUPTED");
        assertThat(history.markInterrupted("scheduler-a")).isZero();
    }

    @Test
    void pruningKeepsTheTableBoundedOverWeeks() throws SQLException {
        Duration retention = Duration.ofDays(7);
        long longRunning = history.start("db.slow", "full-compaction", Optional.empty(), "s1");
        for (int hour = 0; hour < 30 * 24; hour++) {
            long id = history.start("db.a", "snapshot-expiration", Optional.empty(), "s1");
            clock.advance(Duration.ofMinutes(1));
            history.finish(id, RunResult.succeeded(RunCounters.NONE));
            clock.advance(Duration.ofMinutes(59));
            if (hour % 24 == 23) {
                history.prune(retention);
                assertThat(count()).isLessThanOrEqualTo(8 * 24 + 1);
            }
        }
        assertThat(history.find(longRunning))
                .as("a running run is never pruned")
                .isPresent();
        Instant cutoff = clock.instant().minus(retention);
        List<Run> kept = history.recent(Optional.of("db.a"), 1000);
        assertThat(kept).allSatisfy(run -> assertThat(run.end().orElseThrow()).isAfterOrEqualTo(cutoff));
        assertThat(kept).hasSizeGreaterThanOrEqualTo(7 * 24 - 1);
        assertThat(history.prune(Duration.ZERO)).isEqualTo(kept.size());
        assertThat(history.recent(Optional.empty(), 10)).extracting(Run::id).containsExactly(longRunning);
    }

    @Test
    void longTextsAreTruncatedToTheBound() throws SQLException {
        String huge = "x".repeat(10_000);
        long id = history.start("db.a", "full-compaction", Optional.empty(), "s1");
        history.finish(id, new RunResult(RunOutcome.FAILED, RunCounters.NONE, Optional.of(huge), Optional.of(huge)));
        Run run = history.find(id).orElseThrow();
        assertThat(run.error().orElseThrow())
                .hasSize(RunHistory.MAX_TEXT_LENGTH)
                .endsWith("[truncated]");
        assertThat(run.heldBack().orElseThrow()).hasSize(RunHistory.MAX_TEXT_LENGTH);
    }

    @Test
    void pausesArePersistedAndCoverTheirScope() throws SQLException {
        PauseStore pauses = PauseStore.open(database.dataSource(), clock);
        assertThat(pauses.pause(Optional.of("db.a"), Optional.empty(), "alice", Optional.of("migrating")))
                .isTrue();
        assertThat(pauses.pause(Optional.empty(), Optional.of("orphan-cleanup"), "bob", Optional.empty()))
                .isTrue();
        assertThat(pauses.pause(Optional.of("db.b"), Optional.of("full-compaction"), "bob", Optional.empty()))
                .isTrue();
        assertThat(pauses.pause(Optional.of("db.a"), Optional.empty(), "carol", Optional.empty()))
                .as("already paused")
                .isFalse();

        database.reopen();
        pauses = PauseStore.open(database.dataSource(), clock);
        assertThat(pauses.isPaused("db.a", "minor-compaction")).isTrue();
        assertThat(pauses.isPaused("db.c", "orphan-cleanup")).isTrue();
        assertThat(pauses.isPaused("db.b", "full-compaction")).isTrue();
        assertThat(pauses.isPaused("db.b", "minor-compaction")).isFalse();
        assertThat(pauses.pausedBy("db.a", "orphan-cleanup"))
                .extracting(Pause::pausedBy)
                .containsExactlyInAnyOrder("alice", "bob");
        Pause alice = pauses.pausedBy("db.a", "full-compaction").get(0);
        assertThat(alice.reason()).contains("migrating");
        assertThat(alice.pausedAt()).isEqualTo(START);
        assertThat(alice.operation()).isEmpty();

        assertThat(pauses.resume(Optional.of("db.a"), Optional.empty())).isTrue();
        assertThat(pauses.resume(Optional.of("db.a"), Optional.empty())).isFalse();
        assertThat(pauses.isPaused("db.a", "minor-compaction")).isFalse();
        database.reopen();
        pauses = PauseStore.open(database.dataSource(), clock);
        assertThat(pauses.pauses()).hasSize(2);
        assertThatThrownBy(() -> PauseStore.open(database.dataSource(), clock)
                        .pause(Optional.of("*"), Optional.empty(), "bob", Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pause table");
    }

    @Test
    void schemaIsCreatedOnceAndAnotherVersionIsRefused() throws SQLException {
        RunHistory.open(database.dataSource(), clock);
        PauseStore.open(database.dataSource(), clock);
        try (Connection connection = database.dataSource().getConnection();
                Statement statement = connection.createStatement()) {
            statement.executeUpdate("UPDATE strata_history_schema SET version = 3");
        }
        assertThatThrownBy(() -> RunHistory.open(database.dataSource(), clock))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("history schema version 3");
    }

    /** A database a version-1 scheduler wrote: its runs stay, read with 0 for the counters it lacks. */
    @Test
    void aVersionOneDatabaseIsUpgradedInPlaceKeepingItsRuns() throws SQLException {
        RunHistory history = RunHistory.open(database.dataSource(), clock);
        long id = history.start("db.a", "expiration", Optional.empty(), "alice");
        history.finish(id, RunResult.succeeded(new RunCounters(2, 5, 1024, 0)));
        try (Connection connection = database.dataSource().getConnection();
                Statement statement = connection.createStatement()) {
            statement.executeUpdate("ALTER TABLE strata_run DROP COLUMN changelogs_expired");
            statement.executeUpdate("ALTER TABLE strata_run DROP COLUMN partitions_expired");
            statement.executeUpdate("ALTER TABLE strata_run DROP COLUMN tags_created");
            statement.executeUpdate("UPDATE strata_history_schema SET version = 1");
        }
        RunHistory upgraded = RunHistory.open(database.dataSource(), clock);
        Run run = upgraded.find(id).orElseThrow();
        assertThat(run.counters().snapshotsExpired()).isEqualTo(2);
        assertThat(run.counters().filesDeleted()).isEqualTo(5);
        assertThat(run.counters().changelogsExpired()).isZero();
        assertThat(run.counters().tagsCreated()).isZero();
        try (Connection connection = database.dataSource().getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT version FROM strata_history_schema")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getInt(1)).isEqualTo(2);
        }
    }

    private long count() throws SQLException {
        try (Connection connection = database.dataSource().getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM strata_run")) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
