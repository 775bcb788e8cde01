package io.strata.scheduler.quartz;

import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.config.TableSettings;
import io.strata.scheduler.ops.OperationKind;
import io.strata.scheduler.ops.Outcome;
import io.strata.scheduler.ops.TableOperations;
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
 * the window's next opening. Every outcome goes to the listener (tests, future run history).
 */
public final class OperationDispatcher {
    private static final Logger LOG = LoggerFactory.getLogger(OperationDispatcher.class);

    private final SchedulerConfig config;
    private final TableOperations ops;
    private final Consumer<Outcome> listener;
    private volatile Scheduler scheduler;
    private volatile boolean accepting = true;

    public OperationDispatcher(SchedulerConfig config, TableOperations ops, Consumer<Outcome> listener) {
        this.config = config;
        this.ops = ops;
        this.listener = listener;
    }

    void attach(Scheduler s) {
        this.scheduler = s;
    }

    /** From now on fires start nothing (shutdown has begun). */
    public void stopAccepting() {
        accepting = false;
    }

    /** Runs {@code kind} on {@code table} for the fire due at {@code due}; returns its outcome. */
    public Optional<Outcome> run(String table, OperationKind kind, Instant due) throws Exception {
        if (!accepting) {
            LOG.info("{} {}: not started, the scheduler is shutting down", table, kind.key());
            return Optional.empty();
        }
        TableSettings s = config.settingsFor(table);
        Outcome o = switch (kind) {
            case EXPIRATION ->
                s.expiration().isEmpty()
                        ? null
                        : ops.expire(table, s.expiration().get());
            case ORPHAN_CLEANUP ->
                s.orphanCleanup().isEmpty()
                        ? null
                        : ops.cleanOrphans(table, s.orphanCleanup().get());
            case FULL_COMPACTION ->
                s.fullCompaction().isEmpty()
                        ? null
                        : ops.fullCompaction(table, s.fullCompaction().get(), s.compaction(), due);
            case BACKLOG_COMPACTION ->
                s.backlogCompaction().isEmpty()
                        ? null
                        : ops.backlogCompaction(table, s.backlogCompaction().get(), s.compaction(), due);
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
