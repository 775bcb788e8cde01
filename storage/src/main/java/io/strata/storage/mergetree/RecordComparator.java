package io.strata.storage.mergetree;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.ValueComparators;
import io.strata.storage.schema.TableSchema;
import java.util.Comparator;

/**
 * The order of records in a sorted run: primary key, then the sequence field (if the table has
 * one; nulls first), then the sequence number. Versions of a key therefore come oldest first.
 */
public final class RecordComparator {
    private final Comparator<Object[]> keyComparator;
    private final Comparator<KeyValue> recordComparator;

    public RecordComparator(TableSchema schema, int sequenceFieldIndex) {
        this.keyComparator = ValueComparators.forFields(schema.primaryKeyIndexes(),
                schema.typesOf(schema.primaryKeyIndexes()));
        Comparator<Object[]> keys = keyComparator;
        if (sequenceFieldIndex >= 0) {
            Comparator<Object> seqField = ValueComparators.forType(schema.fields().get(sequenceFieldIndex).type());
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

    /** Compares rows by primary key only. */
    public Comparator<Object[]> keys() {
        return keyComparator;
    }

    /** Compares records by key, sequence field, sequence number. */
    public Comparator<KeyValue> records() {
        return recordComparator;
    }
}
