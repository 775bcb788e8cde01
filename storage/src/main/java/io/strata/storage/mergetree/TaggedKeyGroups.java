package io.strata.storage.mergetree;

import io.strata.storage.data.KeyValue;
import io.strata.storage.util.CloseableIterator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * K-way merge of sorted runs that yields, per key, every version with the tag of the run it came
 * from (for example its level), oldest first. Used where a merge must tell versions apart by
 * origin: the changelog producers compute a key's value before and after a compaction from one
 * pass. Memory: one record per run plus one key's versions.
 */
public final class TaggedKeyGroups implements CloseableIterator<List<TaggedKeyGroups.Version>> {

    /** A version of a key and the tag of its run. */
    public static final class Version {
        public final int tag;
        public final KeyValue kv;

        Version(int tag, KeyValue kv) {
            this.tag = tag;
            this.kv = kv;
        }
    }

    private static final class Head {
        final int tag;
        final CloseableIterator<KeyValue> it;
        KeyValue current;

        Head(int tag, CloseableIterator<KeyValue> it, KeyValue current) {
            this.tag = tag;
            this.it = it;
            this.current = current;
        }
    }

    private final List<CloseableIterator<KeyValue>> runs;
    private final PriorityQueue<Head> heads;
    private final Comparator<Object[]> keys;

    /** @param tags one tag per run */
    public TaggedKeyGroups(List<CloseableIterator<KeyValue>> runs, int[] tags, RecordComparator comparator) {
        this.runs = runs;
        this.keys = comparator.keys();
        Comparator<KeyValue> records = comparator.records();
        this.heads = new PriorityQueue<>(Math.max(1, runs.size()), (a, b) -> records.compare(a.current, b.current));
        for (int i = 0; i < runs.size(); i++) {
            if (runs.get(i).hasNext()) {
                heads.add(new Head(tags[i], runs.get(i), runs.get(i).next()));
            }
        }
    }

    @Override
    public boolean hasNext() {
        return !heads.isEmpty();
    }

    @Override
    public List<Version> next() {
        if (heads.isEmpty()) {
            throw new NoSuchElementException();
        }
        List<Version> group = new ArrayList<>(4);
        Object[] key = heads.peek().current.row();
        while (!heads.isEmpty() && keys.compare(heads.peek().current.row(), key) == 0) {
            Head h = heads.poll();
            group.add(new Version(h.tag, h.current));
            if (h.it.hasNext()) {
                h.current = h.it.next();
                heads.add(h);
            }
        }
        return group;
    }

    @Override
    public void close() {
        for (CloseableIterator<KeyValue> r : runs) {
            r.close();
        }
    }
}
