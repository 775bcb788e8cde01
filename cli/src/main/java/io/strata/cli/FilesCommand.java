package io.strata.cli;

import io.strata.storage.format.DataFileMeta;
import io.strata.storage.table.system.FilesTable;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code strata files}: like Paimon's {@code $files} system table. */
@Command(name = "files", mixinStandardHelpOptions = true, description = "List the live data files of a snapshot.")
final class FilesCommand implements Callable<Integer> {
    @Mixin WarehouseOptions target;
    @Spec CommandSpec spec;

    @Option(names = "--snapshot", paramLabel = "ID", description = "Snapshot to list (default: latest).")
    Long snapshot;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Override
    public Integer call() {
        List<FilesTable.FileRow> rows = FilesTable.rows(target.openTable(), snapshot);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            List<Map<String, Object>> list = new ArrayList<>();
            for (FilesTable.FileRow r : rows) {
                DataFileMeta f = r.file;
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("partition", r.partition);
                m.put("bucket", r.bucket);
                m.put("file", f.fileName());
                m.put("level", f.level());
                m.put("rows", f.rowCount());
                m.put("deleteRows", f.deleteRowCount());
                m.put("bytes", f.fileSize());
                m.put("minSequence", f.minSequence());
                m.put("maxSequence", f.maxSequence());
                m.put("minKey", Arrays.asList(f.minKey()));
                m.put("maxKey", Arrays.asList(f.maxKey()));
                m.put("schemaId", f.schemaId());
                m.put("source", f.source());
                m.put("creationTime", Instant.ofEpochMilli(f.creationTimeMillis()).toString());
                list.add(m);
            }
            Json.print(out, list);
            return 0;
        }
        TextTable t = new TextTable("partition", "bucket", "level", "file", "rows", "delete_rows", "bytes", "min_seq",
                "max_seq", "min_key", "max_key", "schema", "source");
        for (FilesTable.FileRow r : rows) {
            DataFileMeta f = r.file;
            t.add(r.partition.isEmpty() ? "-" : r.partition, r.bucket, f.level(), f.fileName(), f.rowCount(),
                    f.deleteRowCount(), f.fileSize(), f.minSequence(), f.maxSequence(), Arrays.toString(f.minKey()),
                    Arrays.toString(f.maxKey()), f.schemaId(), f.source());
        }
        t.print(out);
        return 0;
    }
}
