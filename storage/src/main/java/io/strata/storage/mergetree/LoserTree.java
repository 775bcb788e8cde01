package io.strata.storage.mergetree;

import io.strata.storage.data.KeyValue;
import io.strata.storage.util.CloseableIterator;
import java.util.Comparator;
import java.util.List;

/**
 * A tournament (loser) tree over the current records of k sorted runs: the smallest record by
 * {@link RecordComparator#records()} is the winner; advancing it replays one leaf-to-root path
 * (log2 k comparisons, where a binary heap's poll and add take about twice as many). Ties break
 * by run index, so the order is total. A single non-null BIGINT/INT key
 * ({@link RecordComparator#longKeyIndex()}) is kept per run as a primitive and compared without
 * unboxing; with no sequence field the sequence number breaks key ties, also as a primitive.
 *
 * <p>Holds one record per run. Not thread-safe. Closing the runs is the caller's business.
 */
final class LoserTree {
    private final List<? extends CloseableIterator<KeyValue>> runs;
    private final int size;
    private final KeyValue[] current;
    private final long[] keys;
    private final int[] tree;
    private final int longKeyIndex;
    private final boolean primitiveOrder;
    private final Comparator<KeyValue> records;
    private final Comparator<Object[]> keyComparator;

    LoserTree(List<? extends CloseableIterator<KeyValue>> runs, RecordComparator comparator) {
        this.runs = runs;
        int n = Math.max(1, runs.size());
        this.size = Integer.highestOneBit(n) == n ? n : Integer.highestOneBit(n) << 1;
        this.current = new KeyValue[size];
        this.keys = new long[size];
        this.tree = new int[size];
        this.longKeyIndex = comparator.longKeyIndex();
        this.primitiveOrder = longKeyIndex >= 0 && comparator.sequenceFieldIndex() < 0;
        this.records = comparator.records();
        this.keyComparator = comparator.keys();
        for (int i = 0; i < runs.size(); i++) {
            load(i);
        }
        tree[0] = build(1);
    }

    /** The smallest current record, or null when every run is exhausted. */
    KeyValue peek() {
        return current[tree[0]];
    }

    /** The index (in the list given) of the run {@link #peek()} comes from. */
    int peekRun() {
        return tree[0];
    }

    /** The primitive key of {@link #peek()} (only meaningful with a long key). */
    long peekLongKey() {
        return keys[tree[0]];
    }

    /** Whether {@link #peek()} exists and has the key of {@code row} (whose primitive key is {@code longKey}). */
    boolean peekHasKey(Object[] row, long longKey) {
        int w = tree[0];
        KeyValue kv = current[w];
        if (kv == null) {
            return false;
        }
        return longKeyIndex >= 0 ? keys[w] == longKey : keyComparator.compare(kv.row(), row) == 0;
    }

    /** Replaces {@link #peek()} by the next record of its run and replays the winner's path. */
    void advance() {
        int w = tree[0];
        load(w);
        for (int node = (w + size) >>> 1; node > 0; node >>>= 1) {
            int other = tree[node];
            if (less(other, w)) {
                tree[node] = w;
                w = other;
            }
        }
        tree[0] = w;
    }

    private void load(int run) {
        CloseableIterator<KeyValue> it = runs.get(run);
        if (it.hasNext()) {
            KeyValue kv = it.next();
            current[run] = kv;
            if (longKeyIndex >= 0) {
                keys[run] = ((Number) kv.row()[longKeyIndex]).longValue();
            }
        } else {
            current[run] = null;
        }
    }

    private int build(int node) {
        if (node >= size) {
            return node - size;
        }
        int a = build(2 * node);
        int b = build(2 * node + 1);
        if (less(a, b)) {
            tree[node] = b;
            return a;
        }
        tree[node] = a;
        return b;
    }

    /** Whether run {@code i}'s record orders before run {@code j}'s; exhausted runs order last. */
    private boolean less(int i, int j) {
        KeyValue a = current[i];
        KeyValue b = current[j];
        if (a == null || b == null) {
            return b == null && (a != null || i < j);
        }
        if (primitiveOrder) {
            long ka = keys[i];
            long kb = keys[j];
            if (ka != kb) {
                return ka < kb;
            }
            long sa = a.sequence();
            long sb = b.sequence();
            return sa != sb ? sa < sb : i < j;
        }
        int r = records.compare(a, b);
        return r != 0 ? r < 0 : i < j;
    }
}
