package io.strata.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.List;

/** Runs {@code strata} in-process as {@code bin/strata} does, capturing stdout, stderr and the exit code. */
final class CliRunner {
    private CliRunner() {}

    record Result(int exit, String out, String err) {
        List<String> lines() {
            return Arrays.asList(out.strip().split("\n"));
        }
    }

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = StrataCli.commandLine(new PrintWriter(out), new PrintWriter(err))
                .execute(args);
        return new Result(exit, out.toString(), err.toString());
    }

    /** {@code strata gen} of a write-only workload table; fails the test if it does not exit 0. */
    static void gen(String warehouse, String table, int commits, int rowsPerCommit, int keySpace) {
        Result gen = run(
                "gen",
                "--warehouse",
                warehouse,
                "--table",
                table,
                "--commits",
                String.valueOf(commits),
                "--rows-per-commit",
                String.valueOf(rowsPerCommit),
                "--key-space",
                String.valueOf(keySpace),
                "--option",
                "write-only=true");
        if (gen.exit() != 0) {
            throw new AssertionError("strata gen exited " + gen.exit() + ": " + gen.err());
        }
    }
}
