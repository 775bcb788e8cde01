package io.strata.storage.mergetree;

import io.strata.storage.data.KeyValue;
import io.strata.storage.util.CloseableIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;

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

    private final List<CloseableIterator<KeyValue>> runs;
    private final int[] tags;
    private final LoserTree heads;

    /** @param tags one tag per run */
    public TaggedKeyGroups(List<CloseableIterator<KeyValue>> runs, int[] tags, RecordComparator comparator) {
        this.runs = runs;
        this.tags = tags;
        this.heads = new LoserTree(runs, comparator);
    }

    @Override
    public boolean hasNext() {
        return heads.peek() != null;
    }

    @Override
    public List<Version> next() {
        KeyValue first = heads.peek();
        if (first == null) {
            throw new NoSuchElementException();
        }
        List<Version> group = new ArrayList<>(4);
        Object[] key = first.row();
        long longKey = heads.peekLongKey();
        do {
            group.add(new Version(tags[heads.peekRun()], heads.peek()));
            heads.advance();
        } while (heads.peekHasKey(key, longKey));
        return group;
    }

    @Override
    public void close() {
        for (CloseableIterator<KeyValue> r : runs) {
            r.close();
        }
    }
}
