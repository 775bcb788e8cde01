package io.strata.cli;

import io.strata.compaction.CompactionJob;
import io.strata.compaction.job.JobSpec;
import io.strata.compaction.job.JobTables;
import io.strata.storage.compact.CompactPlan;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.compact.TableCompactor;
import io.strata.storage.data.PartitionPath;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.mergetree.LevelSortedRun;
import io.strata.storage.table.FileStoreTable;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code strata compact}: prints the plan per bucket, then (unless {@code --dry-run}) runs the
 * dedicated compaction job on an embedded Flink (a local MiniCluster): batch by default, or
 * {@code --mode streaming} until Ctrl-C.
 */
@Command(
        name = "compact",
        mixinStandardHelpOptions = true,
        description = "Compact a table with the dedicated Flink compaction job on an embedded Flink (full: everything "
                + "to the top level, batch only; minor: what the triggers ask for). --dry-run prints the plan per "
                + "bucket and changes nothing; --mode streaming runs until Ctrl-C.")
final class CompactCommand implements Callable<Integer> {
    @Mixin
    WarehouseOptions target;

    @Spec
    CommandSpec spec;

    @Option(
            names = "--strategy",
            defaultValue = "minor",
            paramLabel = "full|minor",
            description = "full or minor (default ${DEFAULT-VALUE}).")
    String strategy;

    @Option(names = "--dry-run", description = "Print the plan and exit (default: run the job).")
    boolean dryRun;

    @Option(
            names = "--mode",
            defaultValue = "batch",
            paramLabel = "batch|streaming",
            description = "batch or streaming (default ${DEFAULT-VALUE}).")
    String mode;

    @Option(
            names = "--parallelism",
            defaultValue = "2",
            paramLabel = "N",
            description = "Rewrite subtasks (default ${DEFAULT-VALUE}).")
    int parallelism;

    @Option(
            names = "--where",
            paramLabel = "EXPR",
            description = "Only partitions matching, e.g. \"dt >= '2026-11-01'\" (default: all).")
    String where;

    @Option(
            names = "--table-option",
            paramLabel = "k=v",
            description = "Table option for this job (repeatable); "
                    + "options that define the table (docs/OPTIONS.md) must keep its value.")
    List<String> tableOptions = new ArrayList<>();

    @Option(
            names = "--discovery-interval",
            defaultValue = "5 s",
            paramLabel = "DURATION",
            description = "Streaming: how often new snapshots are planned (default ${DEFAULT-VALUE}).")
    String discoveryInterval;

    @Option(
            names = "--checkpoint-interval",
            defaultValue = "5 s",
            paramLabel = "DURATION",
            description = "Streaming: checkpoint (and so commit) interval (default ${DEFAULT-VALUE}).")
    String checkpointInterval;

    @Override
    public Integer call() throws Exception {
        CompactStrategy s = CompactStrategy.parse(strategy);
        if (s == CompactStrategy.LOOKUP) {
            throw new IllegalArgumentException("--strategy must be full or minor");
        }
        JobSpec job = jobSpec();
        // the job's own handle: the plan follows the job's --table-option, and a refused one fails here
        JobTables tables = new JobTables(job, 0);
        FileStoreTable table = tables.table(target.tableName());
        TableCompactor compactor = table.newCompactor();
        PrintWriter out = spec.commandLine().getOut();
        List<CompactPlan> plans =
                compactor.plan(tables.strategyFor(table), job.partitions().toEntryFilter(table.name(), table.schema()));
        if (plans.isEmpty() && job.mode() == JobSpec.Mode.BATCH) {
            out.println("nothing to compact in " + table.name() + " (strategy " + strategy + ")");
            return 0;
        }
        for (CompactPlan p : plans) {
            printPlan(out, table, p);
        }
        if (dryRun) {
            out.println("dry run: nothing was written");
            out.flush();
            return 0;
        }
        EmbeddedCompaction.run(job, plans.size(), out, spec.commandLine().getErr());
        return 0;
    }

    private JobSpec jobSpec() {
        CompactionJob.Args a = new CompactionJob.Args();
        a.warehouse = target.warehouse;
        a.tables = List.of(target.table);
        a.strategy = strategy;
        a.mode = mode;
        a.parallelism = parallelism;
        a.where = where;
        a.tableOptions = tableOptions;
        a.discoveryInterval = discoveryInterval;
        a.checkpointInterval = checkpointInterval;
        a.partialCommitEvery = 0;
        return a.toSpec();
    }

    private static void printPlan(PrintWriter out, FileStoreTable table, CompactPlan p) {
        String part = PartitionPath.display(
                table.schema().partitionKeys(),
                table.schema().typesOf(table.schema().partitionIndexes()),
                p.partition());
        out.printf(
                "partition %s bucket %d: %s, %d runs picked -> level %d%s%n",
                Values.partitionText(part),
                p.bucket(),
                p.reason(),
                p.unit().runs().size(),
                p.outputLevel(),
                p.dropDelete() ? " (drops deletes)" : "");
        StringBuilder runs = new StringBuilder();
        for (LevelSortedRun r : p.unit().runs()) {
            runs.append(runs.length() == 0 ? "" : ", ")
                    .append('L')
                    .append(r.level())
                    .append('(')
                    .append(r.run().files().size())
                    .append(" files, ")
                    .append(r.run().totalSize())
                    .append(" B)");
        }
        out.println("  runs: " + runs);
        int i = 0;
        for (CompactPlan.Section sec : p.sections()) {
            long rows = sec.files().stream().mapToLong(DataFileMeta::rowCount).sum();
            out.printf(
                    "  section %d: %s %d files in %d runs, %d rows, %d B%n",
                    i++,
                    sec.rewrite() ? "rewrite" : "upgrade",
                    sec.files().size(),
                    sec.runs().size(),
                    rows,
                    sec.bytes());
        }
        out.printf(
                "  files upgraded: %d, rewritten: %d; bytes to read: %d, to write: at most %d%n",
                p.upgradedFiles().size(),
                p.inputFiles().size() - p.upgradedFiles().size(),
                p.bytesToRead(),
                p.bytesToRead());
    }
}
