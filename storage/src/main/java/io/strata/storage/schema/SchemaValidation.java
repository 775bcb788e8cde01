package io.strata.storage.schema;

import io.strata.storage.options.BucketOptions;
import io.strata.storage.options.MergeOptions;
import io.strata.storage.options.TableOptions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Structural checks of a new table's schema. Merge-engine specific checks (aggregate functions,
 * sequence field) live with the engines ({@code MergeEngines.validate}).
 */
public final class SchemaValidation {
    private SchemaValidation() {}

    /**
     * Builds schema 0 of {@code table}. Primary key columns become NOT NULL (a key cannot be
     * null). Every error message starts with the table name.
     */
    public static TableSchema firstSchema(String table, Schema schema, long now) {
        String owner = "table " + table;
        if (schema.columns().isEmpty()) {
            throw new IllegalArgumentException(owner + ": a schema needs at least one column");
        }
        Set<String> names = new HashSet<>();
        for (Schema.Column c : schema.columns()) {
            if (c.name() == null || c.name().isBlank()) {
                throw new IllegalArgumentException(owner + ": a column has an empty name");
            }
            if (c.name().startsWith("_")) {
                throw new IllegalArgumentException(
                        owner + ": column '" + c.name() + "': names starting with '_' are reserved for system columns");
            }
            if (!names.add(c.name())) {
                throw new IllegalArgumentException(owner + ": column '" + c.name() + "' is declared twice");
            }
        }
        requireColumns(owner, "primary key", schema.primaryKeys(), names);
        requireColumns(owner, "partition key", schema.partitionKeys(), names);
        if (!schema.primaryKeys().isEmpty() && !schema.primaryKeys().containsAll(schema.partitionKeys())) {
            throw new IllegalArgumentException(owner + ": the primary key " + schema.primaryKeys()
                    + " must contain every partition key " + schema.partitionKeys());
        }
        requireScalarKeys(owner, schema);
        TableOptions options = TableOptions.validate(owner, schema.options());
        if (schema.primaryKeys().isEmpty() && options.get(MergeOptions.SEQUENCE_FIELD) != null) {
            throw new IllegalArgumentException(owner + ": sequence.field '" + options.get(MergeOptions.SEQUENCE_FIELD)
                    + "' needs a primary key (an append table keeps every row; there are no versions to order)");
        }
        int buckets = options.get(BucketOptions.BUCKET); // at least 1: its declared range
        List<DataField> fields = new ArrayList<>();
        int id = 0;
        for (Schema.Column c : schema.columns()) {
            DataType type = schema.primaryKeys().contains(c.name()) ? c.type().copy(false) : c.type();
            fields.add(new DataField(id++, c.name(), type));
        }
        TableSchema ts =
                new TableSchema(0, fields, id - 1, schema.partitionKeys(), schema.primaryKeys(), schema.options(), now);
        List<String> bucketKeys = ts.bucketKeys();
        requireColumns(owner, "bucket key", bucketKeys, names);
        for (String k : bucketKeys) {
            DataType t = ts.fields().get(ts.fieldIndex(k)).type();
            if (t.isNested()) {
                throw new IllegalArgumentException(owner + ": bucket key field '" + k + "' is " + t.typeName()
                        + "; key fields cannot be ARRAY, MAP or ROW");
            }
        }
        if (ts.hasPrimaryKey()) {
            for (String k : bucketKeys) {
                if (!ts.primaryKeys().contains(k) || ts.partitionKeys().contains(k)) {
                    throw new IllegalArgumentException(owner + ": bucket key field '" + k
                            + "' must be a primary key field that is not a partition key");
                }
            }
        } else if (buckets > 1 && bucketKeys.isEmpty()) {
            throw new IllegalArgumentException(
                    owner + ": an append table (no primary key) with bucket > 1 needs " + "option 'bucket-key'");
        }
        return ts;
    }

    /**
     * Key and partition columns must be scalar: they are ordered, hashed into buckets and encoded
     * into manifests and partition paths, and ARRAY, MAP and ROW values have no key order Strata
     * defines (a MAP has none at all).
     */
    private static void requireScalarKeys(String owner, Schema schema) {
        for (Schema.Column c : schema.columns()) {
            String role = schema.primaryKeys().contains(c.name())
                    ? "primary key"
                    : schema.partitionKeys().contains(c.name()) ? "partition key" : null;
            if (role != null && c.type().isNested()) {
                throw new IllegalArgumentException(owner + ": " + role + " field '" + c.name() + "' is "
                        + c.type().typeName() + "; key fields cannot be ARRAY, MAP or ROW");
            }
        }
    }

    private static void requireColumns(String owner, String what, List<String> keys, Set<String> names) {
        Set<String> seen = new HashSet<>();
        for (String k : keys) {
            if (!names.contains(k)) {
                throw new IllegalArgumentException(
                        owner + ": " + what + " '" + k + "' is not a column (columns: " + names + ")");
            }
            if (!seen.add(k)) {
                throw new IllegalArgumentException(owner + ": " + what + " '" + k + "' is listed twice");
            }
        }
    }
}
