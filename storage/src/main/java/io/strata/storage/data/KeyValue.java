package io.strata.storage.data;

/**
 * One record of a primary-key data file: the full row (key fields included, at their schema
 * positions), the per-bucket sequence number that orders versions of a key, the row kind, and
 * the record's hidden ordering state. Mutable only while a reader fills it; once handed to a
 * merge it is treated as immutable.
 *
 * <p>The ordering state ({@link #orderings()}) is opaque below the merge engines: bytes that a
 * pre-merged row of an ordered engine carries (per field or per sequence group, the ordering
 * that produced its value; {@code io.strata.storage.merge.OrderingState}), stored in the data
 * file's {@code _ORDERINGS} column and in spill and lookup files, and null for every record whose
 * values all come from itself (every input row, every row of other engines).
 */
public final class KeyValue {
    private final long sequence;
    private final RowKind kind;
    private final Object[] row;
    private final byte[] orderings;

    public KeyValue(long sequence, RowKind kind, Object[] row) {
        this(sequence, kind, row, null);
    }

    public KeyValue(long sequence, RowKind kind, Object[] row, byte[] orderings) {
        this.sequence = sequence;
        this.kind = kind;
        this.row = row;
        this.orderings = orderings;
    }

    /** The hidden ordering state, or null when every value of the row orders as the row itself. */
    public byte[] orderings() {
        return orderings;
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
        return new KeyValue(sequence, newKind, row, orderings);
    }

    @Override
    public String toString() {
        return "KeyValue{seq=" + sequence + ", " + new GenericRow(kind, row) + "}";
    }
}
