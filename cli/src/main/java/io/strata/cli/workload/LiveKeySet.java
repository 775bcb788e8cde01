package io.strata.cli.workload;

import java.util.BitSet;

/**
 * The generator's live keys: an array in which a delete picks a position and swap-removes it
 * (the order of the array is part of the workload definition, since deletes draw positions),
 * plus a bit per key of the key space for a constant-time membership test.
 */
final class LiveKeySet {
    private final long[] keys;
    private final BitSet members;
    private int count;

    /**
     * @param keySpace keys are in {@code [0, keySpace)}; at most {@link Integer#MAX_VALUE}
     * @param capacity the most keys that can be live at once
     */
    LiveKeySet(long keySpace, int capacity) {
        if (keySpace <= 0 || keySpace > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("key space must be in [1, " + Integer.MAX_VALUE + "], got " + keySpace);
        }
        this.keys = new long[capacity];
        this.members = new BitSet((int) keySpace);
    }

    int size() {
        return count;
    }

    /** Appends {@code key} at the end of the array unless it is live already. */
    void addIfAbsent(long key) {
        int k = (int) key;
        if (!members.get(k)) {
            members.set(k);
            keys[count++] = key;
        }
    }

    /** Removes and returns the key at {@code index}; the last key moves into its place. */
    long removeAt(int index) {
        long key = keys[index];
        keys[index] = keys[--count];
        members.clear((int) key);
        return key;
    }
}
