package io.strata.storage.merge;

import io.strata.storage.data.KeyValue;
import java.util.List;

/** deduplicate: the last version wins; a last -U/-D means the key does not exist. */
final class DeduplicateMergeFunction implements MergeFunction {
    private KeyValue last;

    @Override
    public void reset() {
        last = null;
    }

    @Override
    public void add(KeyValue kv) {
        last = kv;
    }

    @Override
    public List<KeyValue> partialResult() {
        return List.of(last);
    }

    @Override
    public Object[] finalResult() {
        return last.kind().isRetract() ? null : last.row();
    }
}
