package io.strata.storage.format;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.apache.parquet.bytes.ByteBufferAllocator;

/**
 * The heap buffers Parquet reads column chunks into and writes pages through, recycled instead of
 * left to the garbage collector.
 *
 * <p>Why: those buffers live for a whole file (a reader's column chunks until it is closed, a
 * writer's compressed pages until its row group is flushed), long enough to survive young
 * collections. With fresh buffers every file, each young collection during a compaction copied
 * tens of megabytes of them per rewriting thread and promoted them, and its pauses stopped every
 * rewrite (measured: 40-65 ms pauses with 60-90 MB of survivors on two threads). Recycled buffers
 * are promoted once and then reused, so collections copy only short-lived objects.
 *
 * <p>Contract, Parquet's own for {@link ByteBufferAllocator}: a buffer handed to {@link #release}
 * is not touched again by whoever released it. Buffers of up to {@link #MAX_POOLED} bytes are
 * taken from power-of-two size classes (a buffer's capacity may exceed the request; its limit is
 * the request) and are not zeroed. Only buffers this pool handed out and has not taken back are
 * recycled: releasing one twice in a row, or releasing a foreign buffer (a slice, say), leaves it
 * to the garbage collector and never puts one memory region in the pool twice. (A release after
 * the buffer was lent again cannot be told from its new holder's; Parquet's own tests check that
 * it releases each buffer once.) Readers must close each row group they read (see
 * {@link DataFileReader}); a reader never closed keeps its buffers, as it keeps its file handle.
 *
 * <p>Memory: idle buffers are kept up to a cap (by default a sixteenth of the maximum heap, at most
 * 256 MiB, for all tables of the process); beyond it a released buffer is dropped. Buffers in use
 * are bounded by the work itself: the open readers' column chunks and the open writers' row groups.
 *
 * <p>Thread-safe: one pool serves every reader and writer of the process.
 */
public final class BufferPool implements ByteBufferAllocator {
    /** Requests below this are allocated plainly: not worth tracking. */
    static final int MIN_POOLED = 4 << 10;
    /** Parquet reads column chunks in pieces of at most 8 MiB (its default max allocation). */
    static final int MAX_POOLED = 8 << 20;

    private static final int MIN_SHIFT = Integer.numberOfTrailingZeros(MIN_POOLED);
    private static final int CLASSES = Integer.numberOfTrailingZeros(MAX_POOLED) - MIN_SHIFT + 1;

    /** Set in tests: fill buffers with garbage on allocation and release, so any reliance on zeroed or released memory shows. */
    static final String POISON_PROPERTY = "strata.buffer-pool.poison";

    private static final BufferPool SHARED = new BufferPool(
            Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 16), Boolean.getBoolean(POISON_PROPERTY));

    private final long maxIdleBytes;
    private final boolean poison;
    private final ArrayDeque<ByteBuffer>[] idle;
    private final Set<ByteBuffer> lent = Collections.newSetFromMap(new IdentityHashMap<>());
    private long idleBytes;

    @SuppressWarnings("unchecked")
    BufferPool(long maxIdleBytes, boolean poison) {
        this.maxIdleBytes = maxIdleBytes;
        this.poison = poison;
        this.idle = new ArrayDeque[CLASSES];
        for (int i = 0; i < CLASSES; i++) {
            idle[i] = new ArrayDeque<>();
        }
    }

    /** The process's pool. */
    public static BufferPool shared() {
        return SHARED;
    }

    @Override
    public ByteBuffer allocate(int size) {
        if (size < 0) {
            throw new IllegalArgumentException("negative buffer size " + size);
        }
        if (!pools(size)) {
            return ByteBuffer.allocate(size); // poisoning pools small requests too: tests' files are small
        }
        int c = sizeClass(size);
        ByteBuffer b;
        synchronized (this) {
            b = idle[c].pollLast();
            if (b != null) {
                idleBytes -= b.capacity();
            }
        }
        if (b == null) {
            b = ByteBuffer.allocate(MIN_POOLED << c);
        } else if (poison) {
            fill(b, (byte) 0x5A);
        }
        b.clear().limit(size);
        synchronized (this) {
            lent.add(b);
        }
        return b;
    }

    @Override
    public void release(ByteBuffer b) {
        synchronized (this) {
            if (!lent.remove(b)) {
                return; // not ours, or released already: the garbage collector takes it
            }
        }
        if (poison) {
            fill(b, (byte) 0xA5);
        }
        int c = sizeClass(b.capacity());
        synchronized (this) {
            if (idleBytes + b.capacity() <= maxIdleBytes) {
                idle[c].addLast(b);
                idleBytes += b.capacity();
            }
        }
    }

    @Override
    public boolean isDirect() {
        return false;
    }

    /** A new {@link Scope} on this pool, for one reader. */
    public Scope scope() {
        return new Scope();
    }

    /**
     * The allocator of one reader, which answers for what it borrows: whatever it has not handed
     * back by {@link #close()} goes back then. Needed because Parquet loses track of the buffers of
     * a row group whose reading fails midway (a damaged page header, say): without a scope they
     * would stay lent, referenced by the pool, for the life of the process, once per failed read.
     * Contract of {@link #close()}: nothing reads the scope's buffers any more (the reader is
     * closed). Not thread-safe, like a reader.
     */
    public final class Scope implements ByteBufferAllocator, AutoCloseable {
        private final Set<ByteBuffer> held = Collections.newSetFromMap(new IdentityHashMap<>());

        private Scope() {}

        @Override
        public ByteBuffer allocate(int size) {
            ByteBuffer b = BufferPool.this.allocate(size);
            if (pools(size)) {
                held.add(b);
            }
            return b;
        }

        @Override
        public void release(ByteBuffer b) {
            held.remove(b);
            BufferPool.this.release(b);
        }

        @Override
        public boolean isDirect() {
            return false;
        }

        /** Buffers lent through this scope and not handed back. */
        int held() {
            return held.size();
        }

        @Override
        public void close() {
            for (ByteBuffer b : held) {
                BufferPool.this.release(b);
            }
            held.clear();
        }
    }

    /** Whether a request of {@code size} bytes is served from (and tracked by) the pool. */
    private boolean pools(int size) {
        return size <= MAX_POOLED && (size >= MIN_POOLED || poison);
    }

    /** Bytes held by idle buffers. */
    synchronized long idleBytes() {
        return idleBytes;
    }

    /** Buffers handed out and not yet released. */
    synchronized int lent() {
        return lent.size();
    }

    @Override
    public synchronized String toString() {
        long lentBytes = 0;
        for (ByteBuffer b : lent) {
            lentBytes += b.capacity();
        }
        return "BufferPool{lent=" + lent.size() + " (" + (lentBytes >> 20) + " MiB), idle=" + (idleBytes >> 20)
                + " MiB of " + (maxIdleBytes >> 20) + " MiB}";
    }

    /** The smallest class whose buffers hold {@code size} bytes ({@code size <= MAX_POOLED}). */
    private static int sizeClass(int size) {
        int shift = 32 - Integer.numberOfLeadingZeros(size - 1);
        return Math.max(0, shift - MIN_SHIFT);
    }

    private static void fill(ByteBuffer b, byte value) {
        Arrays.fill(b.array(), b.arrayOffset(), b.arrayOffset() + b.capacity(), value);
    }
}
