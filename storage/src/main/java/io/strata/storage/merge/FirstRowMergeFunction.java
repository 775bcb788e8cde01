package io.strata.storage.merge;

import io.strata.storage.data.KeyValue;
import java.util.List;

/** first-row: the first version wins; later ones are ignored. Retractions never reach it (rejected or dropped at write). */
final class FirstRowMergeFunction implements MergeFunction {
    private KeyValue first;

    @Override
    public void reset() {
        first = null;
    }

    @Override
    public void add(KeyValue kv) {
        if (first == null) {
            first = kv;
        }
    }

    @Override
    public List<KeyValue> partialResult() {
        return List.of(first);
    }

    @Override
    public List<KeyValue> topLevelResult() {
        return List.of(first);
    }

    @Override
    public Object[] finalResult() {
        return first.row();
    }

    @Override
    public long resultSequence() {
        return first.sequence();
    }
}
