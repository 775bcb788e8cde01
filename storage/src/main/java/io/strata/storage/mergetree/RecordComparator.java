package io.strata.storage.mergetree;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.ValueComparators;
import io.strata.storage.schema.DataType;
import io.strata.storage.schema.TableSchema;
import java.util.Comparator;

/**
 * The order of records in a sorted run: primary key, then the sequence field (if the table has
 * one; nulls first), then the sequence number. Versions of a key therefore come oldest first.
 */
public final class RecordComparator {
    private final Comparator<Object[]> keyComparator;
    private final Comparator<KeyValue> recordComparator;
    private final int sequenceFieldIndex;
    private final int longKeyIndex;

    public RecordComparator(TableSchema schema, int sequenceFieldIndex) {
        this(schema, sequenceFieldIndex, false);
    }

    /**
     * @param rawStrings whether STRING values of the rows compared may be raw UTF-8 bytes
     *                   ({@link io.strata.storage.format.DataFileReader.Options#rawStrings()})
     */
    public RecordComparator(TableSchema schema, int sequenceFieldIndex, boolean rawStrings) {
        int[] keyIndexes = schema.primaryKeyIndexes();
        this.keyComparator = ValueComparators.forFields(keyIndexes, schema.typesOf(keyIndexes), rawStrings);
        this.sequenceFieldIndex = sequenceFieldIndex;
        DataType onlyKey =
                keyIndexes.length == 1 ? schema.fields().get(keyIndexes[0]).type() : null;
        this.longKeyIndex = onlyKey != null
                        && !onlyKey.isNullable()
                        && (onlyKey.root() == DataType.Root.BIGINT || onlyKey.root() == DataType.Root.INT)
                ? keyIndexes[0]
                : -1;
        Comparator<Object[]> keys = keyComparator;
        if (sequenceFieldIndex >= 0) {
            Comparator<Object> seqField = ValueComparators.forType(
                    schema.fields().get(sequenceFieldIndex).type(), rawStrings);
            int idx = sequenceFieldIndex;
            this.recordComparator = (a, b) -> {
                int r = keys.compare(a.row(), b.row());
                if (r != 0) {
                    return r;
                }
                r = seqField.compare(a.row()[idx], b.row()[idx]);
                return r != 0 ? r : Long.compare(a.sequence(), b.sequence());
            };
        } else {
            this.recordComparator = (a, b) -> {
                int r = keys.compare(a.row(), b.row());
                return r != 0 ? r : Long.compare(a.sequence(), b.sequence());
            };
        }
    }

    /**
     * The row position of the primary key when it is a single non-null BIGINT or INT (its values
     * are {@link Number}s ordered as longs), else -1: merges then compare keys as primitives.
     */
    public int longKeyIndex() {
        return longKeyIndex;
    }

    /** The sequence field's row position, or -1. */
    public int sequenceFieldIndex() {
        return sequenceFieldIndex;
    }

    /** Compares rows by primary key only. */
    public Comparator<Object[]> keys() {
        return keyComparator;
    }

    /** Compares records by key, sequence field, sequence number. */
    public Comparator<KeyValue> records() {
        return recordComparator;
    }
}
