package io.strata.storage.mergetree;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import io.strata.storage.merge.MergeFunction;
import io.strata.storage.util.CloseableIterator;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * K-way merge of sorted runs (each sorted by {@link RecordComparator#records()}), folding the
 * versions of each key with a {@link MergeFunction}. Holds one record per run plus one key's
 * versions in memory.
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
    private final PriorityQueue<Head> heads;
    private final Comparator<Object[]> keyComparator;
    private final MergeFunction function;
    private final Mode mode;
    private final ArrayDeque<KeyValue> ready = new ArrayDeque<>();

    public MergingIterator(List<? extends CloseableIterator<KeyValue>> runs, RecordComparator comparator,
                           MergeFunction function, Mode mode) {
        this.runs = runs;
        this.keyComparator = comparator.keys();
        this.function = function;
        this.mode = mode;
        Comparator<KeyValue> records = comparator.records();
        this.heads = new PriorityQueue<>(Math.max(1, runs.size()), (a, b) -> records.compare(a.current, b.current));
        for (CloseableIterator<KeyValue> r : runs) {
            if (r.hasNext()) {
                heads.add(new Head(r, r.next()));
            }
        }
    }

    private static final class Head {
        final CloseableIterator<KeyValue> iterator;
        KeyValue current;

        Head(CloseableIterator<KeyValue> iterator, KeyValue current) {
            this.iterator = iterator;
            this.current = current;
        }
    }

    @Override
    public boolean hasNext() {
        while (ready.isEmpty() && !heads.isEmpty()) {
            mergeNextKey();
        }
        return !ready.isEmpty();
    }

    private void mergeNextKey() {
        function.reset();
        Object[] key = heads.peek().current.row();
        long newestSeq = Long.MIN_VALUE;
        if (heads.size() == 1) {
            // one run left: its records are already in order, no heap work per record
            Head h = heads.peek();
            while (true) {
                function.add(h.current);
                newestSeq = Math.max(newestSeq, h.current.sequence());
                if (!h.iterator.hasNext()) {
                    heads.clear();
                    break;
                }
                h.current = h.iterator.next();
                if (keyComparator.compare(h.current.row(), key) != 0) {
                    break;
                }
            }
            emit(newestSeq);
            return;
        }
        while (!heads.isEmpty() && keyComparator.compare(heads.peek().current.row(), key) == 0) {
            Head h = heads.poll();
            function.add(h.current);
            newestSeq = Math.max(newestSeq, h.current.sequence());
            if (h.iterator.hasNext()) {
                h.current = h.iterator.next();
                heads.add(h);
            }
        }
        emit(newestSeq);
    }

    private void emit(long newestSeq) {
        switch (mode) {
            case FINAL: {
                Object[] row = function.finalResult();
                if (row != null) {
                    ready.add(new KeyValue(newestSeq, RowKind.INSERT, row));
                }
                break;
            }
            case TOP_LEVEL:
                ready.addAll(function.topLevelResult());
                break;
            default:
                ready.addAll(function.partialResult());
        }
    }

    @Override
    public KeyValue next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return ready.poll();
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
