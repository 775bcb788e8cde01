package io.strata.storage.data;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.commons.codec.digest.MurmurHash3;

/**
 * The stable bucket function (docs/FORMAT.md): MurmurHash3 x86 32-bit, seed 42, over the
 * concatenated {@link ValueCodec} encodings of the bucket-key values; bucket =
 * floorMod(hash, buckets). Changing it would move keys between buckets, so it never changes for
 * a format version. Not thread-safe (reuses its buffer).
 */
public final class BucketHasher {
    public static final int SEED = 42;

    private final int[] keyIndexes;
    private final int buckets;
    private final Buffer buffer = new Buffer();
    private final DataOutputStream out = new DataOutputStream(buffer);

    public BucketHasher(int[] keyIndexes, int buckets) {
        this.keyIndexes = keyIndexes;
        this.buckets = buckets;
    }

    public int bucket(Object[] row) {
        if (buckets == 1) {
            return 0;
        }
        return Math.floorMod(hash(row), buckets);
    }

    public int hash(Object[] row) {
        buffer.reset();
        try {
            for (int i : keyIndexes) {
                ValueCodec.writeValue(out, row[i]);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return MurmurHash3.hash32x86(buffer.array(), 0, buffer.size(), SEED);
    }

    /** A ByteArrayOutputStream whose array can be read without copying. */
    private static final class Buffer extends ByteArrayOutputStream {
        byte[] array() {
            return buf;
        }
    }
}
