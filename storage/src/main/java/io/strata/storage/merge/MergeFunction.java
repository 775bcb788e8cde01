package io.strata.storage.merge;

import io.strata.storage.data.KeyValue;
import java.util.List;

/**
 * Folds the versions of one primary key, given oldest first (by sequence field, then sequence
 * number). Two results:
 * <ul>
 *   <li>{@link #partialResult()}: records that, merged later with any older records of the key,
 *       give the same final result as the records added. Used when older data may exist
 *       elsewhere (write-buffer flush, compaction below the top level).</li>
 *   <li>{@link #finalResult()}: the row a reader sees, or null when the key does not exist. Only
 *       valid when every version of the key was added.</li>
 * </ul>
 * Implementations are reused: {@link #reset()} starts the next key. Not thread-safe.
 */
public interface MergeFunction {

    void reset();

    void add(KeyValue kv);

    List<KeyValue> partialResult();

    /**
     * Records to store when nothing older than the added versions exists anywhere (compaction
     * into the bucket's highest non-empty level): deletes that have nothing left to remove are
     * dropped, but whatever a later version still needs to be merged correctly is kept.
     */
    List<KeyValue> topLevelResult();

    Object[] finalResult();

    /**
     * The sequence number of the newest added record that took effect on {@link #finalResult()};
     * only meaningful while that is non-null. Records the engine ignores (a later row under
     * first-row, a row that loses against {@code sequence.field}, a {@code -U} under
     * partial-update) leave it unchanged. A changelog producer compares it before and after
     * adding the newer records of a key: equal means none of them took effect, so the key has
     * no change to report.
     */
    long resultSequence();
}
