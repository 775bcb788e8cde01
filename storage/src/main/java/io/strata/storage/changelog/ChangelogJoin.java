package io.strata.storage.changelog;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import io.strata.storage.data.ValueEquality;
import io.strata.storage.merge.MergeFunction;
import io.strata.storage.mergetree.TaggedKeyGroups;
import io.strata.storage.util.CloseableIterator;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.IntPredicate;

/**
 * Turns one pass over a bucket's versions into changelog. For each key, the versions whose
 * tag {@code inBefore} accepts fold (with the merge engine) into the value before the change,
 * all versions into the value after; for keys {@code touches} selects (a version with such a tag
 * exists), it emits what {@link #diff} says. Every -U carries the true previous value, which is
 * what lets a consumer replay the changelog. Streams: memory is one key's versions.
 */
public final class ChangelogJoin implements CloseableIterator<KeyValue> {
    private final TaggedKeyGroups groups;
    private final IntPredicate inBefore;
    private final IntPredicate touches;
    private final MergeFunction before;
    private final MergeFunction after;
    private final boolean rowDeduplicate;
    private final ArrayDeque<KeyValue> ready = new ArrayDeque<>();

    public ChangelogJoin(
            TaggedKeyGroups groups,
            IntPredicate inBefore,
            IntPredicate touches,
            MergeFunction before,
            MergeFunction after,
            boolean rowDeduplicate) {
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
        diff(anyBefore ? before : null, beforeSeq, after, afterSeq, rowDeduplicate, ready);
    }

    /**
     * The changelog of one key, given {@code before} holding the versions before the change
     * (null when there were none) and {@code after} holding every version; the sequence numbers
     * are those the emitted records carry (the newest version of each side):
     * <ul>
     *   <li>{@code +I after} when the key appears, {@code -D before} when it disappears;</li>
     *   <li>nothing when it exists on both sides and none of the newer versions took effect
     *       ({@link MergeFunction#resultSequence()} unchanged): first-row's later rows, rows that
     *       lose against {@code sequence.field}, ignored retractions;</li>
     *   <li>otherwise {@code -U before, +U after}, also when the rows are equal (the key was
     *       written), unless {@code rowDeduplicate}.</li>
     * </ul>
     */
    static void diff(
            MergeFunction before,
            long beforeSeq,
            MergeFunction after,
            long afterSeq,
            boolean rowDeduplicate,
            Collection<KeyValue> out) {
        Object[] b = before == null ? null : before.finalResult();
        Object[] a = after.finalResult();
        if (b == null) {
            if (a != null) {
                out.add(new KeyValue(afterSeq, RowKind.INSERT, a));
            }
        } else if (a == null) {
            out.add(new KeyValue(beforeSeq, RowKind.DELETE, b));
        } else if (before.resultSequence() != after.resultSequence()
                && !(rowDeduplicate && ValueEquality.equals(b, a))) {
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
