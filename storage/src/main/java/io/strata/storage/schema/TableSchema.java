package io.strata.storage.schema;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.strata.storage.options.BucketOptions;
import io.strata.storage.options.TableOptions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One version of a table's schema, persisted as {@code schema/schema-<id>} (JSON). Immutable:
 * evolution writes schema id+1. Field ids are never reused; primary and partition keys never
 * change.
 */
public final class TableSchema {
    /**
     * Highest version of the persisted JSON this build reads and writes; readers reject newer ones.
     * Version 2 added the types of {@link DataType.Root} whose {@code sinceSchemaVersion} is 2 (the
     * layout is the same); a schema is written with the lowest version that holds its types, so a
     * table that uses none of them stays readable by builds that know only version 1.
     */
    public static final int FORMAT_VERSION = 2;

    /** The lowest version read. */
    public static final int OLDEST_FORMAT_VERSION = 1;

    private final long id;
    private final List<DataField> fields;
    private final int highestFieldId;
    private final List<String> partitionKeys;
    private final List<String> primaryKeys;
    private final Map<String, String> options;
    private final long timeMillis;

    @JsonIgnore
    private final TableOptions tableOptions;

    @JsonIgnore
    private final Map<String, Integer> indexByName = new HashMap<>();

    @JsonCreator
    public TableSchema(
            @JsonProperty("id") long id,
            @JsonProperty("fields") List<DataField> fields,
            @JsonProperty("highestFieldId") int highestFieldId,
            @JsonProperty("partitionKeys") List<String> partitionKeys,
            @JsonProperty("primaryKeys") List<String> primaryKeys,
            @JsonProperty("options") Map<String, String> options,
            @JsonProperty("timeMillis") long timeMillis) {
        this.id = id;
        this.fields = List.copyOf(fields);
        this.highestFieldId = highestFieldId;
        this.partitionKeys = partitionKeys == null ? List.of() : List.copyOf(partitionKeys);
        this.primaryKeys = primaryKeys == null ? List.of() : List.copyOf(primaryKeys);
        this.options = options == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(options));
        this.timeMillis = timeMillis;
        for (int i = 0; i < this.fields.size(); i++) {
            indexByName.put(this.fields.get(i).name(), i);
        }
        this.tableOptions = TableOptions.validate("schema " + id, this.options);
    }

    @JsonProperty("version")
    public int version() {
        int v = OLDEST_FORMAT_VERSION;
        for (DataField f : fields) {
            v = Math.max(v, f.type().schemaVersionNeeded());
        }
        return v;
    }

    @JsonProperty("id")
    public long id() {
        return id;
    }

    @JsonProperty("fields")
    public List<DataField> fields() {
        return fields;
    }

    @JsonProperty("highestFieldId")
    public int highestFieldId() {
        return highestFieldId;
    }

    @JsonProperty("partitionKeys")
    public List<String> partitionKeys() {
        return partitionKeys;
    }

    @JsonProperty("primaryKeys")
    public List<String> primaryKeys() {
        return primaryKeys;
    }

    @JsonProperty("options")
    public Map<String, String> options() {
        return options;
    }

    @JsonProperty("timeMillis")
    public long timeMillis() {
        return timeMillis;
    }

    @JsonIgnore
    public TableOptions tableOptions() {
        return tableOptions;
    }

    @JsonIgnore
    public boolean hasPrimaryKey() {
        return !primaryKeys.isEmpty();
    }

    @JsonIgnore
    public int numBuckets() {
        return tableOptions.get(BucketOptions.BUCKET);
    }

    public int fieldIndex(String name) {
        Integer i = indexByName.get(name);
        return i == null ? -1 : i;
    }

    public DataField field(String name) {
        int i = fieldIndex(name);
        return i < 0 ? null : fields.get(i);
    }

    public int[] indexesOf(List<String> names) {
        int[] out = new int[names.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = fieldIndex(names.get(i));
        }
        return out;
    }

    @JsonIgnore
    public int[] primaryKeyIndexes() {
        return indexesOf(primaryKeys);
    }

    @JsonIgnore
    public int[] partitionIndexes() {
        return indexesOf(partitionKeys);
    }

    /** Bucket key: {@code bucket-key} if set, else primary key minus partition keys. */
    @JsonIgnore
    public List<String> bucketKeys() {
        String bk = tableOptions.get(BucketOptions.BUCKET_KEY);
        if (bk != null) {
            List<String> out = new ArrayList<>();
            for (String s : bk.split(",")) {
                out.add(s.trim());
            }
            return out;
        }
        List<String> out = new ArrayList<>(primaryKeys);
        out.removeAll(partitionKeys);
        return out;
    }

    @JsonIgnore
    public List<DataType> types() {
        List<DataType> out = new ArrayList<>();
        for (DataField f : fields) {
            out.add(f.type());
        }
        return out;
    }

    public List<DataType> typesOf(int[] indexes) {
        List<DataType> out = new ArrayList<>();
        for (int i : indexes) {
            out.add(fields.get(i).type());
        }
        return out;
    }

    /** Schema id+1 with {@code field} appended (a new, nullable column). */
    public TableSchema withAddedColumn(String name, DataType type, long now) {
        List<DataField> newFields = new ArrayList<>(fields);
        newFields.add(new DataField(highestFieldId + 1, name, type));
        return new TableSchema(id + 1, newFields, highestFieldId + 1, partitionKeys, primaryKeys, options, now);
    }

    @Override
    public String toString() {
        return "TableSchema{id=" + id + ", fields=" + fields + ", partitionKeys=" + partitionKeys + ", primaryKeys="
                + primaryKeys + ", options=" + options + "}";
    }
}
