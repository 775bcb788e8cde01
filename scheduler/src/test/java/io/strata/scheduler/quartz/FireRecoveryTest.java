package io.strata.scheduler.quartz;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.scheduler.history.PauseStore;
import io.strata.scheduler.history.Run;
import io.strata.scheduler.history.RunHistory;
import io.strata.scheduler.history.RunOutcome;
import io.strata.scheduler.lease.Lease;
import io.strata.scheduler.lease.LeaseOperation;
import io.strata.scheduler.lease.LeaseStore;
import io.strata.scheduler.lease.MutableClock;
import io.strata.scheduler.lease.TestDatabase;
import io.strata.scheduler.metrics.SchedulerMetrics;
import io.strata.scheduler.ops.OperationKind;
import io.strata.scheduler.ops.Outcome;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quartz.Scheduler;
import org.quartz.TriggerKey;

/**
 * A recovered fire takes over from its dead owner only once the dead run's lease expired, then
 * marks that run interrupted; a lease renewed meanwhile belongs to a live holder and refuses the
 * fire. Time is a {@link MutableClock} the test moves.
 */
class FireRecoveryTest {
    private static final Duration TTL = Duration.ofSeconds(30);
    private static final String TABLE = "db.t";

    @TempDir
    Path dir;

    private TestDatabase db;
    private MutableClock clock;
    private LeaseStore leases;
    private RunHistory history;
    private OperationGuard guard;

    @BeforeEach
    void open() throws Exception {
        db = TestDatabase.h2(dir);
        clock = new MutableClock(Instant.parse("2026-12-03T12:00:00Z"));
        leases = LeaseStore.open(db.dataSource(), clock);
        history = RunHistory.open(db.dataSource(), clock);
        guard = new OperationGuard(
                leases,
                history,
                PauseStore.open(db.dataSource(), clock),
                new SchedulerMetrics(0),
                "node-b",
                TTL,
                clock);
    }

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void theDeadOwnerIsTheInstanceQuartzNamesInTheRecoveryTrigger() {
        assertThat(FireRecovery.deadOwner(
                        new TriggerKey("recover_node_a-1_1764806400000", Scheduler.DEFAULT_RECOVERY_GROUP)))
                .contains("node_a-1");
        assertThat(FireRecovery.deadOwner(new TriggerKey("recover_node-a_17", "db.t")))
                .isEmpty();
        assertThat(FireRecovery.deadOwner(new TriggerKey("full-compaction", Scheduler.DEFAULT_RECOVERY_GROUP)))
                .isEmpty();
    }

    @Test
    void theFireWaitsForTheDeadLeaseToExpireThenMarksTheDeadRunInterrupted() throws Exception {
        Lease dead = leases.acquire(TABLE, LeaseOperation.FULL_COMPACTION, "node-a", TTL)
                .lease();
        long run = history.start(TABLE, "full-compaction", Optional.of("node-a1"), "node-a");
        long other = history.start("db.u", "full-compaction", Optional.of("node-a2"), "node-a");
        CompletableFuture<Optional<Outcome>> takeOver = CompletableFuture.supplyAsync(() -> takeOver("node-a"));
        Thread.sleep(300);
        assertThat(takeOver).as("waiting while the lease lives").isNotDone();
        assertThat(history.find(run).orElseThrow().outcome()).isEqualTo(RunOutcome.RUNNING);

        clock.advance(Duration.between(clock.instant(), dead.expiresAt()));
        assertThat(takeOver.get(10, TimeUnit.SECONDS)).as("the fire may go on").isEmpty();
        Run marked = history.find(run).orElseThrow();
        assertThat(marked.outcome()).isEqualTo(RunOutcome.INTERRUPTED);
        assertThat(marked.end()).contains(dead.expiresAt());
        assertThat(marked.error())
                .contains("interrupted: its scheduler 'node-a' stopped during the run; 'node-b' re-fired it as fire"
                        + " node-b7 after the lease had expired");
        assertThat(history.find(other).orElseThrow().outcome())
                .as("a run of another table waits for its own recovered fire")
                .isEqualTo(RunOutcome.RUNNING);
        assertThat(leases.acquire(TABLE, LeaseOperation.FULL_COMPACTION, "node-b", TTL)
                        .lease()
                        .epoch())
                .isGreaterThan(dead.epoch());
    }

    @Test
    void aLeaseRenewedWhileTheFireWaitsMeansItsHolderIsAliveAndRefusesTheFire() throws Exception {
        Lease live = leases.acquire(TABLE, LeaseOperation.FULL_COMPACTION, "node-a", TTL)
                .lease();
        long run = history.start(TABLE, "full-compaction", Optional.of("node-a1"), "node-a");
        CompletableFuture<Optional<Outcome>> takeOver = CompletableFuture.supplyAsync(() -> takeOver("node-a"));
        Thread.sleep(300);
        clock.advance(TTL.dividedBy(3));
        assertThat(leases.renew(live, TTL)).isPresent();

        Outcome refused = takeOver.get(10, TimeUnit.SECONDS).orElseThrow();
        assertThat(((Outcome.Skipped) refused).reason())
                .startsWith("recovery of the run of 'node-a' refused: ")
                .contains("epoch " + live.epoch())
                .endsWith("was renewed while waiting for it to expire, so its holder is alive");
        assertThat(history.find(run).orElseThrow().outcome())
                .as("the live holder's run is left alone")
                .isEqualTo(RunOutcome.RUNNING);
        Run skipped = history.recent(Optional.of(TABLE), 1).get(0);
        assertThat(skipped.outcome()).isEqualTo(RunOutcome.SKIPPED);
        assertThat(skipped.owner()).isEqualTo("node-b");
        assertThat(skipped.heldBack()).hasValueSatisfying(h -> assertThat(h).contains("its holder is alive"));
    }

    @Test
    void aLeaseThatDoesNotConflictIsNotWaitedFor() throws Exception {
        leases.acquire(TABLE, LeaseOperation.SNAPSHOT_EXPIRATION, "node-a", TTL);
        long run = history.start(TABLE, "full-compaction", Optional.of("node-a1"), "node-a");
        assertThat(takeOver("node-a")).isEmpty();
        assertThat(history.find(run).orElseThrow().outcome()).isEqualTo(RunOutcome.INTERRUPTED);
    }

    @Test
    void itsOwnEarlierProcessIsWaitedForButItsRunsAreLeftToTheStartUpMarking() throws Exception {
        Lease old = leases.acquire(TABLE, LeaseOperation.FULL_COMPACTION, "node-b", TTL)
                .lease();
        long run = history.start(TABLE, "full-compaction", Optional.of("node-b1"), "node-b");
        CompletableFuture<Optional<Outcome>> takeOver = CompletableFuture.supplyAsync(() -> takeOver("node-b"));
        Thread.sleep(300);
        assertThat(takeOver).isNotDone();
        clock.advance(Duration.between(clock.instant(), old.expiresAt()));
        assertThat(takeOver.get(10, TimeUnit.SECONDS)).isEmpty();
        assertThat(history.find(run).orElseThrow().outcome()).isEqualTo(RunOutcome.RUNNING);
    }

    private Optional<Outcome> takeOver(String deadOwner) {
        try {
            return guard.takeOver(TABLE, OperationKind.FULL_COMPACTION, deadOwner, Optional.of("node-b7"));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
