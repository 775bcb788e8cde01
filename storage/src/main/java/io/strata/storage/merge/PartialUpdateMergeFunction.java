package io.strata.storage.merge;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import java.util.ArrayList;
import java.util.List;

/**
 * partial-update: each +I/+U overwrites the fields it has non-null. With
 * {@code partial-update.remove-record-on-delete} a -D removes the row, so later rows start from
 * nothing, and -U is ignored; otherwise retractions never reach this function.
 *
 * <p>Partial result: [the last removing -D, if any] followed by [the accumulated row, if any].
 * Kept as two records, the -D still removes older versions stored elsewhere, which is what keeps
 * "delete then insert" from letting older column values survive.
 */
final class PartialUpdateMergeFunction implements MergeFunction {
    private final int arity;
    private KeyValue removal;
    private Object[] acc;
    private long accSeq;

    PartialUpdateMergeFunction(int arity) {
        this.arity = arity;
    }

    @Override
    public void reset() {
        removal = null;
        acc = null;
    }

    @Override
    public void add(KeyValue kv) {
        if (kv.kind() == RowKind.DELETE) {
            removal = kv;
            acc = null;
            return;
        }
        if (kv.kind() == RowKind.UPDATE_BEFORE) {
            return;
        }
        Object[] row = kv.row();
        if (acc == null) {
            acc = new Object[arity];
        }
        for (int i = 0; i < arity; i++) {
            if (row[i] != null) {
                acc[i] = row[i];
            }
        }
        accSeq = kv.sequence();
    }

    @Override
    public List<KeyValue> partialResult() {
        List<KeyValue> out = new ArrayList<>(2);
        if (removal != null) {
            out.add(removal);
        }
        if (acc != null) {
            out.add(new KeyValue(accSeq, RowKind.INSERT, acc.clone()));
        }
        return out;
    }

    @Override
    public List<KeyValue> topLevelResult() {
        return acc == null ? List.of() : List.of(new KeyValue(accSeq, RowKind.INSERT, acc.clone()));
    }

    @Override
    public Object[] finalResult() {
        return acc == null ? null : acc.clone();
    }

    @Override
    public long resultSequence() {
        return accSeq;
    }
}
