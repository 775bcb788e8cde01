package io.strata.scheduler.quartz;

import io.strata.scheduler.config.TableSettings;
import io.strata.scheduler.ops.OperationKind;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.TimeZone;
import org.quartz.CronScheduleBuilder;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.ScheduleBuilder;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.TriggerKey;

/**
 * One operation of one table as Quartz holds it: the job {@code (operation, table)} and its trigger,
 * each with an explicit misfire instruction (what happens to fires missed while the scheduler was
 * down):
 *
 * <ul>
 *   <li>expiration, changelog expiration and partition expiration: fire once now, then on schedule
 *       (one catch-up run, not one per missed fire);
 *   <li>automatic tags: fire once now: the engine tags only the last complete period, so a run that
 *       waited for its next fire would leave the period that ended meanwhile without a tag (periods
 *       wholly inside a longer downtime get none either way);
 *   <li>orphan cleanup: do nothing, wait for the next fire (a full listing is not worth catching up);
 *   <li>full compaction: fire once now; the run then starts only if its window is still open, and
 *       otherwise is deferred to the next opening ({@link #deferred});
 *   <li>backlog polling: skip the missed polls, go on at the interval.
 * </ul>
 *
 * <p>The fires at once after a downtime are spaced over {@code catch-up-spread} by {@link
 * CatchUpSpread}, each in its turn under a one-shot trigger ({@link #catchUp}).
 *
 * <p>The trigger's description is the schedule's definition, so a restart keeps a stored trigger
 * (and its next fire time) whose definition is unchanged and replaces one whose config changed.
 *
 * @param definition the schedule in words, e.g. {@code cron 0 0 2 * * ? Europe/Berlin}
 */
public record Schedule(String table, OperationKind kind, String definition, ScheduleBuilder<?> builder) {
    static final String TABLE = "table";
    static final String OPERATION = "operation";
    static final String DEFERRED_SUFFIX = "-deferred";
    static final String CATCH_UP_SUFFIX = "-catch-up";

    /** The schedules of {@code table} by its settings. */
    public static List<Schedule> of(String table, TableSettings s) {
        List<Schedule> out = new ArrayList<>();
        s.expiration()
                .ifPresent(e -> out.add(cron(
                        table,
                        OperationKind.EXPIRATION,
                        e.cron(),
                        e.zone(),
                        b -> b.withMisfireHandlingInstructionFireAndProceed())));
        s.changelogExpiration()
                .ifPresent(c -> out.add(cron(
                        table,
                        OperationKind.CHANGELOG_EXPIRATION,
                        c.cron(),
                        c.zone(),
                        b -> b.withMisfireHandlingInstructionFireAndProceed())));
        s.partitionExpiration()
                .ifPresent(p -> out.add(cron(
                        table,
                        OperationKind.PARTITION_EXPIRATION,
                        p.cron(),
                        p.zone(),
                        b -> b.withMisfireHandlingInstructionFireAndProceed())));
        s.autoTag()
                .ifPresent(a -> out.add(cron(
                        table,
                        OperationKind.AUTO_TAG,
                        a.cron(),
                        a.zone(),
                        b -> b.withMisfireHandlingInstructionFireAndProceed())));
        s.orphanCleanup()
                .ifPresent(o -> out.add(cron(
                        table,
                        OperationKind.ORPHAN_CLEANUP,
                        o.cron(),
                        o.zone(),
                        b -> b.withMisfireHandlingInstructionDoNothing())));
        s.fullCompaction()
                .ifPresent(f -> out.add(cron(
                        table,
                        OperationKind.FULL_COMPACTION,
                        f.cron(),
                        f.window().zone(),
                        b -> b.withMisfireHandlingInstructionFireAndProceed())));
        s.backlogCompaction().ifPresent(b -> {
            Duration every = b.pollInterval();
            out.add(new Schedule(
                    table,
                    OperationKind.BACKLOG_COMPACTION,
                    "every " + every,
                    SimpleScheduleBuilder.simpleSchedule()
                            .withIntervalInMilliseconds(every.toMillis())
                            .repeatForever()
                            .withMisfireHandlingInstructionNextWithRemainingCount()));
        });
        return out;
    }

    private static Schedule cron(
            String table,
            OperationKind kind,
            String cron,
            ZoneId zone,
            java.util.function.UnaryOperator<CronScheduleBuilder> misfire) {
        CronScheduleBuilder b = CronScheduleBuilder.cronSchedule(cron).inTimeZone(TimeZone.getTimeZone(zone));
        return new Schedule(table, kind, "cron " + cron + " " + zone.getId(), misfire.apply(b));
    }

    public JobKey jobKey() {
        return new JobKey(kind.key(), table);
    }

    public TriggerKey triggerKey() {
        return new TriggerKey(kind.key(), table);
    }

    JobDetail job() {
        return JobBuilder.newJob(OperationJob.class)
                .withIdentity(jobKey())
                .usingJobData(TABLE, table)
                .usingJobData(OPERATION, kind.key())
                .storeDurably()
                // re-fired when its scheduler dies mid-run: on another node, or at the restart
                .requestRecovery(true)
                .build();
    }

    Trigger trigger() {
        return TriggerBuilder.newTrigger()
                .withIdentity(triggerKey())
                .forJob(jobKey())
                .withDescription(definition)
                .withSchedule(builder)
                .build();
    }

    /** A one-shot trigger of {@code job} at {@code at}, fired as soon as possible if missed. */
    static Trigger deferred(JobKey job, Instant at) {
        return TriggerBuilder.newTrigger()
                .withIdentity(new TriggerKey(job.getName() + DEFERRED_SUFFIX, job.getGroup()))
                .forJob(job)
                .withDescription("deferred to " + at)
                .startAt(Date.from(at))
                .withSchedule(SimpleScheduleBuilder.simpleSchedule().withMisfireHandlingInstructionFireNow())
                .build();
    }

    /**
     * The one-shot trigger of {@code job} at {@code at}, its turn in a catch-up after a downtime
     * ({@link CatchUpSpread}); fired as soon as possible if missed.
     */
    static Trigger catchUp(JobKey job, Instant at) {
        return TriggerBuilder.newTrigger()
                .withIdentity(new TriggerKey(job.getName() + CATCH_UP_SUFFIX, job.getGroup()))
                .forJob(job)
                .withDescription("catch-up spread to " + at)
                .startAt(Date.from(at))
                .withSchedule(SimpleScheduleBuilder.simpleSchedule().withMisfireHandlingInstructionFireNow())
                .build();
    }

    /** Whether {@code key} is a {@link #catchUp} trigger. */
    static boolean isCatchUp(TriggerKey key) {
        return key.getName().endsWith(CATCH_UP_SUFFIX);
    }

    /** The next fire time after {@code now}, computed without a scheduler (for {@code validate}). */
    public Optional<Instant> nextFireAfter(Instant now) {
        Trigger t = TriggerBuilder.newTrigger()
                .withIdentity(triggerKey())
                .startAt(Date.from(now))
                .withSchedule(builder)
                .build();
        return Optional.ofNullable(t.getFireTimeAfter(Date.from(now.minusMillis(1))))
                .map(Date::toInstant);
    }
}
