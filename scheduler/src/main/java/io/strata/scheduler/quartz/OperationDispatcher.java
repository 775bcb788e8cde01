package io.strata.scheduler.quartz;

import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.config.TableSettings;
import io.strata.scheduler.config.TableSettings.BacklogCompaction;
import io.strata.scheduler.config.TableSettings.Compaction;
import io.strata.scheduler.ops.Backlog;
import io.strata.scheduler.ops.OperationKind;
import io.strata.scheduler.ops.Outcome;
import io.strata.scheduler.ops.TableOperations;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Consumer;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the operation a trigger fired for, with the table's current settings: a schedule the config
 * no longer has is not run. A full compaction held back by its window gets a one-shot trigger at
 * the window's next opening. Every outcome goes to the listener (tests, the service's log).
 */
public final class OperationDispatcher {
    private static final Logger LOG = LoggerFactory.getLogger(OperationDispatcher.class);

    private final SchedulerConfig config;
    private final TableOperations ops;
    private final OperationGuard guard;
    private final HealthPolls polls;
    private final Consumer<Outcome> listener;
    private volatile Scheduler scheduler;
    private volatile boolean accepting = true;

    public OperationDispatcher(
            SchedulerConfig config,
            TableOperations ops,
            OperationGuard guard,
            HealthPolls polls,
            Consumer<Outcome> listener) {
        this.config = config;
        this.ops = ops;
        this.guard = guard;
        this.polls = polls;
        this.listener = listener;
    }

    void attach(Scheduler s) {
        this.scheduler = s;
    }

    /** From now on fires start nothing (shutdown has begun). */
    public void stopAccepting() {
        accepting = false;
    }

    /**
     * When a fire that Quartz made {@code lateness} after its scheduled time was due, on the
     * service's clock: Quartz keeps its fire times on the system clock, while windows and lateness
     * are judged on the service's clock (the system clock in production; a test's fixed or fast
     * clock otherwise), so a fire is handed on as the service's now minus how late Quartz fired it.
     */
    public Instant dueOnServiceClock(Duration lateness) {
        return ops.now().minus(lateness.isNegative() ? Duration.ZERO : lateness);
    }

    /** Runs {@code kind} on {@code table} for the fire due at {@code due}; returns its outcome. */
    public Optional<Outcome> run(String table, OperationKind kind, Instant due) throws Exception {
        return run(table, kind, due, Optional.empty());
    }

    /**
     * Runs {@code kind} on {@code table} for the fire {@code fireId} due at {@code due}, inside the
     * {@link OperationGuard} (pause, lease, run history, metrics); returns its outcome. A backlog
     * poll that finds the table under its thresholds is not a run: it updates the table's health
     * and metrics only, so the history is not filled with polls.
     */
    public Optional<Outcome> run(String table, OperationKind kind, Instant due, Optional<String> fireId)
            throws Exception {
        if (!accepting) {
            LOG.info("{} {}: not started, the scheduler is shutting down", table, kind.key());
            return Optional.empty();
        }
        TableSettings s = config.settingsFor(table);
        Outcome o = switch (kind) {
            case EXPIRATION ->
                s.expiration().isEmpty()
                        ? null
                        : guard.run(
                                table,
                                kind,
                                fireId,
                                () -> ops.expire(table, s.expiration().get()));
            case ORPHAN_CLEANUP ->
                s.orphanCleanup().isEmpty()
                        ? null
                        : guard.run(
                                table,
                                kind,
                                fireId,
                                () -> ops.cleanOrphans(table, s.orphanCleanup().get()));
            case FULL_COMPACTION ->
                s.fullCompaction().isEmpty()
                        ? null
                        : guard.run(
                                table,
                                kind,
                                fireId,
                                () -> ops.fullCompaction(
                                        table, s.fullCompaction().get(), s.compaction(), due));
            case BACKLOG_COMPACTION ->
                s.backlogCompaction().isEmpty()
                        ? null
                        : backlog(table, s.backlogCompaction().get(), s.compaction(), due, fireId);
        };
        if (o == null) {
            LOG.info("{} {}: no longer in the config, not run", table, kind.key());
            return Optional.empty();
        }
        if (o instanceof Outcome.Skipped skipped && skipped.retryAt().isPresent()) {
            defer(new JobKey(kind.key(), table), skipped.retryAt().get());
        }
        listener.accept(o);
        return Optional.of(o);
    }

    private Outcome backlog(
            String table, BacklogCompaction b, Compaction placement, Instant due, Optional<String> fireId)
            throws Exception {
        Optional<Outcome> late = ops.lateBacklogPoll(table, b, due);
        if (late.isPresent()) {
            return late.get();
        }
        Optional<Backlog> backlog = Backlog.of(polls.poll(table), b);
        if (backlog.isEmpty() || !backlog.get().exceeds()) {
            String why = backlog.map(Backlog::toString).orElse("no snapshot yet");
            return new Outcome.Skipped(table, OperationKind.BACKLOG_COMPACTION, why, Optional.empty());
        }
        return guard.run(
                table,
                OperationKind.BACKLOG_COMPACTION,
                fireId,
                () -> ops.compactBacklog(table, backlog.get(), placement));
    }

    private void defer(JobKey job, Instant at) throws SchedulerException {
        Scheduler s = scheduler;
        if (s == null) {
            return;
        }
        Trigger t = Schedule.deferred(job, at);
        if (s.checkExists(t.getKey())) {
            s.rescheduleJob(t.getKey(), t);
        } else {
            s.scheduleJob(t);
        }
        LOG.info("{} {}: deferred to {}", job.getGroup(), job.getName(), at);
    }
}
