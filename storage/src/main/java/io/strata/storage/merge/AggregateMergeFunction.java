package io.strata.storage.merge;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import io.strata.storage.schema.DataType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * aggregation: each value field is folded with its {@link AggregateFunction}; key fields are kept.
 * +I/+U aggregate; -U (and -D unless {@code aggregation.remove-record-on-delete}) retract, or are
 * skipped for fields with {@code ignore-retract}. With remove-record-on-delete a -D removes the
 * row. A key exists once a +I/+U has been aggregated since its last removal.
 *
 * <p>Partial result: [the last removing -D, if any] then [the accumulated row, if any +I/+U was
 * added]. A run of retractions without a positive row is passed through unchanged, because an
 * ignored retraction has no representation in an accumulated row. So are the records since the
 * removal when a retraction emptied a field whose function ignores null inputs and no value
 * came since ({@link AggregateFunction#retractMayEmpty()}): in an accumulated row that null would
 * read as "no value" and let an older one through.
 */
final class AggregateMergeFunction implements MergeFunction {
    private final DataType[] types;
    private final AggregateFunction[] functions; // null for key fields
    private final boolean[] ignoreRetract;
    private final boolean removeOnDelete;
    /** Per field: a retraction emptied it and no value came since (functions that retractMayEmpty). */
    private final boolean[] emptied;

    private KeyValue removal;
    private Object[] acc;
    private boolean positive;
    private long accSeq;
    private final List<KeyValue> added = new ArrayList<>();

    AggregateMergeFunction(
            DataType[] types, AggregateFunction[] functions, boolean[] ignoreRetract, boolean removeOnDelete) {
        this.types = types;
        this.functions = functions;
        this.ignoreRetract = ignoreRetract;
        this.removeOnDelete = removeOnDelete;
        this.emptied = new boolean[types.length];
    }

    @Override
    public void reset() {
        removal = null;
        acc = null;
        positive = false;
        Arrays.fill(emptied, false);
        added.clear();
    }

    @Override
    public void add(KeyValue kv) {
        added.add(kv);
        if (removeOnDelete && kv.kind() == RowKind.DELETE) {
            removal = kv;
            acc = null;
            positive = false;
            Arrays.fill(emptied, false);
            return;
        }
        Object[] row = kv.row();
        if (acc == null) {
            acc = new Object[types.length];
        }
        boolean retract = kv.kind().isRetract();
        for (int i = 0; i < types.length; i++) {
            AggregateFunction f = functions[i];
            if (f == null) {
                acc[i] = row[i];
            } else if (!retract) {
                acc[i] = positive ? f.agg(types[i], acc[i], row[i]) : f.start(types[i], acc[i], row[i]);
                emptied[i] &= acc[i] == null;
            } else if (!ignoreRetract[i]) {
                acc[i] = f.retract(types[i], acc[i], row[i]);
                emptied[i] |= f.retractMayEmpty() && acc[i] == null && row[i] != null;
            }
        }
        positive |= !retract;
        accSeq = kv.sequence();
    }

    @Override
    public List<KeyValue> partialResult() {
        List<KeyValue> out = new ArrayList<>(2);
        if (removal != null) {
            out.add(removal);
        }
        if (positive && !anyEmptied()) {
            out.add(accumulated());
        } else if (acc != null) {
            addRecordsSinceRemoval(out);
        }
        return out;
    }

    @Override
    public List<KeyValue> topLevelResult() {
        if (positive) {
            // nothing older is left to remove, nor to show through an emptied field
            return List.of(accumulated());
        }
        List<KeyValue> out = partialResult();
        if (!out.isEmpty() && out.get(0) == removal) {
            return out.subList(1, out.size());
        }
        return out;
    }

    private KeyValue accumulated() {
        return new KeyValue(accSeq, RowKind.INSERT, acc.clone());
    }

    private boolean anyEmptied() {
        for (boolean e : emptied) {
            if (e) {
                return true;
            }
        }
        return false;
    }

    private void addRecordsSinceRemoval(List<KeyValue> out) {
        boolean afterRemoval = removal == null;
        for (KeyValue kv : added) {
            if (afterRemoval && kv != removal) {
                out.add(kv);
            }
            if (kv == removal) {
                afterRemoval = true;
            }
        }
    }

    @Override
    public Object[] finalResult() {
        return positive ? acc.clone() : null;
    }

    /** Every record but a removing -D folds into the accumulator, so each of them takes effect. */
    @Override
    public long resultSequence() {
        return accSeq;
    }
}
