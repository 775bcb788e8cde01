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
 * the window's next opening. A fire a downtime left due may first wait for its turn in the
 * catch-up ({@link #heldBackForCatchUp}). A run waits for a slot of its class first ({@link
 * Admission}: the caps on concurrent compactions and maintenance). Every outcome goes to the
 * listener (tests, the service's log).
 */
public final class OperationDispatcher {
    private static final Logger LOG = LoggerFactory.getLogger(OperationDispatcher.class);

    private final SchedulerConfig config;
    private final TableOperations ops;
    private final OperationGuard guard;
    private final HealthPolls polls;
    private final Admission admission;
    private final Consumer<Outcome> listener;
    private final CatchUpSpread catchUp;
    private volatile Scheduler scheduler;
    private volatile boolean accepting = true;

    public OperationDispatcher(
            SchedulerConfig config,
            TableOperations ops,
            OperationGuard guard,
            HealthPolls polls,
            Admission admission,
            Consumer<Outcome> listener) {
        this.config = config;
        this.ops = ops;
        this.guard = guard;
        this.polls = polls;
        this.admission = admission;
        this.listener = listener;
        this.catchUp = new CatchUpSpread(config.catchUpSpread());
    }

    /** Fires the dispatcher runs on {@code s}; its misfires are heard by the catch-up spread. */
    void attach(Scheduler s) throws SchedulerException {
        this.scheduler = s;
        s.getListenerManager().addTriggerListener(catchUp);
    }

    /** The catch-up spread the fires of this dispatcher's scheduler go through. */
    public CatchUpSpread catchUp() {
        return catchUp;
    }

    /**
     * Whether the fire of {@code trigger} scheduled at {@code scheduled} and fired at {@code fired}
     * (Quartz's times) waits for its turn in a catch-up after a downtime ({@link CatchUpSpread}):
     * then its job gets a one-shot trigger at its slot, the fire is recorded as held back until
     * then, and it must not be run; likewise, without a trigger, a second fire of a job this
     * catch-up ran already. A fire while the shutdown has begun is not held back ({@link
     * #run} says it does not start).
     */
    public boolean heldBackForCatchUp(
            Trigger trigger,
            Instant scheduled,
            Instant fired,
            String table,
            OperationKind kind,
            Optional<String> fireId)
            throws Exception {
        if (!accepting) {
            return false;
        }
        CatchUpSpread.Turn turn = catchUp.turn(trigger, scheduled, fired);
        Outcome o;
        if (turn instanceof CatchUpSpread.Turn.WaitUntil w) {
            schedule(Schedule.catchUp(trigger.getJobKey(), w.slot()));
            o = guard.heldBack(table, kind, fireId, "held back by catch-up spread until " + w.slot(), w.slot());
        } else if (turn instanceof CatchUpSpread.Turn.CaughtUp c) {
            o = guard.heldBack(
                    table,
                    kind,
                    fireId,
                    "caught up already: this catch-up ran it in its slot at " + c.ranAt(),
                    c.ranAt());
        } else {
            return false;
        }
        listener.accept(o);
        return true;
    }

    /** From now on fires start nothing (shutdown has begun); the fires waiting for a slot leave. */
    public void stopAccepting() {
        accepting = false;
        admission.close();
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
        return run(table, kind, Fire.at(due));
    }

    /**
     * Runs {@code kind} on {@code table} for {@code fire}, inside the {@link OperationGuard} (pause,
     * lease, run history, metrics); returns its outcome. A fire that recovers the run of a dead
     * scheduler first takes over from it ({@link OperationGuard#takeOver}): it waits for the dead
     * run's lease to expire and marks that run interrupted, whatever it then does itself. A backlog
     * poll that finds the table under its thresholds is not a run: it updates the table's health
     * and metrics only, so the history is not filled with polls.
     */
    public Optional<Outcome> run(String table, OperationKind kind, Fire fire) throws Exception {
        if (!accepting) {
            LOG.info("{} {}: not started, the scheduler is shutting down", table, kind.key());
            return Optional.empty();
        }
        if (fire.recovering().isPresent()) {
            Optional<Outcome> refused =
                    guard.takeOver(table, kind, fire.recovering().get(), fire.id());
            if (refused.isPresent()) {
                listener.accept(refused.get());
                return refused;
            }
            if (!accepting) {
                LOG.info("{} {}: recovered, not started, the scheduler is shutting down", table, kind.key());
                return Optional.empty();
            }
        }
        Instant due = fire.due();
        Optional<String> fireId = fire.id();
        TableSettings s = config.settingsFor(table);
        Optional<OperationGuard.Work> work = switch (kind) {
            case EXPIRATION -> s.expiration().map(e -> () -> ops.expire(table, e));
            case CHANGELOG_EXPIRATION -> s.changelogExpiration().map(e -> () -> ops.expireChangelogs(table, e));
            case PARTITION_EXPIRATION -> s.partitionExpiration().map(e -> () -> ops.expirePartitions(table, e));
            case AUTO_TAG -> s.autoTag().map(t -> () -> ops.autoTag(table, t));
            case ORPHAN_CLEANUP -> s.orphanCleanup().map(c -> () -> ops.cleanOrphans(table, c));
            case FULL_COMPACTION ->
                s.fullCompaction().map(f -> () -> ops.fullCompaction(table, f, s.compaction(), due));
            case BACKLOG_COMPACTION -> Optional.empty();
        };
        boolean configured =
                kind == OperationKind.BACKLOG_COMPACTION ? s.backlogCompaction().isPresent() : work.isPresent();
        if (!configured) {
            LOG.info("{} {}: no longer in the config, not run", table, kind.key());
            return Optional.empty();
        }
        Optional<Outcome> admitted = kind == OperationKind.BACKLOG_COMPACTION
                ? backlog(table, s.backlogCompaction().get(), s.compaction(), due, fireId)
                : admitted(table, kind, fireId, Optional.empty(), work.get());
        if (admitted.isEmpty()) {
            LOG.info("{} {}: not started, the scheduler is shutting down", table, kind.key());
            return Optional.empty();
        }
        Outcome o = admitted.get();
        if (o instanceof Outcome.Skipped skipped && skipped.retryAt().isPresent()) {
            defer(new JobKey(kind.key(), table), skipped.retryAt().get());
        }
        listener.accept(o);
        return Optional.of(o);
    }

    /** The backlog poll, and the compaction when the table is over its thresholds. */
    private Optional<Outcome> backlog(
            String table, BacklogCompaction b, Compaction placement, Instant due, Optional<String> fireId)
            throws Exception {
        Optional<Outcome> late = ops.lateBacklogPoll(table, b, due);
        if (late.isPresent()) {
            return late;
        }
        Optional<Backlog> backlog = Backlog.of(polls.poll(table), b);
        if (backlog.isEmpty() || !backlog.get().exceeds()) {
            String why = backlog.map(Backlog::toString).orElse("no snapshot yet");
            return Optional.of(new Outcome.Skipped(table, OperationKind.BACKLOG_COMPACTION, why, Optional.empty()));
        }
        return admitted(
                table,
                OperationKind.BACKLOG_COMPACTION,
                fireId,
                backlog,
                () -> ops.compactBacklog(table, backlog.get(), placement));
    }

    /**
     * Runs {@code work} inside the guard once its class has a free slot ({@link Admission});
     * empty when the shutdown began before it got one.
     */
    private Optional<Outcome> admitted(
            String table,
            OperationKind kind,
            Optional<String> fireId,
            Optional<Backlog> backlog,
            OperationGuard.Work work)
            throws Exception {
        Optional<Admission.Slot> slot = admission.enter(kind, backlog);
        if (slot.isEmpty()) {
            return Optional.empty();
        }
        try (Admission.Slot held = slot.get()) {
            if (!accepting) {
                return Optional.empty();
            }
            return Optional.of(guard.run(table, kind, fireId, work));
        }
    }

    private void defer(JobKey job, Instant at) throws SchedulerException {
        if (schedule(Schedule.deferred(job, at))) {
            LOG.info("{} {}: deferred to {}", job.getGroup(), job.getName(), at);
        }
    }

    /** Stores the one-shot {@code t}, replacing one of its key; false without a scheduler (a manual run). */
    private boolean schedule(Trigger t) throws SchedulerException {
        Scheduler s = scheduler;
        if (s == null) {
            return false;
        }
        if (s.checkExists(t.getKey())) {
            s.rescheduleJob(t.getKey(), t);
        } else {
            s.scheduleJob(t);
        }
        return true;
    }
}
