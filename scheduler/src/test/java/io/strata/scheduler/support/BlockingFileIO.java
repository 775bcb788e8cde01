package io.strata.scheduler.support;

import io.strata.storage.fs.DelegatingFileIO;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.apache.hadoop.fs.Path;

/**
 * A local warehouse's FileIO that holds one delete until the test releases it: an operation is
 * stopped at a chosen point of its run, deterministically. Either it reacts to an interrupt of
 * the blocked thread as Hadoop's clients do ({@link InterruptedIOException}, the thread's interrupt
 * status kept), or it ignores interrupts, as a local {@code unlink} that hangs would. Everything
 * else goes to the real FileIO.
 */
public final class BlockingFileIO extends DelegatingFileIO {
    private final AtomicReference<Block> armed = new AtomicReference<>();

    public BlockingFileIO(String warehouse) {
        super(warehouse);
    }

    /** One held delete: reached once the operation is blocked in it. */
    public static final class Block {
        private final Predicate<Path> which;
        private final int nth;
        private final boolean interruptible;
        private final AtomicInteger matched = new AtomicInteger();
        private final CountDownLatch reached = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);
        private final CountDownLatch interrupted = new CountDownLatch(1);
        private volatile Path held;
        private volatile Thread holder;

        private Block(Predicate<Path> which, int nth, boolean interruptible) {
            this.which = which;
            this.nth = nth;
            this.interruptible = interruptible;
        }

        /** Waits until an operation is blocked in the delete; returns the file it deletes. */
        public Path awaitReached(Duration timeout) throws InterruptedException {
            if (!reached.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("no delete matching the block within " + timeout);
            }
            return held;
        }

        /** The thread held in the delete, once reached. */
        public Thread holder() {
            return holder;
        }

        /** Lets the delete go on (or, after an interrupt of an interruptible block, nothing). */
        public void release() {
            released.countDown();
        }

        /** Whether the blocked thread was interrupted while it waited. */
        public boolean wasInterrupted() {
            return interrupted.getCount() == 0;
        }

        private void hold(Path path) throws InterruptedIOException {
            held = path;
            holder = Thread.currentThread();
            reached.countDown();
            boolean interrupt = false;
            try {
                while (true) {
                    try {
                        released.await();
                        return;
                    } catch (InterruptedException e) {
                        interrupted.countDown();
                        interrupt = true;
                        if (interruptible) {
                            InterruptedIOException x =
                                    new InterruptedIOException("interrupted while deleting " + path + " (held)");
                            x.initCause(e);
                            throw x;
                        }
                    }
                }
            } finally {
                if (interrupt) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** Holds the {@code nth} (1-based) delete from now of a file {@code which} accepts. */
    public Block blockDelete(Predicate<Path> which, int nth, boolean interruptible) {
        Block b = new Block(which, nth, interruptible);
        if (!armed.compareAndSet(null, b)) {
            throw new IllegalStateException("a delete is already blocked");
        }
        return b;
    }

    @Override
    public boolean delete(Path path) throws IOException {
        Block b = armed.get();
        if (b != null && b.which.test(path) && b.matched.incrementAndGet() == b.nth && armed.compareAndSet(b, null)) {
            b.hold(path);
        }
        return local.delete(path);
    }
}
