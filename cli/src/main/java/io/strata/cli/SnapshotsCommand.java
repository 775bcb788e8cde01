package io.strata.cli;

import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.table.system.SnapshotsTable;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code strata snapshots}: like Paimon's {@code $snapshots} system table. */
@Command(name = "snapshots", mixinStandardHelpOptions = true, description = "List the table's snapshots, oldest first.")
final class SnapshotsCommand implements Callable<Integer> {
    @Mixin
    WarehouseOptions target;

    @Spec
    CommandSpec spec;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Override
    public Integer call() {
        List<Snapshot> rows = SnapshotsTable.rows(target.openTable());
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Json.print(out, rows);
            return 0;
        }
        TextTable t = new TextTable(
                "id", "kind", "schema", "commit_user", "identifier", "time", "total_records", "delta_records");
        for (Snapshot s : rows) {
            t.add(
                    s.id(),
                    s.commitKind(),
                    s.schemaId(),
                    s.commitUser(),
                    s.commitIdentifier(),
                    Instant.ofEpochMilli(s.timeMillis()),
                    s.totalRecordCount(),
                    s.deltaRecordCount());
        }
        t.print(out);
        return 0;
    }
}
