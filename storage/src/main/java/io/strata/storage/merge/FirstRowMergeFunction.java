package io.strata.storage.merge;

import io.strata.storage.data.KeyValue;
import java.util.List;

/**
 * first-row: the first version in merge order wins, later ones are ignored. Under
 * {@code sequence.field} that is the lowest ordering value (nulls first), then the earliest
 * arrival: the kept record carries its ordering value, so a late row with a lower one sorts before
 * it in a later merge and wins there. Retractions never reach it (rejected or dropped at write).
 */
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
