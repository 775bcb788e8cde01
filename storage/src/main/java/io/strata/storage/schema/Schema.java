package io.strata.storage.schema;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a user asks for when creating a table: columns, keys, options. {@link SchemaValidation}
 * turns it into schema 0 of a table (assigning field ids) or says precisely what is wrong.
 */
public final class Schema {
    /** A column as the user declared it. */
    public static final class Column {
        private final String name;
        private final DataType type;

        public Column(String name, DataType type) {
            this.name = name;
            this.type = type;
        }

        public String name() {
            return name;
        }

        public DataType type() {
            return type;
        }
    }

    private final List<Column> columns;
    private final List<String> primaryKeys;
    private final List<String> partitionKeys;
    private final Map<String, String> options;

    public Schema(
            List<Column> columns, List<String> primaryKeys, List<String> partitionKeys, Map<String, String> options) {
        this.columns = List.copyOf(columns);
        this.primaryKeys = List.copyOf(primaryKeys);
        this.partitionKeys = List.copyOf(partitionKeys);
        this.options = new LinkedHashMap<>(options);
    }

    public List<Column> columns() {
        return columns;
    }

    public List<String> primaryKeys() {
        return primaryKeys;
    }

    public List<String> partitionKeys() {
        return partitionKeys;
    }

    public Map<String, String> options() {
        return options;
    }

    /** This schema with {@code extra} options on top (command-line --option wins over the file). */
    public Schema withOptions(Map<String, String> extra) {
        Map<String, String> m = new LinkedHashMap<>(options);
        m.putAll(extra);
        return new Schema(columns, primaryKeys, partitionKeys, m);
    }

    public static Builder newBuilder() {
        return new Builder();
    }

    /** Fluent construction for code and tests. */
    public static final class Builder {
        private final List<Column> columns = new ArrayList<>();
        private final List<String> primaryKeys = new ArrayList<>();
        private final List<String> partitionKeys = new ArrayList<>();
        private final Map<String, String> options = new LinkedHashMap<>();

        public Builder column(String name, DataType type) {
            columns.add(new Column(name, type));
            return this;
        }

        public Builder column(String name, String type) {
            return column(name, DataType.parse(type));
        }

        public Builder primaryKey(String... names) {
            primaryKeys.addAll(List.of(names));
            return this;
        }

        public Builder partitionKeys(String... names) {
            partitionKeys.addAll(List.of(names));
            return this;
        }

        public Builder option(String key, String value) {
            options.put(key, value);
            return this;
        }

        public Builder options(Map<String, String> more) {
            options.putAll(more);
            return this;
        }

        public Schema build() {
            return new Schema(columns, primaryKeys, partitionKeys, options);
        }
    }
}
