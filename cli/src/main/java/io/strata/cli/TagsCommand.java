package io.strata.cli;

import io.strata.storage.options.DurationParser;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.system.TagsTable;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code strata tags}: like Paimon's {@code $tags} system table; {@code strata tag list} prints the same. */
@Command(
        name = "tags",
        mixinStandardHelpOptions = true,
        description = "List the table's tags with the snapshot each pins and when its retention ends.")
final class TagsCommand implements Callable<Integer> {
    @Mixin
    WarehouseOptions target;

    @Spec
    CommandSpec spec;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Override
    public Integer call() {
        print(target.openTable(), spec.commandLine().getOut(), json);
        return 0;
    }

    static void print(FileStoreTable table, PrintWriter out, boolean json) {
        List<TagsTable.Row> rows = TagsTable.rows(table);
        if (json) {
            List<Map<String, Object>> objects = new ArrayList<>();
            for (TagsTable.Row r : rows) {
                objects.add(Json.object(
                        "name", r.tagName(),
                        "snapshot", r.snapshotId(),
                        "schema", r.schemaId(),
                        "snapshotTime",
                                Instant.ofEpochMilli(r.commitTimeMillis()).toString(),
                        "records", r.recordCount(),
                        "created", Instant.ofEpochMilli(r.createTimeMillis()).toString(),
                        "retain", r.timeRetained().map(DurationParser::format).orElse(null),
                        "expires",
                                r.expiresAtMillis()
                                        .map(m -> Instant.ofEpochMilli(m).toString())
                                        .orElse(null),
                        "expired", r.expired()));
            }
            Json.print(out, objects);
            return;
        }
        TextTable t =
                new TextTable("name", "snapshot", "schema", "snapshot_time", "records", "created", "retain", "expires");
        for (TagsTable.Row r : rows) {
            t.add(
                    r.tagName(),
                    r.snapshotId(),
                    r.schemaId(),
                    Instant.ofEpochMilli(r.commitTimeMillis()),
                    r.recordCount(),
                    Instant.ofEpochMilli(r.createTimeMillis()),
                    r.timeRetained().map(DurationParser::format).orElse("-"),
                    r.expiresAtMillis()
                            .map(m -> Instant.ofEpochMilli(m) + (r.expired() ? " (passed)" : ""))
                            .orElse("never"));
        }
        t.print(out);
    }
}
