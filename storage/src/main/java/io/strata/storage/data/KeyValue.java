package io.strata.storage.data;

/**
 * One record of a primary-key data file: the full row (key fields included, at their schema
 * positions), the per-bucket sequence number that orders versions of a key, and the row kind.
 * Mutable only while a reader fills it; once handed to a merge it is treated as immutable.
 */
public final class KeyValue {
    private final long sequence;
    private final RowKind kind;
    private final Object[] row;

    public KeyValue(long sequence, RowKind kind, Object[] row) {
        this.sequence = sequence;
        this.kind = kind;
        this.row = row;
    }

    public long sequence() {
        return sequence;
    }

    public RowKind kind() {
        return kind;
    }

    public Object[] row() {
        return row;
    }

    public KeyValue withKind(RowKind newKind) {
        return new KeyValue(sequence, newKind, row);
    }

    @Override
    public String toString() {
        return "KeyValue{seq=" + sequence + ", " + new GenericRow(kind, row) + "}";
    }
}
