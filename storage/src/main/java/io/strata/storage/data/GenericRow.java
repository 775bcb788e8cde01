package io.strata.storage.data;

import java.util.Objects;

/**
 * A row of a table: a row kind and one Java value per field of the table schema, in schema
 * order. Value classes per type are listed in {@link io.strata.storage.schema.DataType}.
 * The field array is not copied: callers that keep a row must not mutate it.
 */
public final class GenericRow {
    private final RowKind kind;
    private final Object[] fields;

    public GenericRow(RowKind kind, Object... fields) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.fields = Objects.requireNonNull(fields, "fields");
    }

    public static GenericRow insert(Object... fields) {
        return new GenericRow(RowKind.INSERT, fields);
    }

    public static GenericRow delete(Object... fields) {
        return new GenericRow(RowKind.DELETE, fields);
    }

    public RowKind kind() {
        return kind;
    }

    public int arity() {
        return fields.length;
    }

    public Object get(int i) {
        return fields[i];
    }

    public Object[] fields() {
        return fields;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof GenericRow)) {
            return false;
        }
        GenericRow that = (GenericRow) o;
        return kind == that.kind && ValueEquality.equals(fields, that.fields);
    }

    @Override
    public int hashCode() {
        return 31 * kind.hashCode() + ValueEquality.hashCode(fields);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(kind.shortString()).append('(');
        for (int i = 0; i < fields.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(ValueEquality.toString(fields[i]));
        }
        return sb.append(')').toString();
    }
}
