package io.strata.storage.merge;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import java.util.List;

/**
 * deduplicate: the last version wins; a last -U/-D means the key does not exist. At the top
 * level a delete is dropped, except under {@code sequence.field}: there it stays as a tombstone
 * carrying its ordering value, so a late row with an older value cannot bring the key back.
 */
final class DeduplicateMergeFunction implements MergeFunction {
    private final boolean keepTombstones;
    private KeyValue last;

    DeduplicateMergeFunction(boolean keepTombstones) {
        this.keepTombstones = keepTombstones;
    }

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
    public List<KeyValue> topLevelResult() {
        if (!last.kind().isRetract()) {
            return List.of(last.kind() == RowKind.INSERT ? last : last.withKind(RowKind.INSERT));
        }
        return keepTombstones ? List.of(last) : List.of();
    }

    @Override
    public Object[] finalResult() {
        return last.kind().isRetract() ? null : last.row();
    }

    @Override
    public long resultSequence() {
        return last.sequence();
    }
}
