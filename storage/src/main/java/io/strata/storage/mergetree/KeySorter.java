package io.strata.storage.mergetree;

import io.strata.storage.data.KeyValue;
import io.strata.storage.schema.DataType;
import io.strata.storage.schema.TableSchema;
import java.util.Arrays;
import java.util.List;

/**
 * Sorts a write buffer. Records arrive in sequence order, so sorting by key <em>stably</em>
 * gives (key, sequence) order. For the common single BIGINT/INT primary key without a sequence
 * field this is an LSD radix sort over the primitive keys (16-bit digits, stable, no
 * comparisons, no boxing); otherwise a comparison sort with the record comparator.
 */
public final class KeySorter {
    private final int keyIndex;
    private final boolean isLong;
    private final RecordComparator comparator;

    private KeySorter(int keyIndex, boolean isLong, RecordComparator comparator) {
        this.keyIndex = keyIndex;
        this.isLong = isLong;
        this.comparator = comparator;
    }

    public static KeySorter of(TableSchema schema, int sequenceFieldIndex, RecordComparator comparator) {
        int[] keys = schema.primaryKeyIndexes();
        if (sequenceFieldIndex < 0 && keys.length == 1) {
            DataType t = schema.fields().get(keys[0]).type();
            if (!t.isNullable() && (t.root() == DataType.Root.BIGINT || t.root() == DataType.Root.INT)) {
                return new KeySorter(keys[0], t.root() == DataType.Root.BIGINT, comparator);
            }
        }
        return new KeySorter(-1, false, comparator);
    }

    /** Returns {@code records} (in sequence order) sorted by key, then sequence. */
    KeyValue[] sort(List<KeyValue> records) {
        KeyValue[] in = records.toArray(new KeyValue[0]);
        if (keyIndex < 0 || in.length < 64) {
            Arrays.sort(in, comparator.records());
            return in;
        }
        int n = in.length;
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            Object k = in[i].row()[keyIndex];
            // flip the sign bit so that unsigned digit order is signed numeric order
            keys[i] = (isLong ? (Long) k : (long) (Integer) k) ^ Long.MIN_VALUE;
        }
        long[] keysOut = new long[n];
        KeyValue[] out = new KeyValue[n];
        int[] counts = new int[1 << 16];
        for (int pass = 0; pass < 4; pass++) {
            int shift = pass * 16;
            Arrays.fill(counts, 0);
            for (int i = 0; i < n; i++) {
                counts[(int) ((keys[i] >>> shift) & 0xFFFF)]++;
            }
            if (counts[(int) ((keys[0] >>> shift) & 0xFFFF)] == n) {
                continue; // every key has the same digit: this pass would not move anything
            }
            int sum = 0;
            for (int d = 0; d < counts.length; d++) {
                int c = counts[d];
                counts[d] = sum;
                sum += c;
            }
            for (int i = 0; i < n; i++) {
                int d = (int) ((keys[i] >>> shift) & 0xFFFF);
                int pos = counts[d]++;
                keysOut[pos] = keys[i];
                out[pos] = in[i];
            }
            long[] tk = keys;
            keys = keysOut;
            keysOut = tk;
            KeyValue[] tr = in;
            in = out;
            out = tr;
        }
        return in;
    }
}
