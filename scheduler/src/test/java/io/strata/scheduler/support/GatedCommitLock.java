package io.strata.scheduler.support;

import io.strata.storage.fs.CommitLock;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A commit lock for tables whose committers all run in this JVM (the test's writer and the embedded
 * Flink compaction job, through {@code commit.lock.class}), with a gate a test can close in front of
 * the next commit: the committer waits there, before it takes the lock and publishes anything, until
 * the test opens the gate, or is interrupted (Flink cancelling the job), and then commits nothing.
 */
public final class GatedCommitLock implements CommitLock {
    private static final ReentrantLock LOCK = new ReentrantLock();
    private static final AtomicReference<Gate> NEXT = new AtomicReference<>();

    /** The gate in front of one commit. */
    public static final class Gate {
        private final CountDownLatch reached = new CountDownLatch(1);
        private final CountDownLatch opened = new CountDownLatch(1);
        private final CountDownLatch interrupted = new CountDownLatch(1);
        private volatile boolean abandoned;
        private volatile String table;

        /** Waits until a committer waits at the gate; returns its table's location. */
        public String awaitReached(Duration timeout) throws InterruptedException {
            if (!reached.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("no commit reached the gate within " + timeout);
            }
            return table;
        }

        /** Waits until the committer at the gate was interrupted (and so committed nothing). */
        public boolean awaitInterrupted(Duration timeout) throws InterruptedException {
            return interrupted.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }

        /** Lets the commit go on. */
        public void open() {
            opened.countDown();
        }

        /** Makes a committer still waiting fail instead of committing (the test is over). */
        public void abandon() {
            abandoned = true;
            opened.countDown();
        }

        private void pass(String tableLocation) throws InterruptedException {
            table = tableLocation;
            reached.countDown();
            try {
                opened.await();
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
            if (abandoned) {
                throw new IllegalStateException("the commit of " + tableLocation + " was abandoned at the gate");
            }
        }
    }

    /** Closes a gate in front of the next commit of any table under this lock. */
    public static Gate closeBeforeNextCommit() {
        Gate g = new Gate();
        if (!NEXT.compareAndSet(null, g)) {
            throw new IllegalStateException("a gate is already closed");
        }
        return g;
    }

    /** Removes a gate no commit reached yet, if there is one. */
    public static void clear() {
        Gate g = NEXT.getAndSet(null);
        if (g != null) {
            g.abandon();
        }
    }

    @Override
    public <T> T runExclusive(String tableLocation, Callable<T> action) throws Exception {
        Gate g = NEXT.getAndSet(null);
        if (g != null) {
            g.pass(tableLocation);
        }
        LOCK.lockInterruptibly();
        try {
            return action.call();
        } finally {
            LOCK.unlock();
        }
    }
}
