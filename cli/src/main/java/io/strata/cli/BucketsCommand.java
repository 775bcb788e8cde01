package io.strata.cli;

import io.strata.storage.table.system.BucketsTable;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code strata buckets}: the LSM shape of every bucket, like Paimon's {@code $buckets}. */
@Command(
        name = "buckets",
        mixinStandardHelpOptions = true,
        description =
                "Per partition and bucket: sorted runs, files per level, level-0 files, rows, bytes, sequence range.")
final class BucketsCommand implements Callable<Integer> {
    @Mixin
    WarehouseOptions target;

    @Spec
    CommandSpec spec;

    @Option(names = "--snapshot", paramLabel = "ID", description = "Snapshot to inspect (default: latest).")
    Long snapshot;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Override
    public Integer call() {
        List<BucketsTable.BucketRow> rows = BucketsTable.rows(target.openTable(), snapshot);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            printJson(out, rows);
        } else {
            printTable(out, rows);
        }
        return 0;
    }

    /** The rows as one JSON array, an object per bucket. */
    static void printJson(PrintWriter out, List<BucketsTable.BucketRow> rows) {
        List<Map<String, Object>> list = new ArrayList<>();
        for (BucketsTable.BucketRow r : rows) {
            list.add(Json.object(
                    "partition",
                    Values.partitionJson(r.partition),
                    "bucket",
                    r.bucket,
                    "sortedRuns",
                    r.sortedRuns,
                    "filesPerLevel",
                    r.filesPerLevel,
                    "level0Files",
                    r.level0Files,
                    "rows",
                    r.rows,
                    "bytes",
                    r.bytes,
                    "minSequence",
                    r.minSequence,
                    "maxSequence",
                    r.maxSequence));
        }
        Json.print(out, list);
    }

    /** The rows as a text table, a line per bucket. */
    static void printTable(PrintWriter out, List<BucketsTable.BucketRow> rows) {
        TextTable t = new TextTable(
                "partition",
                "bucket",
                "sorted_runs",
                "files_per_level",
                "level0_files",
                "rows",
                "bytes",
                "min_seq",
                "max_seq");
        for (BucketsTable.BucketRow r : rows) {
            StringBuilder levels = new StringBuilder();
            for (Map.Entry<Integer, Integer> e : r.filesPerLevel.entrySet()) {
                levels.append(levels.length() == 0 ? "" : " ")
                        .append('L')
                        .append(e.getKey())
                        .append(':')
                        .append(e.getValue());
            }
            t.add(
                    Values.partitionText(r.partition),
                    r.bucket,
                    r.sortedRuns,
                    levels,
                    r.level0Files,
                    r.rows,
                    r.bytes,
                    r.minSequence,
                    r.maxSequence);
        }
        t.print(out);
    }
}
