package io.strata.cli;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import io.strata.storage.data.ValueJson;
import io.strata.storage.schema.DataField;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code strata insert}: rows from JSON lines, in the forms {@code scan --json} prints
 * ({@link ValueJson}), written and committed as one snapshot. Each line is one JSON object by field
 * name; a field it omits is null; an optional {@code "kind"} ({@code +I}, {@code -U}, {@code +U},
 * {@code -D}, default {@code +I}) is the row kind, unless the table has a field of that name. Nothing is committed when a line is rejected.
 */
@Command(
        name = "insert",
        mixinStandardHelpOptions = true,
        description = "Write rows from JSON lines (one object per row, the forms scan --json prints) as one commit.")
final class InsertCommand implements Callable<Integer> {
    /** Reads numbers with a fraction as decimals, so DECIMAL, FLOAT and DOUBLE get exactly the digits written. */
    private static final ObjectMapper JSON =
            new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    @Mixin
    WarehouseOptions target;

    @Spec
    CommandSpec spec;

    @Option(
            names = "--rows",
            required = true,
            paramLabel = "FILE",
            description = "JSON lines file of rows; - for standard input.")
    String rows;

    @Override
    public Integer call() throws IOException {
        FileStoreTable table = target.openTable();
        List<DataField> fields = table.schema().fields();
        String user = "strata-insert-" + UUID.randomUUID();
        long written = 0;
        try (BufferedReader in = open();
                TableWrite write = table.newWrite(user);
                TableCommit commit = table.newCommit(user)) {
            int lineNumber = 0;
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                lineNumber++;
                if (line.isBlank()) {
                    continue;
                }
                write.write(row(table, fields, line, lineNumber));
                written++;
            }
            commit.commit(1, write.prepareLastCommit());
        }
        long latest = table.snapshotManager().latest().map(s -> s.id()).orElse(0L);
        spec.commandLine()
                .getOut()
                .println("wrote " + written + " rows to " + table.name() + "; latest snapshot " + latest);
        spec.commandLine().getOut().flush();
        return 0;
    }

    private BufferedReader open() throws IOException {
        return rows.equals("-")
                ? new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
                : Files.newBufferedReader(Path.of(rows), StandardCharsets.UTF_8);
    }

    /** The row of one JSON line; an error names the table, the line and the field. */
    private static GenericRow row(FileStoreTable table, List<DataField> fields, String line, int lineNumber) {
        String where = "table " + table.name() + ": line " + lineNumber;
        JsonNode node;
        try {
            node = JSON.readTree(line);
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    where + ": not JSON: " + e.getMessage().split("\n")[0], e);
        }
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException(where + ": expects a JSON object of the row's fields");
        }
        RowKind kind = RowKind.INSERT;
        // a table's own field named kind wins: its rows are inserts
        boolean kindIsField = fields.stream().anyMatch(f -> f.name().equals("kind"));
        JsonNode k = kindIsField ? null : node.get("kind");
        if (k != null) {
            kind = kind(where, k);
        }
        Object[] values = new Object[fields.size()];
        int known = k == null ? 0 : 1;
        for (int i = 0; i < values.length; i++) {
            DataField f = fields.get(i);
            JsonNode v = node.get(f.name());
            if (v != null) {
                known++;
            }
            try {
                values[i] = ValueJson.fromJson(f.type(), v);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ": field '" + f.name() + "': " + e.getMessage(), e);
            }
        }
        if (known != node.size()) {
            List<String> unknown = new ArrayList<>();
            for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
                String name = it.next();
                if ((kindIsField || !name.equals("kind"))
                        && fields.stream().noneMatch(f -> f.name().equals(name))) {
                    unknown.add(name);
                }
            }
            throw new IllegalArgumentException(where + ": unknown fields " + unknown + " (the table has "
                    + fields.stream().map(DataField::name).toList() + ")");
        }
        return new GenericRow(kind, values);
    }

    private static RowKind kind(String where, JsonNode k) {
        if (k.isTextual()) {
            for (RowKind r : RowKind.values()) {
                if (r.shortString().equals(k.textValue())) {
                    return r;
                }
            }
        }
        throw new IllegalArgumentException(where + ": kind " + k + " is not +I, -U, +U or -D");
    }
}
