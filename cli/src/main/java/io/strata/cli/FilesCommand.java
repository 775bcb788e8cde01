package io.strata.cli;

import io.strata.storage.format.DataFileMeta;
import io.strata.storage.schema.DataType;
import io.strata.storage.table.FileStoreTable;
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
    @Mixin
    WarehouseOptions target;

    @Spec
    CommandSpec spec;

    @Option(names = "--snapshot", paramLabel = "ID", description = "Snapshot to list (default: latest).")
    Long snapshot;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Override
    public Integer call() {
        FileStoreTable table = target.openTable();
        List<FilesTable.FileRow> rows = FilesTable.rows(table, snapshot);
        List<DataType> keyTypes = table.schema().typesOf(table.schema().primaryKeyIndexes());
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            List<Map<String, Object>> list = new ArrayList<>();
            for (FilesTable.FileRow r : rows) {
                DataFileMeta f = r.file;
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("partition", Values.partitionJson(r.partition));
                m.put("bucket", r.bucket);
                m.put("file", f.fileName());
                m.put("level", f.level());
                m.put("rows", f.rowCount());
                m.put("deleteRows", f.deleteRowCount());
                m.put("bytes", f.fileSize());
                m.put("minSequence", f.minSequence());
                m.put("maxSequence", f.maxSequence());
                m.put("minKey", keyJson(keyTypes, f.minKey()));
                m.put("maxKey", keyJson(keyTypes, f.maxKey()));
                m.put("schemaId", f.schemaId());
                m.put("source", f.source());
                m.put(
                        "creationTime",
                        Instant.ofEpochMilli(f.creationTimeMillis()).toString());
                list.add(m);
            }
            Json.print(out, list);
            return 0;
        }
        TextTable t = new TextTable(
                "partition",
                "bucket",
                "level",
                "file",
                "rows",
                "delete_rows",
                "bytes",
                "min_seq",
                "max_seq",
                "min_key",
                "max_key",
                "schema",
                "source");
        for (FilesTable.FileRow r : rows) {
            DataFileMeta f = r.file;
            t.add(
                    Values.partitionText(r.partition),
                    r.bucket,
                    f.level(),
                    f.fileName(),
                    f.rowCount(),
                    f.deleteRowCount(),
                    f.fileSize(),
                    f.minSequence(),
                    f.maxSequence(),
                    keyText(keyTypes, f.minKey()),
                    keyText(keyTypes, f.maxKey()),
                    f.schemaId(),
                    f.source());
        }
        t.print(out);
        return 0;
    }

    /** Key tuples are primary key values; files of tables without one carry no key (an empty tuple). */
    private static Object keyJson(List<DataType> types, Object[] key) {
        return key.length == types.size() ? Values.jsonTuple(types, key) : Arrays.asList(key);
    }

    private static String keyText(List<DataType> types, Object[] key) {
        return key.length == types.size() ? Values.textTuple(types, key) : Arrays.toString(key);
    }
}
