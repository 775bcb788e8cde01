package io.strata.scheduler.quartz;

import io.strata.scheduler.ops.OperationKind;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.InterruptableJob;
import org.quartz.JobExecutionContext;
import org.quartz.JobExecutionException;
import org.quartz.SchedulerException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Quartz job of every schedule: reads the table and operation from its job data and hands
 * them, with the time the fire was due on the service's clock ({@link
 * OperationDispatcher#dueOnServiceClock}), to the {@link OperationDispatcher} in the scheduler
 * context. A fire that Quartz re-fires because its scheduler died mid-run ({@link
 * JobExecutionContext#isRecovering()}) names the dead scheduler, as the owner whose run it
 * recovers. A fresh fire a downtime left due may be held back for its turn in the catch-up
 * ({@link OperationDispatcher#heldBackForCatchUp}). A failure is rethrown to Quartz (logged there
 * and by the operation), not swallowed.
 */
@DisallowConcurrentExecution
public final class OperationJob implements InterruptableJob {
    private static final Logger LOG = LoggerFactory.getLogger(OperationJob.class);
    static final String DISPATCHER = "strata.dispatcher";

    private volatile Thread runner;

    @Override
    public void execute(JobExecutionContext context) throws JobExecutionException {
        String table = context.getMergedJobDataMap().getString(Schedule.TABLE);
        OperationKind kind = OperationKind.ofKey(context.getMergedJobDataMap().getString(Schedule.OPERATION));
        Instant scheduled = (context.getScheduledFireTime() != null
                        ? context.getScheduledFireTime()
                        : context.getFireTime())
                .toInstant();
        OperationDispatcher dispatcher;
        try {
            dispatcher =
                    (OperationDispatcher) context.getScheduler().getContext().get(DISPATCHER);
        } catch (SchedulerException e) {
            throw new JobExecutionException("no scheduler context for " + table + " " + kind.key(), e, false);
        }
        Instant due = dispatcher.dueOnServiceClock(
                Duration.between(scheduled, context.getFireTime().toInstant()));
        Optional<String> recovering = Optional.empty();
        if (context.isRecovering()) {
            recovering = FireRecovery.deadOwner(context.getTrigger().getKey());
            if (recovering.isEmpty()) {
                LOG.warn(
                        "{} {}: a recovered fire under trigger {}, whose name does not give the scheduler it"
                                + " recovers; run as a fresh fire",
                        table,
                        kind.key(),
                        context.getTrigger().getKey());
            }
        }
        Fire fire = new Fire(due, Optional.ofNullable(context.getFireInstanceId()), recovering);
        runner = Thread.currentThread();
        try {
            if (recovering.isEmpty()
                    && dispatcher.heldBackForCatchUp(
                            context.getTrigger(),
                            scheduled,
                            context.getFireTime().toInstant(),
                            table,
                            kind,
                            fire.id())) {
                return;
            }
            dispatcher.run(table, kind, fire);
        } catch (Exception e) {
            throw new JobExecutionException(table + " " + kind.key() + " failed: " + e.getMessage(), e, false);
        } finally {
            runner = null;
        }
    }

    /** Interrupts the running operation: a compaction job is cancelled, uncommitted work discarded. */
    @Override
    public void interrupt() {
        Thread t = runner;
        if (t != null) {
            t.interrupt();
        }
    }
}
