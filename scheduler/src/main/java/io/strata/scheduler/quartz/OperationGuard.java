package io.strata.scheduler.quartz;

import io.strata.scheduler.history.Pause;
import io.strata.scheduler.history.PauseStore;
import io.strata.scheduler.history.RunCounters;
import io.strata.scheduler.history.RunHistory;
import io.strata.scheduler.history.RunOutcome;
import io.strata.scheduler.history.RunResult;
import io.strata.scheduler.lease.LeaseAcquisition;
import io.strata.scheduler.lease.LeaseKeeper;
import io.strata.scheduler.lease.LeaseLostException;
import io.strata.scheduler.lease.LeaseStore;
import io.strata.scheduler.metrics.SchedulerMetrics;
import io.strata.scheduler.ops.OperationKind;
import io.strata.scheduler.ops.Outcome;
import io.strata.storage.maintenance.ChangelogExpireResult;
import io.strata.storage.maintenance.ExpireResult;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every operation the dispatcher starts runs inside: a pause holds it back; otherwise it
 * takes the fenced lease of (table, operation) in the scheduler's database, which excludes
 * conflicting operations of every scheduler process, and keeps it renewed while it runs; the run
 * is recorded in the run history from start to end and counted in the metrics. The lease is
 * checked before the operation starts and again after it returns (the engine API has no hook
 * before a commit): a run whose lease was lost meanwhile is recorded as failed. That stays correct
 * because the engine's commit protocol resolves two compactions that meet (one re-plans), and
 * expiration and orphan cleanup plan from committed snapshots only.
 */
public final class OperationGuard {
    private static final Logger LOG = LoggerFactory.getLogger(OperationGuard.class);

    /** The operation run inside the guard. */
    public interface Work {
        Outcome run() throws Exception;
    }

    private final LeaseStore leases;
    private final RunHistory history;
    private final PauseStore pauses;
    private final SchedulerMetrics metrics;
    private final String owner;
    private final Duration ttl;
    private final Clock clock;
    private final AtomicInteger running = new AtomicInteger();
    private final FireRecovery recovery;

    public OperationGuard(
            LeaseStore leases,
            RunHistory history,
            PauseStore pauses,
            SchedulerMetrics metrics,
            String owner,
            Duration ttl,
            Clock clock) {
        this.leases = leases;
        this.history = history;
        this.pauses = pauses;
        this.metrics = metrics;
        this.owner = owner;
        this.ttl = ttl;
        this.clock = clock;
        this.recovery = new FireRecovery(leases, history, owner, ttl, clock);
    }

    public String owner() {
        return owner;
    }

    /** Operations inside the guard now. */
    public int running() {
        return running.get();
    }

    /**
     * Runs {@code work} for {@code kind} on {@code table} unless paused or held back by a lease;
     * returns its outcome (a skip names the pause or the lease holders). An operation that throws
     * is recorded as failed (interrupted, when the shutdown interrupted it) and its error rethrown.
     */
    public Outcome run(String table, OperationKind kind, Optional<String> fireId, Work work) throws Exception {
        String operation = kind.key();
        List<Pause> pausedBy = pauses.pausedBy(table, operation);
        if (!pausedBy.isEmpty()) {
            return skipped(table, kind, fireId, "paused: " + describe(pausedBy));
        }
        LeaseAcquisition acquisition = leases.acquire(table, kind.leaseOperation(), owner, ttl);
        if (!acquisition.isGranted()) {
            publishLeases();
            return skipped(table, kind, fireId, acquisition.heldBackReason());
        }
        running.incrementAndGet();
        publishLeases();
        Instant start = clock.instant();
        try (LeaseKeeper keeper = LeaseKeeper.keep(leases, acquisition.lease(), ttl, ttl.dividedBy(3))) {
            long id = history.start(table, operation, fireId, owner);
            Outcome outcome = null;
            RunResult result;
            Exception failure = null;
            try {
                keeper.checkHeld();
                outcome = work.run();
                keeper.checkHeld();
                result = outcome instanceof Outcome.Skipped s
                        ? RunResult.skipped(s.reason())
                        : RunResult.succeeded(counters(outcome));
            } catch (LeaseLostException e) {
                failure = e;
                result = RunResult.failed(counters(outcome), e);
            } catch (Exception e) {
                failure = e;
                result = interrupted(e)
                        ? RunResult.interrupted(counters(outcome), "interrupted: " + e)
                        : RunResult.failed(counters(outcome), e);
            }
            // an interrupted thread cannot write to an H2 file (its channel would close): record first
            boolean interrupt = Thread.interrupted();
            try {
                history.finish(id, result);
            } finally {
                Instant end = clock.instant();
                metrics.recordRun(
                        table,
                        operation,
                        result.outcome().name().toLowerCase(Locale.ROOT),
                        Duration.between(start, end),
                        end,
                        result.outcome() == RunOutcome.SUCCEEDED);
                if (interrupt) {
                    Thread.currentThread().interrupt();
                }
            }
            if (failure != null) {
                throw failure;
            }
            return outcome;
        } finally {
            running.decrementAndGet();
            publishLeases();
        }
    }

