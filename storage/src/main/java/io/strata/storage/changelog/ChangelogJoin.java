package io.strata.storage.changelog;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import io.strata.storage.util.CloseableIterator;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Comparator;
import java.util.NoSuchElementException;

/**
 * Turns two states of a bucket into changelog: walks the "before" and "after" rows (both sorted
 * by key, one row per existing key, as a final merge yields them) and, for every key that
 * {@code touched} contains (all keys when it is null), emits
 * <ul>
 *   <li>{@code +I after} when the key appears,</li>
 *   <li>{@code -D before} when it disappears,</li>
 *   <li>{@code -U before, +U after} when it exists in both (nothing if the rows are equal and
 *       {@code rowDeduplicate}).</li>
 * </ul>
 * Every -U carries the true previous value, which is what lets a consumer replay the changelog.
 * All three inputs are streamed: memory is one key.
 */
public final class ChangelogJoin implements CloseableIterator<KeyValue> {
    private final Peeking before;
    private final Peeking after;
    private final Peeking touched;
    private final Comparator<Object[]> keys;
    private final boolean rowDeduplicate;
    private final ArrayDeque<KeyValue> ready = new ArrayDeque<>();

    /**
     * @param keys compares rows by primary key
     */
    public ChangelogJoin(CloseableIterator<KeyValue> before, CloseableIterator<KeyValue> after,
                         CloseableIterator<KeyValue> touched, Comparator<Object[]> keys, boolean rowDeduplicate) {
        this.before = new Peeking(before);
        this.after = new Peeking(after);
        this.touched = touched == null ? null : new Peeking(touched);
        this.keys = keys;
        this.rowDeduplicate = rowDeduplicate;
    }

    @Override
    public boolean hasNext() {
        while (ready.isEmpty() && (before.peek() != null || after.peek() != null)) {
            step();
        }
        return !ready.isEmpty();
    }

    private void step() {
        KeyValue b = before.peek();
        KeyValue a = after.peek();
        Object[] key;
        if (b == null) {
            key = a.row();
        } else if (a == null) {
            key = b.row();
        } else {
            key = keys.compare(b.row(), a.row()) <= 0 ? b.row() : a.row();
        }
        KeyValue bv = b != null && keys.compare(b.row(), key) == 0 ? before.poll() : null;
        KeyValue av = a != null && keys.compare(a.row(), key) == 0 ? after.poll() : null;
        if (!isTouched(key)) {
            return;
        }
        if (bv == null && av != null) {
            ready.add(new KeyValue(av.sequence(), RowKind.INSERT, av.row()));
        } else if (bv != null && av == null) {
            ready.add(new KeyValue(bv.sequence(), RowKind.DELETE, bv.row()));
        } else if (bv != null) {
            if (rowDeduplicate && Arrays.deepEquals(bv.row(), av.row())) {
                return;
            }
            ready.add(new KeyValue(bv.sequence(), RowKind.UPDATE_BEFORE, bv.row()));
            ready.add(new KeyValue(av.sequence(), RowKind.UPDATE_AFTER, av.row()));
        }
    }

    private boolean isTouched(Object[] key) {
        if (touched == null) {
            return true;
        }
        while (touched.peek() != null && keys.compare(touched.peek().row(), key) < 0) {
            touched.poll();
        }
        return touched.peek() != null && keys.compare(touched.peek().row(), key) == 0;
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
        before.close();
        after.close();
        if (touched != null) {
            touched.close();
        }
    }

    /** One record of lookahead. */
    private static final class Peeking {
        private final CloseableIterator<KeyValue> it;
        private KeyValue head;

        Peeking(CloseableIterator<KeyValue> it) {
            this.it = it;
        }

        KeyValue peek() {
            if (head == null && it.hasNext()) {
                head = it.next();
            }
            return head;
        }

        KeyValue poll() {
            KeyValue h = peek();
            head = null;
            return h;
        }

        void close() {
            it.close();
        }
    }
}
