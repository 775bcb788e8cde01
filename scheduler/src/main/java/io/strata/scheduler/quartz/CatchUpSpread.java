package io.strata.scheduler.quartz;

import io.strata.scheduler.ops.OperationKind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.quartz.CronTrigger;
import org.quartz.JobExecutionContext;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SimpleTrigger;
import org.quartz.Trigger;
import org.quartz.TriggerKey;
import org.quartz.TriggerListener;

/**
 * Spaces out the fires a downtime left due (paimon #3223: a restarted scheduler fired every missed
 * operation of every table at once). Quartz's misfire handling makes each schedule whose misfire
 * instruction is to fire now (expirations, automatic tags, full compaction, and a deferred full
 * compaction's one-shot trigger; not orphan cleanup, which waits for its next fire, nor backlog
 * polls, which skip) fire once, at once; this listener hears of each such misfire ({@link
 * #triggerMisfired}, called by the job store, which must not be called back from there) and the
 * dispatcher asks at each fire for its {@link #turn}.
 *
 * <p>The misfires heard since the last plan form one catch-up of {@code n} fires, planned at the
 * first of their fires: ordered by when they were due (the longest overdue first), then table, then
 * operation, they get the slots {@code s0 = max(now, last slot + spread/n)} (now for the first
 * catch-up), {@code s(k+1) = s(k) + spread/n}: the catch-up's fires start evenly over the spread
 * (each one later still if it waits for a thread or a slot of its class). A fire whose slot has come runs; one whose slot is later is
 * held back, and its job gets a one-shot trigger at the slot ({@link Schedule#catchUp}). One job
 * gets one slot and runs once however many of its triggers misfired (a full compaction's schedule
 * and its deferral mean the same run): a further fire of it from the same catch-up waits for the
 * same slot, or does not run once the slot has come. What a spread fire then does is the
 * operation's own rule: a full compaction outside its window is deferred to the window's next
 * opening, and every fire waits for a slot of its class ({@link Admission}).
 *
 * <p>Times are Quartz's (the system clock): the slots are Quartz fire times. Fires on their schedule
 * are never held back. In a Quartz cluster each node spreads the misfires its own misfire handler
 * saw (Quartz handles at most 20 per transaction there, so a large catch-up is spread batch after
 * batch); a fire acquired by another node than the one that saw its misfire runs at once.
 *
 * <p>Thread-safe.
 */
public final class CatchUpSpread implements TriggerListener {
    static final String NAME = "strata-catch-up-spread";

    /** Misfires heard and not planned yet, by job; guarded by {@code this}. */
    private final Map<JobKey, Misfire> misfired = new HashMap<>();
    /** Slots planned and not yet come, by job; guarded by {@code this}. */
    private final Map<JobKey, Instant> planned = new HashMap<>();
    /** When each slot in {@link #planned} was planned; guarded by {@code this}. */
    private final Map<JobKey, Instant> plannedAt = new HashMap<>();
    /** Jobs whose slot came, until their next fire on schedule; guarded by {@code this}. */
    private final Map<JobKey, Ran> caughtUp = new HashMap<>();

    private final Duration spread;
    /** The last slot planned; null before the first catch-up. Guarded by {@code this}. */
    private Instant lastSlot;

    /** @param spread how long a catch-up is spaced over; zero holds nothing back */
    public CatchUpSpread(Duration spread) {
        if (spread.isNegative()) {
            throw new IllegalArgumentException("a catch-up spread must not be negative, got " + spread);
        }
        this.spread = spread;
    }

    /** One misfire heard: the trigger it came from and when its first missed fire was due. */
    private record Misfire(JobKey job, TriggerKey trigger, Instant due) {}

    /** A job whose fire ran in its {@code slot} of the catch-up planned at {@code plannedAt}. */
    private record Ran(Instant slot, Instant plannedAt) {}

    private static final Comparator<Misfire> PLAN_ORDER = Comparator.comparing(Misfire::due)
            .thenComparing(m -> m.job().getGroup())
            .thenComparing(m -> kindOrder(m.job()));

    @Override
    public String getName() {
        return NAME;
    }

    /**
     * Called by the job store, inside its transaction, before it applies the misfire instruction:
     * records the misfire of a trigger that will fire now because of it. A job that has a slot
     * already is not planned again: its fire runs in that slot, or at once when the slot passed
     * (a spread fire that waited for a thread past the misfire threshold must not go to the end of
     * another catch-up). Calls nothing back.
     */
    @Override
    public void triggerMisfired(Trigger trigger) {
        if (spread.isZero() || !firesNowOnMisfire(trigger) || trigger.getNextFireTime() == null) {
            return;
        }
        Misfire m = new Misfire(
                trigger.getJobKey(), trigger.getKey(), trigger.getNextFireTime().toInstant());
        synchronized (this) {
            if (!planned.containsKey(m.job())) {
                misfired.merge(m.job(), m, (a, b) -> a.due().isAfter(b.due()) ? b : a);
            }
        }
    }

