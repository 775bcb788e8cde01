package io.strata.storage.mergetree;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import io.strata.storage.merge.MergeFunction;
import io.strata.storage.util.CloseableIterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * K-way merge of sorted runs (each sorted by {@link RecordComparator#records()}), folding the
 * versions of each key with a {@link MergeFunction}. Holds one record per run plus one key's
 * versions in memory. The runs are ordered by a {@link LoserTree}.
 */
public final class MergingIterator implements CloseableIterator<KeyValue> {

    /** What is emitted per key. */
    public enum Mode {
        /** The function's partial results: records to store where older versions may exist elsewhere. */
        PARTIAL,
        /** The function's top-level results: records to store where nothing older exists. */
        TOP_LEVEL,
        /** One INSERT per existing key with the row a reader sees and its newest sequence number. */
        FINAL
    }

    private final List<? extends CloseableIterator<KeyValue>> runs;
    private final LoserTree heads;
    private final MergeFunction function;
    private final Mode mode;
    /**
     * The current key's records, handed out from {@code readyPos} on: the merge function's own
     * result list, used as it is (no copy per key), valid until its next {@code reset()}, which
     * comes only once every record of it has been handed out.
     */
    private List<KeyValue> ready = List.of();

    private int readyPos;

    public MergingIterator(
            List<? extends CloseableIterator<KeyValue>> runs,
            RecordComparator comparator,
            MergeFunction function,
            Mode mode) {
        this.runs = runs;
        this.function = function;
        this.mode = mode;
        this.heads = new LoserTree(runs, comparator);
    }

    @Override
    public boolean hasNext() {
        while (readyPos >= ready.size() && heads.peek() != null) {
            mergeNextKey();
        }
        return readyPos < ready.size();
    }

    private void mergeNextKey() {
        function.reset();
        KeyValue first = heads.peek();
        Object[] key = first.row();
        long longKey = heads.peekLongKey();
        long newestSeq = Long.MIN_VALUE;
        do {
            KeyValue kv = heads.peek();
            function.add(kv);
            newestSeq = Math.max(newestSeq, kv.sequence());
            heads.advance();
        } while (heads.peekHasKey(key, longKey));
        emit(newestSeq);
    }

    private void emit(long newestSeq) {
        readyPos = 0;
        switch (mode) {
            case FINAL: {
                Object[] row = function.finalResult();
                ready = row == null ? List.of() : List.of(new KeyValue(newestSeq, RowKind.INSERT, row));
                break;
            }
            case TOP_LEVEL:
                ready = function.topLevelResult();
                break;
            default:
                ready = function.partialResult();
        }
    }

    @Override
    public KeyValue next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return ready.get(readyPos++);
    }

    @Override
    public void close() {
        RuntimeException first = null;
        for (CloseableIterator<KeyValue> r : runs) {
            try {
                r.close();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
