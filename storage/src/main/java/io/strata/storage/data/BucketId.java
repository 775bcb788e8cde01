package io.strata.storage.data;

import java.io.IOException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The identity of one bucket of a table: its partition values and its bucket number. Immutable
 * (the partition values are copied in and out), equal by value ({@code byte[]} values compare by
 * content), usable as a map key.
 *
 * <p>Two string forms: {@link #key()} is stable across builds and processes and parses back with
 * {@link #parseKey} (Flink state, metric labels, in-flight maps); {@link #toString()} is for people
 * (logs, errors) and is not parsed.
 */
public final class BucketId {
    private final Object[] partition;
    private final int bucket;
    private final int hash;

    private BucketId(Object[] partition, int bucket) {
        this.partition = partition;
        this.bucket = bucket;
        this.hash = Arrays.deepHashCode(partition) * 31 + bucket;
    }

    /** The bucket {@code bucket} of partition {@code partition} (an empty array for an unpartitioned table). */
    public static BucketId of(Object[] partition, int bucket) {
        if (bucket < 0) {
            throw new IllegalArgumentException("bucket must not be negative: " + bucket);
        }
        return new BucketId(copy(partition), bucket);
    }

    /**
     * The bucket whose {@link #key()} is {@code key}.
     *
     * @throws IllegalArgumentException naming the key when it is not one
     */
    public static BucketId parseKey(String key) {
        int slash = key.lastIndexOf('/');
        try {
            if (slash < 0) {
                throw new IllegalArgumentException("no '/'");
            }
            Object[] partition = ValueCodec.decodeTuple(HexFormat.of().parseHex(key, 0, slash));
            return of(partition, Integer.parseInt(key.substring(slash + 1)));
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("not a bucket key: '" + key + "' (" + e.getMessage() + ")", e);
        }
    }

    /** A copy of the partition values. */
    public Object[] partition() {
        return copy(partition);
    }

    public int bucket() {
        return bucket;
    }

    /** Whether the partition values are {@code values} (compared by value, without copying). */
    public boolean inPartition(Object[] values) {
        return Arrays.deepEquals(partition, values);
    }

    /**
     * The stable form: the partition values in {@link ValueCodec#encodeTuple}'s encoding as lower-case
     * hex, a '/', the bucket number. Contains no whitespace; the same in every build.
     */
    public String key() {
        return HexFormat.of().formatHex(ValueCodec.encodeTuple(partition)) + "/" + bucket;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BucketId
                && ((BucketId) o).bucket == bucket
                && ((BucketId) o).hash == hash
                && Arrays.deepEquals(((BucketId) o).partition, partition);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    /** {@code partition=[v1, v2], bucket=3}, values as Java prints them (bytes as hex). */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("partition=[");
        for (int i = 0; i < partition.length; i++) {
            b.append(i == 0 ? "" : ", ");
            Object v = partition[i];
            b.append(v instanceof byte[] ? "0x" + HexFormat.of().formatHex((byte[]) v) : String.valueOf(v));
        }
        return b.append("], bucket=").append(bucket).toString();
    }

    private static Object[] copy(Object[] values) {
        Object[] c = values.clone();
        for (int i = 0; i < c.length; i++) {
            if (c[i] instanceof byte[]) {
                c[i] = ((byte[]) c[i]).clone();
            }
        }
        return c;
    }
}
