package io.strata.cli;

import io.strata.compaction.JobFailures;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code strata}: the command line of Strata. Every subcommand takes {@code --warehouse} and
 * (where it reads a table) {@code --table db.name}; on error it prints one line
 * {@code strata: error: <reason>} and exits 1; a command line that does not parse (or none)
 * prints the usage to stderr and exits 2.
 */
@Command(
        name = "strata",
        mixinStandardHelpOptions = true,
        version = "strata 0.1.0",
        description = "An LSM lake-table engine on Parquet and Hadoop file systems.",
        subcommands = {
            CreateCommand.class,
            GenCommand.class,
            InsertCommand.class,
            ScanCommand.class,
            SnapshotsCommand.class,
            FilesCommand.class,
            BucketsCommand.class,
            CompactCommand.class,
            ExpireCommand.class,
            ExpirePartitionsCommand.class,
            OrphanCleanCommand.class,
            TagCommand.class,
            TagsCommand.class,
            RollbackCommand.class,
            ConsumerCommand.class,
            DemoCommand.class,
            SchedulerCommand.class,
            CommandLine.HelpCommand.class
        })
public final class StrataCli implements Callable<Integer> {
    /** The exit code of a usage error, as picocli gives for a command line that does not parse. */
    static final int USAGE_ERROR = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** {@code strata} without a command: the usage, as an error. */
    @Override
    public Integer call() {
        spec.commandLine().getErr().println("strata: error: no command given");
        spec.commandLine().usage(spec.commandLine().getErr());
        spec.commandLine().getErr().flush();
        return USAGE_ERROR;
    }

    /** A command line wired with Strata's error handling, writing to the given streams. */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new StrataCli());
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            commandLine.getErr().println("strata: error: " + oneLine(ex));
            if (Boolean.getBoolean("strata.debug")) {
                ex.printStackTrace(commandLine.getErr());
            }
            commandLine.getErr().flush();
            return 1;
        });
        return cl;
    }

    /** The failure's message on one line; a failed Flink job's is the failure under Flink's wrappers. */
    static String oneLine(Throwable ex) {
        return JobFailures.describe(ex).replace('\n', ' ');
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        int code = commandLine(out, err).execute(args);
        out.flush();
        err.flush();
        System.exit(code);
    }
}
