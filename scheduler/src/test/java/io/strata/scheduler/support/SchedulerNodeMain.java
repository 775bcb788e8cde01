package io.strata.scheduler.support;

import io.strata.scheduler.SchedulerService;
import io.strata.scheduler.config.ConfigLoader;
import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.ops.CompactionRunner;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import org.quartz.JobKey;

/**
 * One scheduler process for the cluster tests: starts a {@link SchedulerService} from a config
 * file, prints every fire ({@link FireLog.Fired#line()}), {@code STARTED <scheduler-id>} once
 * running, and stops gracefully when its standard input ends (the test closes it), printing
 * {@code STOPPED}; or the test kills it.
 *
 * <p>Arguments: the config file; {@code blocking} (a compaction prints {@code COMPACTING <table>}
 * and then blocks until interrupted) or {@code none} (no compaction may start); optionally
 * {@code trigger:<operation>:<table>}, a job it triggers once started.
 */
public final class SchedulerNodeMain {
    private SchedulerNodeMain() {}

    public static void main(String[] args) throws Exception {
        SchedulerConfig config = ConfigLoader.load(Path.of(args[0]));
        CompactionRunner runner = args[1].equals("blocking")
                ? (table, strategy, placement) -> {
                    say("COMPACTING " + table);
                    Thread.sleep(Long.MAX_VALUE);
                    throw new AssertionError("not interrupted");
                }
                : SchedulerTests.noCompactions();
        SchedulerService s = SchedulerService.start(config, runner, Clock.systemUTC(), o -> {});
        s.quartz().getListenerManager().addJobListener(new FireLog(f -> say(f.line())));
        say("STARTED " + config.schedulerId());
        if (args.length > 2) {
            String[] t = args[2].split(":");
            s.quartz().triggerJob(new JobKey(t[1], t[2]));
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        while (in.readLine() != null) {
            // the test closes standard input to stop this process
        }
        s.close();
        say("STOPPED");
        // a test's child JVM, never run by Flink: a blocking compaction the service abandoned at its
        // shutdown timeout still holds a thread, which must not keep this process alive
        System.exit(0);
    }

    private static synchronized void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
