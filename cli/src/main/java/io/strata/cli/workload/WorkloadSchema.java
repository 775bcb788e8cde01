package io.strata.cli.workload;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The table of the standard workload: six columns keyed by {@code id}, not partitioned, with the
 * table options of WORKLOAD.md. The option keys are the same for Strata and Apache Paimon.
 */
public final class WorkloadSchema {
    /** Column positions in {@link #COLUMNS} and in every generated row. */
    public static final int ID = 0;

    public static final int NAME = 1;
    public static final int PRICE = 2;
    public static final int QTY = 3;
    public static final int TS = 4;
    public static final int PAYLOAD = 5;

    /**
     * A column: its name, its type root as Strata's {@code DataType.parse} reads it (BIGINT,
     * STRING, DOUBLE, INT) and whether it is nullable.
     */
    public record Column(String name, String type, boolean nullable) {
        /** The type with its nullability, e.g. {@code BIGINT NOT NULL}. */
        public String typeText() {
            return nullable ? type : type + " NOT NULL";
        }
    }

    public static final List<Column> COLUMNS = List.of(
            new Column("id", "BIGINT", false),
            new Column("name", "STRING", true),
            new Column("price", "DOUBLE", true),
            new Column("qty", "INT", true),
            new Column("ts", "BIGINT", true),
            new Column("payload", "STRING", true));

    public static final String PRIMARY_KEY = "id";

    /** The table options (insertion-ordered); scenario options such as write-only are not among them. */
    public static final Map<String, String> TABLE_OPTIONS = tableOptions();

    private WorkloadSchema() {}

    private static Map<String, String> tableOptions() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("bucket", "4");
        m.put("merge-engine", "deduplicate");
        m.put("file.format", "parquet");
        m.put("file.compression", "zstd");
        m.put("file.compression.zstd-level", "1");
        return Collections.unmodifiableMap(m);
    }

    /**
     * The table as a Strata schema file (the JSON shape {@code SchemaFiles} reads): fields,
     * primaryKey, partitionKeys and options. Names and values need no JSON escaping.
     */
    public static String schemaJson() {
        StringBuilder sb = new StringBuilder("{\n  \"fields\": [\n");
        for (int i = 0; i < COLUMNS.size(); i++) {
            Column c = COLUMNS.get(i);
            sb.append("    {\"name\": \"")
                    .append(c.name())
                    .append("\", \"type\": \"")
                    .append(c.type())
                    .append("\", \"nullable\": ")
                    .append(c.nullable())
                    .append('}')
                    .append(i + 1 < COLUMNS.size() ? ",\n" : "\n");
        }
        sb.append("  ],\n  \"primaryKey\": [\"")
                .append(PRIMARY_KEY)
                .append("\"],\n")
                .append("  \"partitionKeys\": [],\n  \"options\": {");
        String sep = "\n";
        for (Map.Entry<String, String> e : TABLE_OPTIONS.entrySet()) {
            sb.append(sep)
                    .append("    \"")
                    .append(e.getKey())
                    .append("\": \"")
                    .append(e.getValue())
                    .append('"');
            sep = ",\n";
        }
        return sb.append("\n  }\n}\n").toString();
    }
}
