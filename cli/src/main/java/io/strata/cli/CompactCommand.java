package io.strata.cli;

import io.strata.storage.compact.CompactPlan;
import io.strata.storage.compact.CompactResult;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.compact.TableCompactor;
import io.strata.storage.data.PartitionPath;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.mergetree.LevelSortedRun;
import io.strata.storage.table.FileStoreTable;
import java.io.PrintWriter;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code strata compact}: plans (with {@code --dry-run}) or runs a compaction of every bucket
 * with the compaction engine in this process, committed as one COMPACT snapshot.
 */
@Command(name = "compact", mixinStandardHelpOptions = true,
        description = "Compact every bucket of a table (full: everything to the top level; minor: what the triggers "
                + "ask for). --dry-run prints the plan per bucket and changes nothing.")
final class CompactCommand implements Callable<Integer> {
    @Mixin WarehouseOptions target;
    @Spec CommandSpec spec;

    @Option(names = "--strategy", defaultValue = "minor", description = "full or minor (default ${DEFAULT-VALUE}).")
    String strategy;

    @Option(names = "--dry-run", description = "Print the plan and exit.")
    boolean dryRun;

    @Override
    public Integer call() {
        CompactStrategy s = CompactStrategy.parse(strategy);
        if (s == CompactStrategy.LOOKUP) {
            throw new IllegalArgumentException("--strategy must be full or minor");
        }
        FileStoreTable table = target.openTable();
        TableCompactor compactor = new TableCompactor(table);
        PrintWriter out = spec.commandLine().getOut();
        List<CompactPlan> plans = compactor.plan(s, EntryFilter.ALL, false);
        if (plans.isEmpty()) {
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
        long start = System.nanoTime();
        List<CompactResult> results = compactor.compact(s, "strata-compact-" + UUID.randomUUID(), 1);
        double seconds = (System.nanoTime() - start) / 1e9;
        long rows = results.stream().mapToLong(CompactResult::rowsRead).sum();
        out.printf("compacted %d buckets: %d input rows in %.1f s; snapshot %d%n", results.size(), rows, seconds,
                table.snapshotManager().latestId().getAsLong());
        out.flush();
        return 0;
    }

    private static void printPlan(PrintWriter out, FileStoreTable table, CompactPlan p) {
        String part = PartitionPath.display(table.schema().partitionKeys(), p.partition());
        out.printf("bucket %s%d: %s, %d runs picked -> level %d%s%n", part.isEmpty() ? "" : part + " ", p.bucket(),
                p.reason(), p.unit().runs().size(), p.outputLevel(), p.dropDelete() ? " (drops deletes)" : "");
        StringBuilder runs = new StringBuilder();
        for (LevelSortedRun r : p.unit().runs()) {
            runs.append(runs.length() == 0 ? "" : ", ").append('L').append(r.level()).append('(')
                    .append(r.run().files().size()).append(" files, ").append(r.run().totalSize()).append(" B)");
        }
        out.println("  runs: " + runs);
        int i = 0;
        for (CompactPlan.Section sec : p.sections()) {
            long rows = sec.files().stream().mapToLong(DataFileMeta::rowCount).sum();
            out.printf("  section %d: %s %d files in %d runs, %d rows, %d B%n", i++, sec.rewrite() ? "rewrite" : "upgrade",
                    sec.files().size(), sec.runs().size(), rows, sec.bytes());
        }
        out.printf("  files upgraded: %d, rewritten: %d; bytes to read: %d, to write: at most %d%n",
                p.upgradedFiles().size(), p.inputFiles().size() - p.upgradedFiles().size(), p.bytesToRead(),
                p.bytesToRead());
    }
}
