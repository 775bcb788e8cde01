package io.strata.storage.format;

import com.github.luben.zstd.Zstd;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopCodecs;

/**
 * The codec factory of one {@link DataFileReader}: Zstandard pages are decompressed in one call
 * into a buffer of the reader's {@link BufferPool.Scope}, other codecs go through Parquet's Hadoop
 * codecs.
 *
 * <p>Why: Parquet's heap decompressor inflates every page through a stream into a new array; a
 * compaction allocated about 130 MB of them, a sixth of all it allocates, and paid for the stream
 * besides. A page is only needed until its decoder has taken its last value, so its buffer can be
 * recycled at once.
 *
 * <p>Protocol, all on the reader's thread: a page read from Parquet's page reader
 * ({@code readPage}, {@code readDictionaryPage}) is decompressed synchronously inside that call, so
 * right after it the caller {@link #takePage() takes} the buffer the page's bytes live in and owns
 * it: it {@link #giveBack gives it back} when no value it hands out can still be read from it (the
 * values it returns are copies). Pages of other codecs have no such buffer ({@link #takePage()} is
 * null). A buffer never taken or never given back (a read failed midway) goes back when the
 * reader closes its scope.
 */
final class PageDecompression implements CompressionCodecFactory {
    private final Configuration conf;
    private final BufferPool.Scope buffers;
    private CompressionCodecFactory hadoop;
    private final ZstdPages zstd = new ZstdPages();
    /** Lent by the last decompression and not yet taken. */
    private ByteBuffer untaken;

    PageDecompression(Configuration conf, BufferPool.Scope buffers) {
        this.conf = conf;
        this.buffers = buffers;
    }

    /** The pool buffer that holds the page just read, now the caller's to release; null when it has none. */
    ByteBuffer takePage() {
        ByteBuffer b = untaken;
        untaken = null;
        return b;
    }

    /** Hands back a buffer {@link #takePage() taken} (null: nothing); its page is not read again. */
    void giveBack(ByteBuffer page) {
        if (page != null) {
            buffers.release(page);
        }
    }

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
        return hadoop().getCompressor(codec);
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
        return codec == CompressionCodecName.ZSTD ? zstd : hadoop().getDecompressor(codec);
    }

    @Override
    public void release() {
        if (hadoop != null) {
            hadoop.release();
        }
    }

    private CompressionCodecFactory hadoop() {
        if (hadoop == null) {
            hadoop = HadoopCodecs.newFactory(conf, 0);
        }
        return hadoop;
    }

    private final class ZstdPages implements BytesInputDecompressor {
        @Override
        public BytesInput decompress(BytesInput compressed, int uncompressedSize) throws IOException {
            untaken = null; // a page whose reading failed after decompression: the scope has its buffer
            ByteBuffer in = compressed.toByteBuffer();
            byte[] src;
            int srcOffset;
            int srcLength = in.remaining();
            if (in.hasArray()) {
                src = in.array();
                srcOffset = in.arrayOffset() + in.position();
            } else {
                src = new byte[srcLength];
                in.duplicate().get(src);
                srcOffset = 0;
            }
            if (uncompressedSize < 0) {
                throw new IOException("page header gives a negative uncompressed size " + uncompressedSize);
            }
            ByteBuffer out = buffers.allocate(uncompressedSize);
            try {
                decompressInto(src, srcOffset, srcLength, out.array(), out.arrayOffset(), uncompressedSize);
            } catch (IOException e) {
                buffers.release(out);
                throw e;
            }
            untaken = out;
            return BytesInput.from(out.array(), out.arrayOffset(), uncompressedSize);
        }

        @Override
        public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
                throws IOException {
            // Parquet calls this for direct buffers only, which this reader never configures
            byte[] src = new byte[compressedSize];
            input.duplicate().get(src);
            byte[] dst = new byte[uncompressedSize];
            decompressInto(src, 0, compressedSize, dst, 0, uncompressedSize);
            output.put(dst);
        }

        @Override
        public void release() {}
    }

    /** One Zstandard frame sequence into exactly {@code size} bytes of {@code dst}, or an IOException saying why not. */
    private static void decompressInto(byte[] src, int srcOffset, int srcLength, byte[] dst, int dstOffset, int size)
            throws IOException {
        long n = Zstd.decompressByteArray(dst, dstOffset, size, src, srcOffset, srcLength);
        if (Zstd.isError(n) || n != size) {
            throw new IOException(
                    Zstd.isError(n)
                            ? "zstd page does not decompress: " + Zstd.getErrorName(n)
                            : "zstd page decompresses to " + n + " bytes, its header says " + size);
        }
    }
}
