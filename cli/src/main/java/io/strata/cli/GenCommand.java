package io.strata.cli;

import io.strata.cli.workload.ExpectedTable;
import io.strata.cli.workload.StandardWorkload;
import io.strata.cli.workload.WorkloadCheck;
import io.strata.cli.workload.WorkloadIngest;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.table.FileStoreTable;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code strata gen}: writes the standard workload of shared/bench/WORKLOAD.md. */
@Command(
        name = "gen",
        mixinStandardHelpOptions = true,
        description = "Write the standard workload (creating the table with its schema if absent), one commit per "
                + "workload commit.")
final class GenCommand implements Callable<Integer> {
    @Mixin
    WarehouseOptions target;

    @Spec
    CommandSpec spec;

    @Option(names = "--commits", defaultValue = "10", description = "Commits (default ${DEFAULT-VALUE}).")
    int commits;

    @Option(
            names = "--rows-per-commit",
            defaultValue = "200000",
            description = "Rows per commit (default ${DEFAULT-VALUE}).")
    int rowsPerCommit;

    @Option(names = "--key-space", defaultValue = "1000000", description = "Key space K (default ${DEFAULT-VALUE}).")
    long keySpace;

    @Option(
            names = "--delete-fraction",
            defaultValue = "0.05",
            description = "Delete fraction f (default ${DEFAULT-VALUE}).")
    double deleteFraction;

    @Option(
            names = "--buckets",
            defaultValue = "4",
            description = "Buckets of a new table (default ${DEFAULT-VALUE}); given for an existing table, it must be "
                    + "the table's.")
    int buckets;

    @Option(names = "--seed", defaultValue = "42", description = "Generator seed (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(
            names = "--option",
            paramLabel = "KEY=VALUE",
            description = "Table option: set at creation, or applied to this run for an existing table (e.g. "
                    + "write-only=true); options that define the table (docs/OPTIONS.md) must keep its value.")
    Map<String, String> options = new LinkedHashMap<>();

    @Override
    public Integer call() {
        if (commits < 1 || rowsPerCommit < 1 || keySpace < 1 || deleteFraction < 0 || deleteFraction > 1) {
            throw new IllegalArgumentException("--commits, --rows-per-commit and --key-space must be positive and "
                    + "--delete-fraction within [0, 1]");
        }
        Map<String, String> runOptions = new LinkedHashMap<>(options);
        if (spec.commandLine().getParseResult().hasMatchedOption("--buckets")) {
            // an explicit bucket count is checked against an existing table like --option bucket=N
            runOptions.putIfAbsent("bucket", String.valueOf(buckets));
        }
        FileStoreTable table = WorkloadIngest.openOrCreate(
                target.catalog(), target.database(), target.tableName(), buckets, runOptions);
        StandardWorkload workload = new StandardWorkload(commits, rowsPerCommit, keySpace, deleteFraction, seed);
        Progress progress = new Progress(spec.commandLine().getErr(), "commit", commits);
        long start = System.nanoTime();
        ExpectedTable expected = new ExpectedTable(keySpace);
        long rows = WorkloadIngest.write(
                table, workload, expected::apply, c -> progress.update(c + 1, (long) (c + 1) * rowsPerCommit));
        progress.done();
        double seconds = (System.nanoTime() - start) / 1e9;
        PrintWriter out = spec.commandLine().getOut();
        long latest = table.snapshotManager().latest().map(Snapshot::id).orElse(0L);
        out.printf(
                "wrote %d rows in %d commits to %s in %.1f s (%.0f rows/s); latest snapshot %d%n",
                rows, commits, table.name(), seconds, rows / seconds, latest);
        WorkloadCheck check = expected.check();
        out.printf(
                "expected live_rows=%d checksum=%d (if the table was empty before)%n",
                check.liveRows(), check.checksum());
        out.flush();
        return 0;
    }
}
