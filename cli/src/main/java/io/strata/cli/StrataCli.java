package io.strata.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code strata}: the command line of Strata. Every subcommand takes {@code --warehouse} and
 * (where it reads a table) {@code --table db.name}; on error it prints one line
 * {@code strata: error: <reason>} and exits non-zero.
 */
@Command(name = "strata", mixinStandardHelpOptions = true, version = "strata 0.1.0",
        description = "An LSM lake-table engine on Parquet and Hadoop file systems.",
        subcommands = {CreateCommand.class, GenCommand.class, ScanCommand.class, SnapshotsCommand.class,
                FilesCommand.class, BucketsCommand.class, CompactCommand.class, DemoCommand.class})
public final class StrataCli implements Runnable {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
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

    static String oneLine(Throwable ex) {
        String m = ex.getMessage();
        if (m == null || m.isBlank()) {
            m = ex.getClass().getSimpleName();
        }
        return m.replace('\n', ' ');
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