    /** What a fire does about the catch-up. */
    public sealed interface Turn {
        /** Runs now: on its schedule, its slot has come, or no catch-up this listener planned. */
        record Now() implements Turn {}

        /** Waits for its slot: its job gets a one-shot trigger then. */
        record WaitUntil(Instant slot) implements Turn {}

        /**
         * Does not run: a second misfire of its job in a catch-up whose fire of that job ran already
         * in its slot {@code ranAt} (a full compaction's schedule and its deferral, both misfired).
         */
        record CaughtUp(Instant ranAt) implements Turn {}
    }

    private static final Turn NOW = new Turn.Now();

    /**
     * The turn of the fire of {@code trigger} scheduled at {@code scheduled} and fired at {@code
     * now} (both on Quartz's clock).
     */
    public synchronized Turn turn(Trigger trigger, Instant scheduled, Instant now) {
        JobKey job = trigger.getJobKey();
        if (onSchedule(trigger, scheduled)) {
            if (Schedule.isCatchUp(trigger.getKey())) {
                Instant slot = planned.remove(job);
                if (slot != null) {
                    caughtUp.put(job, new Ran(slot, plannedAt.remove(job)));
                }
            } else {
                caughtUp.remove(job);
            }
            Misfire stale = misfired.get(job);
            if (stale != null && stale.trigger().equals(trigger.getKey())) {
                // its misfire was fired elsewhere (another node of a cluster): nothing left to spread
                misfired.remove(job);
            }
            return NOW;
        }
        if (misfired.containsKey(job)) {
            plan(now);
        }
        Instant slot = planned.get(job);
        if (slot == null) {
            Ran done = caughtUp.get(job);
            // a misfire handled before its catch-up was planned belongs to it
            return done != null && !scheduled.isAfter(done.plannedAt()) ? new Turn.CaughtUp(done.slot()) : NOW;
        }
        if (!slot.isAfter(now)) {
            planned.remove(job);
            caughtUp.put(job, new Ran(slot, plannedAt.remove(job)));
            return NOW;
        }
        return new Turn.WaitUntil(slot);
    }

    /** Slots planned and not yet come, for the status and tests. */
    public synchronized Map<JobKey, Instant> planned() {
        return Map.copyOf(planned);
    }

    /** Plans every misfire heard and not planned yet as one catch-up starting at {@code now} at the earliest. */
    private void plan(Instant now) {
        List<Misfire> batch = new ArrayList<>();
        for (Misfire m : misfired.values()) {
            if (!planned.containsKey(m.job())) {
                batch.add(m);
            }
        }
        misfired.clear();
        if (batch.isEmpty()) {
            return;
        }
        batch.sort(PLAN_ORDER);
        Duration gap = spread.dividedBy(batch.size());
        Instant next = lastSlot == null || lastSlot.plus(gap).isBefore(now) ? now : lastSlot.plus(gap);
        for (Misfire m : batch) {
            planned.put(m.job(), next);
            plannedAt.put(m.job(), now);
            lastSlot = next;
            next = next.plus(gap);
        }
    }

    /**
     * Whether {@code scheduled} is a fire time of {@code trigger}'s own schedule: a cron trigger's
     * cron time, a one-shot's start. A fire Quartz made now for a misfire is not (it is at the
     * millisecond the misfire was handled).
     */
    private static boolean onSchedule(Trigger trigger, Instant scheduled) {
        if (trigger instanceof CronTrigger c) {
            Date regular = c.getFireTimeAfter(Date.from(scheduled.minusMillis(1)));
            return regular != null && regular.toInstant().equals(scheduled);
        }
        return trigger.getStartTime().toInstant().equals(scheduled);
    }

    /** Whether Quartz fires {@code trigger} at once when it misfired: the catch-ups to spread. */
    private static boolean firesNowOnMisfire(Trigger trigger) {
        if (Scheduler.DEFAULT_RECOVERY_GROUP.equals(trigger.getKey().getGroup())) {
            return false; // re-runs a dead scheduler's work, which FireRecovery orders by its lease
        }
        if (trigger instanceof CronTrigger) {
            return trigger.getMisfireInstruction() == CronTrigger.MISFIRE_INSTRUCTION_FIRE_ONCE_NOW;
        }
        return trigger instanceof SimpleTrigger s
                && s.getRepeatCount() == 0
                && trigger.getMisfireInstruction() == SimpleTrigger.MISFIRE_INSTRUCTION_FIRE_NOW;
    }

    private static int kindOrder(JobKey job) {
        try {
            return OperationKind.ofKey(job.getName()).ordinal();
        } catch (IllegalArgumentException e) {
            return OperationKind.values().length;
        }
    }

    @Override
    public void triggerFired(Trigger trigger, JobExecutionContext context) {}

    @Override
    public boolean vetoJobExecution(Trigger trigger, JobExecutionContext context) {
        return false;
    }

    @Override
    public void triggerComplete(
            Trigger trigger, JobExecutionContext context, Trigger.CompletedExecutionInstruction instruction) {}
}
