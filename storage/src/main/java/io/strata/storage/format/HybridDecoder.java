package io.strata.storage.format;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.parquet.io.ParquetDecodingException;

/**
 * Parquet's RLE/bit-packed hybrid encoding, as definition levels and dictionary ids use it: runs of
 * (varint header; header &amp; 1 == 0: one value in ceil(bitWidth/8) little-endian bytes, repeated
 * header &gt;&gt;&gt; 1 times; else (header &gt;&gt;&gt; 1) groups of 8 values bit-packed LSB first).
 */
final class HybridDecoder {
    private HybridDecoder() {}

    /**
     * Decodes the first {@code n} values of {@code buf} into {@code out[0, n)}, reading from buf's
     * position only the bytes those values occupy; buf's position ends just past the last byte
     * read. A run may hold more values than are left (a bit-packed run is whole groups of 8, so
     * the last one is padded): the surplus is neither decoded nor read, so its padding bytes may
     * be missing, as Parquet's own decoder also allows.
     *
     * @throws ParquetDecodingException if buf ends before {@code n} values; out's contents are then
     *                                  unspecified
     */
    static void decode(ByteBuffer buf, int bitWidth, int[] out, int n) {
        if (bitWidth == 0) {
            Arrays.fill(out, 0, n, 0);
            return;
        }
        if (bitWidth < 0 || bitWidth > 32) {
            throw new ParquetDecodingException("bit width " + bitWidth + " out of range");
        }
        int byteWidth = (bitWidth + 7) >>> 3;
        long mask = (1L << bitWidth) - 1;
        int i = 0;
        while (i < n) {
            int header = readHeader(buf, i, n);
            // a run of no values is pointless but harmless: its header byte was consumed
            long runValues = (header & 1) == 0 ? header >>> 1 : (long) (header >>> 1) * 8;
            int take = (int) Math.min(runValues, n - i);
            if ((header & 1) == 0) {
                if (buf.remaining() < byteWidth) {
                    throw truncated(i, n, buf);
                }
                int v = 0;
                for (int b = 0; b < byteWidth; b++) {
                    v |= (buf.get() & 0xff) << (8 * b);
                }
                Arrays.fill(out, i, i + take, v);
                i += take;
            } else {
                if (buf.remaining() < ((long) take * bitWidth + 7) >>> 3) {
                    throw truncated(i, n, buf);
                }
                // bytes are read as the values need them, so exactly ceil(take * bitWidth / 8)
                long acc = 0;
                int bits = 0;
                for (int end = i + take; i < end; i++) {
                    while (bits < bitWidth) {
                        acc |= (long) (buf.get() & 0xff) << bits;
                        bits += 8;
                    }
                    out[i] = (int) (acc & mask);
                    acc >>>= bitWidth;
                    bits -= bitWidth;
                }
            }
        }
    }

    /** A run header: an unsigned varint of at most 32 bits. */
    private static int readHeader(ByteBuffer buf, int decoded, int n) {
        int value = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            if (!buf.hasRemaining()) {
                throw truncated(decoded, n, buf);
            }
            int b = buf.get() & 0xff;
            value |= (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new ParquetDecodingException("hybrid-encoded data: a run header is longer than 5 bytes");
    }

    private static ParquetDecodingException truncated(int decoded, int n, ByteBuffer buf) {
        return new ParquetDecodingException(
                "hybrid-encoded data ends after " + decoded + " of " + n + " values (at byte " + buf.position() + ")");
    }
}
