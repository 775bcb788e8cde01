package io.strata.scheduler.support;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.quartz.JobExecutionContext;
import org.quartz.JobExecutionException;
import org.quartz.JobListener;

/**
 * A Quartz job listener that records every fire a scheduler starts: which job, the time it was
 * scheduled for, its fire instance id and whether it recovers a dead scheduler's fire. The cluster
 * tests count fires with it, in the test JVM or printed by a {@link SchedulerNodeMain}.
 */
public final class FireLog implements JobListener {
    /** One fire as a line: {@code FIRED <table> <operation> <scheduled millis> <fire id> <recovering> <at millis>}. */
    public record Fired(
            String table, String operation, long scheduledMillis, String fireId, boolean recovering, long at) {
        public static final String PREFIX = "FIRED ";

        public String line() {
            return PREFIX + table + " " + operation + " " + scheduledMillis + " " + fireId + " " + recovering + " "
                    + at;
        }

        public static Fired parse(String line) {
            String[] f = line.substring(PREFIX.length()).split(" ");
            return new Fired(f[0], f[1], Long.parseLong(f[2]), f[3], Boolean.parseBoolean(f[4]), Long.parseLong(f[5]));
        }

        public Instant atInstant() {
            return Instant.ofEpochMilli(at);
        }
    }

    private final List<Fired> fired = new CopyOnWriteArrayList<>();
    private final Consumer<Fired> sink;

    public FireLog(Consumer<Fired> sink) {
        this.sink = sink;
    }

    public List<Fired> fired() {
        return List.copyOf(fired);
    }

    @Override
    public String getName() {
        return "test-fire-log";
    }

    @Override
    public void jobToBeExecuted(JobExecutionContext c) {
        Fired f = new Fired(
                c.getJobDetail().getKey().getGroup(),
                c.getJobDetail().getKey().getName(),
                c.getScheduledFireTime().getTime(),
                c.getFireInstanceId(),
                c.isRecovering(),
                System.currentTimeMillis());
        fired.add(f);
        sink.accept(f);
    }

    @Override
    public void jobExecutionVetoed(JobExecutionContext c) {}

    @Override
    public void jobWasExecuted(JobExecutionContext c, JobExecutionException e) {}
}