    /**
     * Before a fire that recovers the run {@code deadOwner} left of {@code kind} on {@code table}:
     * waits for that owner's lease to expire and marks its run interrupted ({@link
     * FireRecovery#takeOver}). Empty when the fire may go on through {@link #run}; otherwise the
     * skip, recorded, naming why (its holder renewed the lease, so it is alive).
     */
    public Optional<Outcome> takeOver(String table, OperationKind kind, String deadOwner, Optional<String> fireId)
            throws Exception {
        Optional<String> refused = recovery.takeOver(table, kind, deadOwner, fireId);
        if (refused.isPresent()) {
            return Optional.of(skipped(table, kind, fireId, refused.get()));
        }
        return Optional.empty();
    }

    /**
     * Records a fire held back before it reached {@link #run} until {@code until} (its turn in a
     * catch-up after a downtime, {@link CatchUpSpread}), as a skipped run with {@code reason}.
     */
    public Outcome heldBack(String table, OperationKind kind, Optional<String> fireId, String reason, Instant until)
            throws SQLException {
        return skipped(table, kind, fireId, reason, Optional.of(until));
    }

    private Outcome skipped(String table, OperationKind kind, Optional<String> fireId, String reason)
            throws SQLException {
        return skipped(table, kind, fireId, reason, Optional.empty());
    }

    private Outcome skipped(
            String table, OperationKind kind, Optional<String> fireId, String reason, Optional<Instant> retryAt)
            throws SQLException {
        history.skipped(table, kind.key(), fireId, owner, reason);
        metrics.recordRun(table, kind.key(), "skipped", Duration.ZERO, clock.instant(), false);
        Outcome o = new Outcome.Skipped(table, kind, reason, retryAt);
        LOG.info("{} {}: {}", table, kind.key(), o.summary());
        return o;
    }

    /** Sets the lease series from the leases live in the database now (every owner's). */
    public void publishLeases() {
        try {
            metrics.setLeases(leases.live().stream()
                    .map(l -> new SchedulerMetrics.HeldLease(l.table(), l.operationId(), l.owner()))
                    .toList());
        } catch (SQLException e) {
            LOG.warn("cannot read the live leases for the metrics", e);
        }
    }

    private static boolean interrupted(Throwable e) {
        if (Thread.currentThread().isInterrupted()) {
            return true;
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InterruptedException) {
                return true;
            }
        }
        return false;
    }

    private static String describe(List<Pause> pausedBy) {
        return pausedBy.stream()
                .map(p -> (p.table().orElse("every table")) + " / "
                        + p.operation().orElse("every operation") + " by " + p.pausedBy()
                        + p.reason().map(r -> " (" + r + ")").orElse(""))
                .collect(Collectors.joining("; "));
    }

    /** What the outcome reports, as the run history counts it; none for a run that did not return. */
    static RunCounters counters(Outcome o) {
        if (o instanceof Outcome.Expired e) {
            ExpireResult r = e.result();
            long bytes = r.deletedBytes().values().stream()
                    .mapToLong(Long::longValue)
                    .sum();
            return r.dryRun()
                    ? RunCounters.NONE
                    : new RunCounters(
                            r.plan().snapshotsExpired(), r.deleted().size(), bytes, 0, r.changelogsExpired(), 0, 0);
        }
        if (o instanceof Outcome.ChangelogsExpired c) {
            ChangelogExpireResult r = c.result();
            return new RunCounters(0, r.deleted().size(), r.deletedBytes(), 0, r.changelogsExpired(), 0, 0);
        }
        if (o instanceof Outcome.PartitionsExpired p) {
            // the dropped files stay for time travel until expiration frees them: nothing is deleted here
            return p.result().dryRun()
                    ? RunCounters.NONE
                    : new RunCounters(0, 0, 0, 0, 0, p.result().expired().size(), 0);
        }
        if (o instanceof Outcome.AutoTagged t) {
            return new RunCounters(0, 0, 0, 0, 0, 0, t.result().created().isPresent() ? 1 : 0);
        }
        if (o instanceof Outcome.OrphansCleaned c) {
            return c.result().dryRun()
                    ? RunCounters.NONE
                    : new RunCounters(0, c.result().deleted().size(), c.result().bytes(), 0);
        }
        if (o instanceof Outcome.Compacted c) {
            return new RunCounters(0, 0, 0, c.report().rowsCompacted(), 0, 0, 0);
        }
        return RunCounters.NONE;
    }
}
