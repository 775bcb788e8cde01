package io.strata.storage.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridDecoder;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.apache.parquet.io.ParquetDecodingException;
import org.junit.jupiter.api.Test;

/**
 * {@link HybridDecoder} against Parquet's own encoder and decoder, and on hand-made runs: a final
 * run that holds more values than are asked for, or whose padding bytes are missing, decodes the
 * values present and reads no further; data that ends before the values asked for fails.
 */
class HybridDecoderTest {
    /** A sentinel after the end of each hand-made buffer: reading it would be reading past the data. */
    private static final byte SENTINEL = (byte) 0xA5;

    @Test
    void decodesWhatParquetEncodesAndAnyPrefixOfIt() throws IOException {
        for (int seed = 0; seed < 300; seed++) {
            Random rnd = new Random(seed);
            int bitWidth = 1 + rnd.nextInt(32);
            int n = rnd.nextInt(3) == 0 ? rnd.nextInt(20) : rnd.nextInt(3000);
            int[] values = new int[n];
            long bound = 1L << bitWidth;
            for (int i = 0; i < n; ) {
                // runs of a repeated value (RLE runs) mixed with changing values (bit-packed runs)
                int v = (int) ((rnd.nextLong() & Long.MAX_VALUE) % bound);
                int length = rnd.nextBoolean() ? 1 : 1 + rnd.nextInt(40);
                for (int k = 0; k < length && i < n; k++) {
                    values[i++] = v;
                }
            }
            byte[] encoded;
            try (RunLengthBitPackingHybridEncoder enc = new RunLengthBitPackingHybridEncoder(
                    bitWidth, 64, 1 << 20, HeapByteBufferAllocator.getInstance())) {
                for (int v : values) {
                    enc.writeInt(v);
                }
                encoded = enc.toBytes().toByteArray();
            }
            RunLengthBitPackingHybridDecoder parquet =
                    new RunLengthBitPackingHybridDecoder(bitWidth, new ByteArrayInputStream(encoded));
            int[] expected = new int[n];
            for (int i = 0; i < n; i++) {
                expected[i] = parquet.readInt();
            }
            assertThat(expected).as("seed %d: Parquet's own round trip", seed).isEqualTo(values);

            int prefix = n == 0 ? 0 : rnd.nextInt(n + 1);
            for (int m : new int[] {n, prefix}) {
                int[] out = new int[m + 1];
                out[m] = -7;
                ByteBuffer buf = ByteBuffer.wrap(encoded);
                HybridDecoder.decode(buf, bitWidth, out, m);
                assertThat(Arrays.copyOf(out, m))
                        .as("seed %d (bit width %d): the first %d of %d values", seed, bitWidth, m, n)
                        .isEqualTo(Arrays.copyOf(values, m));
                assertThat(out[m]).as("seed %d: out past n", seed).isEqualTo(-7);
            }
        }
    }

    @Test
    void aFinalBitPackedRunWithoutItsPaddingDecodesTheValuesPresent() {
        // one group of 8 3-bit values takes 3 bytes; the 5 values present are 15 bits, 2 bytes
        int packed = 1 | 2 << 3 | 3 << 6 | 4 << 9 | 5 << 12;
        ByteBuffer buf = withSentinel(3, packed & 0xff, packed >>> 8);
        int[] out = new int[5];
        HybridDecoder.decode(buf, 3, out, 5);
        assertThat(out).containsExactly(1, 2, 3, 4, 5);
        assertThat(buf.position()).isEqualTo(3);
    }

    @Test
    void aRunLongerThanTheValuesLeftIsCutAtTheLastValueAskedFor() {
        // RLE: 10 times the value 7, of which 4 are asked for
        ByteBuffer rle = withSentinel(10 << 1, 7);
        int[] out = new int[4];
        HybridDecoder.decode(rle, 3, out, 4);
        assertThat(out).containsExactly(7, 7, 7, 7);
        assertThat(rle.position()).isEqualTo(2);

        // bit-packed: 2 groups of 8-bit values (16 bytes), of which 3 are asked for and read
        ByteBuffer packed = withSentinel(2 << 1 | 1, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26);
        int[] three = new int[3];
        HybridDecoder.decode(packed, 8, three, 3);
        assertThat(three).containsExactly(11, 12, 13);
        assertThat(packed.position()).isEqualTo(4);
    }

    @Test
    void dataThatEndsBeforeTheValuesAskedForFails() {
        // a bit-packed group of 8-bit values with 3 of its bytes present, 5 values asked for
        assertThatThrownBy(() -> HybridDecoder.decode(withSentinel(3, 1, 2, 3), 8, new int[5], 5))
                .isInstanceOf(ParquetDecodingException.class)
                .hasMessageContaining("ends after 0 of 5 values");
        // an RLE run of 16-bit values missing its second value byte
        assertThatThrownBy(() -> HybridDecoder.decode(withSentinel(4 << 1, 9), 16, new int[4], 4))
                .isInstanceOf(ParquetDecodingException.class)
                .hasMessageContaining("ends after 0 of 4 values");
        // runs for 4 values where 6 are asked for: no header for the rest
        assertThatThrownBy(() -> HybridDecoder.decode(withSentinel(4 << 1, 2), 2, new int[6], 6))
                .isInstanceOf(ParquetDecodingException.class)
                .hasMessageContaining("ends after 4 of 6 values");
        // a header cut inside its varint
        assertThatThrownBy(() -> HybridDecoder.decode(withSentinel(0x80), 2, new int[1], 1))
                .isInstanceOf(ParquetDecodingException.class)
                .hasMessageContaining("ends after 0 of 1 values");
        // a header of more than 32 bits
        assertThatThrownBy(
                        () -> HybridDecoder.decode(withSentinel(0xff, 0xff, 0xff, 0xff, 0xff, 0x01), 2, new int[1], 1))
                .isInstanceOf(ParquetDecodingException.class)
                .hasMessageContaining("longer than 5 bytes");
    }

    @Test
    void runsOfNoValuesAreSkipped() {
        // an empty RLE run, an empty bit-packed run, then 3 times the value 1
        ByteBuffer buf = withSentinel(0, 1, 1, 3 << 1, 1);
        int[] out = new int[3];
        HybridDecoder.decode(buf, 1, out, 3);
        assertThat(out).containsExactly(1, 1, 1);
    }

    /** {@code bytes} as a buffer whose limit is just before a {@link #SENTINEL}. */
    private static ByteBuffer withSentinel(int... bytes) {
        byte[] b = new byte[bytes.length + 1];
        for (int i = 0; i < bytes.length; i++) {
            b[i] = (byte) bytes[i];
        }
        b[bytes.length] = SENTINEL;
        return ByteBuffer.wrap(b, 0, bytes.length).slice();
    }
}
