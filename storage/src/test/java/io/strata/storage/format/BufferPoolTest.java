package io.strata.storage.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The pool's contract: buffers shaped as Parquet asks, recycled only when released by their
 * holder, never lent to two holders at once (not after a double release, not for a foreign
 * buffer, not under concurrent use), idle memory capped.
 */
class BufferPoolTest {
    private static final int KB = 1024;

    @Test
    void buffersHaveTheRequestedLimitAndAreRecycledWhenReleased() {
        BufferPool pool = new BufferPool(1 << 20, false);
        ByteBuffer a = pool.allocate(5000);
        assertThat(a.position()).isZero();
        assertThat(a.limit()).isEqualTo(5000);
        assertThat(a.capacity()).isEqualTo(8 * KB);
        assertThat(a.isDirect()).isFalse();
        a.put(new byte[100]).flip();
        pool.release(a);
        assertThat(pool.idleBytes()).isEqualTo(8 * KB);

        ByteBuffer b = pool.allocate(8 * KB);
        assertThat(b).isSameAs(a);
        assertThat(b.position()).isZero();
        assertThat(b.limit()).isEqualTo(8 * KB);
        assertThat(pool.idleBytes()).isZero();
        assertThat(pool.lent()).isEqualTo(1);
    }

    @Test
    void smallAndLargeRequestsAreNotPooled() {
        BufferPool pool = new BufferPool(64 << 20, false);
        ByteBuffer small = pool.allocate(BufferPool.MIN_POOLED - 1);
        ByteBuffer large = pool.allocate(BufferPool.MAX_POOLED + 1);
        assertThat(small.capacity()).isEqualTo(BufferPool.MIN_POOLED - 1);
        assertThat(large.capacity()).isEqualTo(BufferPool.MAX_POOLED + 1);
        pool.release(small);
        pool.release(large);
        assertThat(pool.idleBytes()).isZero();
        assertThat(pool.lent()).isZero();
        assertThatThrownBy(() -> pool.allocate(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void releasingTwiceInARowPoolsTheBufferOnce() {
        BufferPool pool = new BufferPool(1 << 20, false);
        ByteBuffer a = pool.allocate(16 * KB);
        pool.release(a);
        pool.release(a);
        assertThat(pool.idleBytes()).isEqualTo(16 * KB);
        ByteBuffer b = pool.allocate(16 * KB);
        ByteBuffer c = pool.allocate(16 * KB);
        assertThat(b).isSameAs(a);
        assertThat(c).isNotSameAs(b);
    }

    @Test
    void foreignBuffersAndSlicesAreLeftToTheGarbageCollector() {
        BufferPool pool = new BufferPool(1 << 20, false);
        pool.release(ByteBuffer.allocate(16 * KB));
        ByteBuffer a = pool.allocate(32 * KB);
        pool.release(a.slice(0, 16 * KB));
        pool.release(a.duplicate());
        assertThat(pool.idleBytes()).isZero();
        assertThat(pool.lent()).isEqualTo(1);
        pool.release(a);
        assertThat(pool.idleBytes()).isEqualTo(32 * KB);
    }

    @Test
    void aScopeHandsBackWhatItsHolderNeverReleasedWhenItCloses() {
        BufferPool pool = new BufferPool(1 << 20, false);
        BufferPool.Scope scope = pool.scope();
        ByteBuffer kept = scope.allocate(8 * KB);
        ByteBuffer lost = scope.allocate(16 * KB);
        ByteBuffer small = scope.allocate(100);
        scope.release(kept);
        assertThat(scope.held())
                .as("released through the scope; a small buffer is never tracked")
                .isEqualTo(1);
        assertThat(pool.lent()).isEqualTo(1);
        scope.close();
        assertThat(pool.lent())
                .as("the buffer its holder lost went back at close")
                .isZero();
        assertThat(pool.idleBytes()).isEqualTo(8 * KB + 16 * KB);
        assertThat(pool.allocate(16 * KB)).as("and is lent again").isSameAs(lost);
        assertThat(small.capacity()).isEqualTo(100);
        scope.close(); // closing twice hands nothing back twice
        assertThat(pool.lent()).isEqualTo(1);
    }

    @Test
    void idleMemoryIsCapped() {
        BufferPool pool = new BufferPool(20 * KB, false);
        List<ByteBuffer> lent = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            lent.add(pool.allocate(8 * KB));
        }
        lent.forEach(pool::release);
        assertThat(pool.idleBytes()).isEqualTo(16 * KB);
        assertThat(pool.lent()).isZero();
    }

    @Test
    void poisoningOverwritesReleasedAndRecycledBuffers() {
        BufferPool pool = new BufferPool(1 << 20, true);
        ByteBuffer a = pool.allocate(4 * KB);
        a.put(0, (byte) 1);
        pool.release(a);
        assertThat(a.array()[0]).isEqualTo((byte) 0xA5); // a holder reading after release sees garbage
        ByteBuffer b = pool.allocate(4 * KB);
        assertThat(b).isSameAs(a);
        assertThat(b.array()[4 * KB - 1]).isEqualTo((byte) 0x5A); // and nobody may rely on zeroed memory

        ByteBuffer small = pool.allocate(100); // small requests are pooled (and so poisoned) too
        assertThat(small.limit()).isEqualTo(100);
        pool.release(small);
        assertThat(small.array()[0]).isEqualTo((byte) 0xA5);
    }

    /** Four threads allocate, fill with their own mark, hold, check and release at random: no buffer is ever shared. */
    @Test
    void concurrentHoldersNeverShareABuffer() throws Exception {
        BufferPool pool = new BufferPool(1 << 20, false);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                long seed = 17 + t;
                byte mark = (byte) (t + 1);
                done.add(threads.submit(() -> {
                    Random rnd = new Random(seed);
                    Map<ByteBuffer, Boolean> held = new IdentityHashMap<>();
                    List<ByteBuffer> order = new ArrayList<>();
                    for (int i = 0; i < 20_000; i++) {
                        if (order.isEmpty() || (order.size() < 8 && rnd.nextBoolean())) {
                            ByteBuffer b = pool.allocate(BufferPool.MIN_POOLED << rnd.nextInt(3));
                            assertThat(held.put(b, true))
                                    .as("seed %d: lent twice to one holder", seed)
                                    .isNull();
                            Arrays.fill(b.array(), 0, b.limit(), mark);
                            order.add(b);
                        } else {
                            ByteBuffer b = order.remove(rnd.nextInt(order.size()));
                            for (int j = 0; j < b.limit(); j += 257) {
                                assertThat(b.get(j))
                                        .as("seed %d: buffer written by another holder", seed)
                                        .isEqualTo(mark);
                            }
                            held.remove(b);
                            pool.release(b);
                        }
                    }
                    order.forEach(pool::release);
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            threads.shutdownNow();
        }
        assertThat(pool.lent()).isZero();
    }
}
