package io.strata.cli;

import io.strata.storage.maintenance.PartitionExpiration;
import io.strata.storage.options.ExpireOptions;
import io.strata.storage.table.FileStoreTable;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code strata expire-partitions}: drops whole partitions older than the table's partition.expiration-time. */
@Command(
        name = "expire-partitions",
        mixinStandardHelpOptions = true,
        description = "Drop partitions older than partition.expiration-time in one snapshot (earlier snapshots "
                + "still read them until they expire).")
final class ExpirePartitionsCommand implements Callable<Integer> {
    @Mixin
    WarehouseOptions target;

    @Spec
    CommandSpec spec;

    @Option(
            names = "--older-than",
            paramLabel = "DURATION",
            description = "Drop partitions older than this, e.g. 30d (partition.expiration-time).")
    String olderThan;

    @Option(
            names = "--timestamp-pattern",
            paramLabel = "PATTERN",
            description = "How a partition's time is written, e.g. '$dt' (partition.timestamp-pattern).")
    String pattern;

    @Option(
            names = "--timestamp-formatter",
            paramLabel = "FORMAT",
            description = "java.time pattern of that text, e.g. yyyyMMdd (partition.timestamp-formatter).")
    String formatter;

    @Option(names = "--dry-run", description = "List the partitions that would be dropped; change nothing.")
    boolean dryRun;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Override
    public Integer call() {
        FileStoreTable table = new RunFlags()
                .put("--older-than", ExpireOptions.PARTITION_EXPIRATION_TIME, olderThan)
                .put("--timestamp-pattern", ExpireOptions.PARTITION_TIMESTAMP_PATTERN, pattern)
                .put("--timestamp-formatter", ExpireOptions.PARTITION_TIMESTAMP_FORMATTER, formatter)
                .open(target.openTable());
        PartitionExpiration.Result r = dryRun
                ? table.newPartitionExpiration().dryRun()
                : table.newPartitionExpiration().expire();
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Json.print(
                    out,
                    Json.object(
                            "dryRun", r.dryRun(),
                            "partitions", r.expired(),
                            "unparsed", r.unparsed(),
                            "snapshot", r.snapshot().orElse(null)));
            return 0;
        }
        out.println((dryRun ? "would drop " : "dropped ") + r.expired().size() + " partitions"
                + r.snapshot().map(s -> " in snapshot " + s).orElse("")
                + (r.expired().isEmpty() ? "" : ": " + String.join(", ", r.expired())));
        for (String u : r.unparsed()) {
            out.println("kept, time not readable: " + u);
        }
        return 0;
    }
}
