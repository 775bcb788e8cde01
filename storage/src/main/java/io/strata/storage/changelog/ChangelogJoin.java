package io.strata.storage.changelog;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import io.strata.storage.merge.MergeFunction;
import io.strata.storage.mergetree.TaggedKeyGroups;
import io.strata.storage.util.CloseableIterator;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.IntPredicate;

/**
 * Turns one pass over a bucket's versions into changelog. For each key, the versions whose
 * tag {@code inBefore} accepts fold (with the merge engine) into the value before the change,
 * all versions into the value after; for keys {@code touches} selects (a version with such a tag
 * exists), it emits
 * <ul>
 *   <li>{@code +I after} when the key appears,</li>
 *   <li>{@code -D before} when it disappears,</li>
 *   <li>{@code -U before, +U after} when it exists in both (nothing if the rows are equal and
 *       {@code rowDeduplicate}).</li>
 * </ul>
 * Every -U carries the true previous value, which is what lets a consumer replay the changelog.
 * Streams: memory is one key's versions.
 */
public final class ChangelogJoin implements CloseableIterator<KeyValue> {
    private final TaggedKeyGroups groups;
    private final IntPredicate inBefore;
    private final IntPredicate touches;
    private final MergeFunction before;
    private final MergeFunction after;
    private final boolean rowDeduplicate;
    private final ArrayDeque<KeyValue> ready = new ArrayDeque<>();

    public ChangelogJoin(TaggedKeyGroups groups, IntPredicate inBefore, IntPredicate touches, MergeFunction before,
                         MergeFunction after, boolean rowDeduplicate) {
        this.groups = groups;
        this.inBefore = inBefore;
        this.touches = touches;
        this.before = before;
        this.after = after;
        this.rowDeduplicate = rowDeduplicate;
    }

    @Override
    public boolean hasNext() {
        while (ready.isEmpty() && groups.hasNext()) {
            step(groups.next());
        }
        return !ready.isEmpty();
    }

    private void step(List<TaggedKeyGroups.Version> versions) {
        boolean touched = false;
        boolean anyBefore = false;
        long beforeSeq = 0;
        long afterSeq = 0;
        before.reset();
        after.reset();
        for (TaggedKeyGroups.Version v : versions) {
            touched |= touches.test(v.tag);
            if (inBefore.test(v.tag)) {
                before.add(v.kv);
                anyBefore = true;
                beforeSeq = v.kv.sequence();
            }
            after.add(v.kv);
            afterSeq = v.kv.sequence();
        }
        if (!touched) {
            return;
        }
        diff(anyBefore ? before.finalResult() : null, beforeSeq, after.finalResult(), afterSeq, rowDeduplicate, ready);
    }

    /** The changelog of one key going from row {@code b} to row {@code a} (null: absent). */
    static void diff(Object[] b, long beforeSeq, Object[] a, long afterSeq, boolean rowDeduplicate,
                     java.util.Collection<KeyValue> out) {
        if (b == null && a != null) {
            out.add(new KeyValue(afterSeq, RowKind.INSERT, a));
        } else if (b != null && a == null) {
            out.add(new KeyValue(beforeSeq, RowKind.DELETE, b));
        } else if (b != null) {
            if (rowDeduplicate && Arrays.deepEquals(b, a)) {
                return;
            }
            out.add(new KeyValue(beforeSeq, RowKind.UPDATE_BEFORE, b));
            out.add(new KeyValue(afterSeq, RowKind.UPDATE_AFTER, a));
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
        groups.close();
    }
}
