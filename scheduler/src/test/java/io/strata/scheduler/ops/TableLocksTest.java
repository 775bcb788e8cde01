package io.strata.scheduler.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.scheduler.config.TableSettings;
import io.strata.scheduler.lease.LeaseOperation;
import io.strata.scheduler.support.ModelWriter;
import io.strata.scheduler.time.OffPeakWindow;
import io.strata.storage.table.Catalog;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The in-process table locks decide by the lease's conflict matrix, not one operation per table. */
class TableLocksTest {
    @TempDir
    Path dir;

    @Test
    void locksAgreeWithTheLeaseMatrixForEveryPair() {
        for (LeaseOperation held : LeaseOperation.values()) {
            for (LeaseOperation next : LeaseOperation.values()) {
                TableLocks locks = new TableLocks();
                assertThat(locks.tryAcquire("db.t", held)).isEmpty();
                Optional<LeaseOperation> busy = locks.tryAcquire("db.t", next);
                assertThat(busy.isPresent())
                        .as("%s while %s holds the table", next, held)
                        .isEqualTo(next.conflictsWith(held));
                assertThat(locks.tryAcquire("db.other", next))
                        .as("%s on another table", next)
                        .isEmpty();
            }
        }
    }

    @Test
    void expirationAndOrphanCleanupRunBesideACompactionButTwoCompactionsAndARollbackExclude() {
        TableLocks locks = new TableLocks();
        assertThat(locks.tryAcquire("db.t", LeaseOperation.BACKLOG_COMPACTION)).isEmpty();
        assertThat(locks.tryAcquire("db.t", LeaseOperation.FULL_COMPACTION))
                .contains(LeaseOperation.BACKLOG_COMPACTION);
        assertThat(locks.tryAcquire("db.t", LeaseOperation.SNAPSHOT_EXPIRATION)).isEmpty();
        assertThat(locks.tryAcquire("db.t", LeaseOperation.ORPHAN_CLEANUP))
                .as("orphan cleanup beside the running expiration")
                .contains(LeaseOperation.SNAPSHOT_EXPIRATION);
        assertThat(locks.tryAcquire("db.t", LeaseOperation.ROLLBACK)).isPresent();
        assertThat(locks.running())
                .containsExactly(Map.entry(
                        "db.t", List.of(LeaseOperation.BACKLOG_COMPACTION, LeaseOperation.SNAPSHOT_EXPIRATION)));

        locks.release("db.t", LeaseOperation.SNAPSHOT_EXPIRATION);
        assertThat(locks.tryAcquire("db.t", LeaseOperation.ORPHAN_CLEANUP)).isEmpty();
        locks.release("db.t", LeaseOperation.ORPHAN_CLEANUP);
        locks.release("db.t", LeaseOperation.BACKLOG_COMPACTION);
        assertThat(locks.running()).isEmpty();

        assertThat(locks.tryAcquire("db.t", LeaseOperation.ROLLBACK)).isEmpty();
        for (LeaseOperation other : LeaseOperation.values()) {
            assertThat(locks.tryAcquire("db.t", other))
                    .as("%s beside a rollback", other)
                    .contains(LeaseOperation.ROLLBACK);
        }
        assertThatThrownBy(() -> locks.release("db.t", LeaseOperation.AUTO_TAG))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("auto-tag does not hold db.t in this scheduler");
    }

    @Test
    void anExpirationRunsWhileACompactionOfTheSameTableRuns() throws Exception {
        String warehouse = dir.resolve("warehouse").toString();
        try (ModelWriter feeder = new ModelWriter(warehouse, "t", Map.of(), 31)) {
            for (int i = 0; i < 4; i++) {
                feeder.commitBatch(5);
            }
        }
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompactionRunner blocking = (table, strategy, placement) -> {
            started.countDown();
            if (!release.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("the test never released the compaction of " + table);
            }
            return new CompactionReport(table, strategy, 1, 2, 1, 1_000, List.of("2"), 0);
        };
        // tomorrow 03:00 UTC: inside the full compaction's window, after every commit
        Instant night = Instant.now().truncatedTo(ChronoUnit.DAYS).plus(Duration.ofHours(27));
        TableOperations ops =
                new TableOperations(Catalog.open(warehouse), blocking, Clock.fixed(night, ZoneOffset.UTC));
        TableSettings.Compaction placement = TableSettings.Compaction.embedded(1);
        CompletableFuture<Outcome> compaction = CompletableFuture.supplyAsync(() -> {
            try {
                return ops.compactBacklog("db.t", new Backlog(1, 2, 1, 5, 0), placement);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        try {
            assertThat(started.await(30, TimeUnit.SECONDS))
                    .as("the compaction started")
                    .isTrue();
            assertThat(ops.locks().running()).containsEntry("db.t", List.of(LeaseOperation.BACKLOG_COMPACTION));

            Outcome expired = ops.expire(
                    "db.t",
                    new TableSettings.Expiration(
                            "0 0 3 * * ?",
                            ZoneOffset.UTC,
                            OptionalInt.of(1),
                            OptionalInt.empty(),
                            Optional.of(Duration.ZERO)));
            assertThat(expired)
                    .as("the expiration beside the running compaction")
                    .isInstanceOf(Outcome.Expired.class);
            assertThat(((Outcome.Expired) expired).result().plan().snapshotsExpired())
                    .isEqualTo(3);

            OffPeakWindow window = OffPeakWindow.parse("02:00-05:00", ZoneOffset.UTC);
            Outcome second = ops.fullCompaction(
                    "db.t", new TableSettings.FullCompaction("0 0 3 * * ?", window), placement, night);
            assertThat(second)
                    .as("a second compaction of the table")
                    .isInstanceOfSatisfying(
                            Outcome.Skipped.class,
                            s -> assertThat(s.reason())
                                    .isEqualTo("the table is busy with backlog-compaction in this scheduler"));
        } finally {
            release.countDown();
        }
        assertThat(compaction.get(30, TimeUnit.SECONDS)).isInstanceOf(Outcome.Compacted.class);
        assertThat(ops.locks().running()).isEmpty();
    }
}
