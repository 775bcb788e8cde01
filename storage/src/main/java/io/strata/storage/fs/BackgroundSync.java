package io.strata.storage.fs;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Forces closed local data files to disk off the writer's thread. A writer closing a data file
 * hands its descriptor here and goes on with the next bucket while the disk catches up; the
 * commit that names the file waits for that force ({@link #awaitDurable}) before it publishes,
 * so the durability contract is unchanged: a published snapshot never names a file an OS crash
 * could lose. Only the wait moved from the writer to the commit, which usually finds the force
 * long done.
 *
 * <p>A long file is also forced while it is written, every {@link #EARLY_FORCE_BYTES} (an early
 * force, which settles nothing), so that little is left to write when the force after close runs.
 *
 * <p>Pending forces are kept per path in this process; a file this process did not write (or
 * whose force finished and was forgotten) is forced again at commit, which costs little for a
 * file that is already on disk. At most two daemon threads: the disk, not the CPU, is the limit.
 *
 * <p>The threads exist only while there is work: each stops after {@link #IDLE_MILLIS} without a
 * force, and {@link #shutdown} stops them at once after the forces already handed over. Code that
 * a Flink session cluster loads and unloads all day runs here, and a thread that outlived a job
 * would keep the job's whole class loader (every class it loaded, its metaspace) reachable for
 * ever; a later force simply starts new threads.
 */
final class BackgroundSync {
    private static final ConcurrentHashMap<Path, CompletableFuture<Void>> PENDING = new ConcurrentHashMap<>();
    private static final AtomicInteger THREADS = new AtomicInteger();
    /** Files handed over so far (tests: which writes were deferred). */
    private static final AtomicLong HANDED_OVER = new AtomicLong();
    /** Early forces started so far (tests: that long files get them). */
    private static final AtomicLong EARLY_FORCES = new AtomicLong();

    /**
     * Tests: told the path of every file about to be forced after its close or at commit (not of
     * early forces, which settle nothing), on the thread that forces it; may block or throw, as the
     * force would.
     */
    interface ForceListener {
        void beforeForce(Path file) throws IOException;
    }

    static final ForceListener NO_LISTENER = file -> {};

    /** Tests set it and put back {@link #NO_LISTENER}. */
    static volatile ForceListener forceListener = NO_LISTENER;

    /** How long an idle syncer thread waits for the next force before it stops. */
    static final long IDLE_MILLIS = 2_000;

    /** The running syncer, or null while none runs. Guarded by the class. */
    private static Syncer syncer;

    /**
     * The pool of syncer threads, which knows its threads so that a shutdown waits until they have
     * exited, not only finished (a terminated pool's workers are still on their way out). The
     * threads are the pool's own: dropped with it, never held by anything static.
     */
    private static final class Syncer extends ThreadPoolExecutor {
        private final Set<Thread> threads = ConcurrentHashMap.newKeySet();

        Syncer() {
            super(2, 2, IDLE_MILLIS, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>());
            setThreadFactory(r -> {
                Thread t = new Thread(r, "strata-local-fsync-" + THREADS.incrementAndGet());
                t.setDaemon(true);
                threads.removeIf(x -> !x.isAlive());
                threads.add(t);
                return t;
            });
            allowCoreThreadTimeOut(true);
        }

        /** Waits until the terminated pool's threads have exited, up to {@code deadline} (nanoTime). */
        boolean joinThreads(long deadline) throws InterruptedException {
            for (Thread t : threads) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left > 0) {
                    t.join(left);
                }
            }
            threads.removeIf(t -> !t.isAlive());
            return threads.isEmpty();
        }
    }

    private BackgroundSync() {}

    /**
     * Bytes a data file may gain before its writer asks for an early force ({@link
     * #forceEarly}), like RocksDB's {@code bytes_per_sync}. Without it the operating system keeps
     * a whole freshly written file in its page cache (it writes back after about 30 s), and the
     * force after close, which the commit waits for when the file is among the last written, has
     * to write all of it: about 45 ms for the 16 MB a bucket's full compaction writes on this
     * project's disks, at the end of every compaction, in its serial tail. With early forces at
     * most this much is left for the last one.
     *
     * <p>Files of a few MB (write-only ingestion's level-0 files, about 4 MB in the standard
     * workload) get one or two; ingestion measured no slower for it, and starting only at 8 MiB
     * gave the job's commit less (bench/RESULTS.md, session 7).
     */
    static final long EARLY_FORCE_BYTES = 2L << 20;

    /** A file's early force before its first one: done, so the next one may start. */
    static final CompletableFuture<Void> NO_EARLY_FORCE = CompletableFuture.completedFuture(null);

    /**
     * Starts forcing what has been written to {@code out} so far, in the background, unless the
     * previous early force of the file ({@code previous}, {@link #NO_EARLY_FORCE} for none) is
     * still running or failed; returns the force now running, or that previous one. An early force only moves disk
     * writes earlier and settles nothing, but its failure is kept: the file's force after close
     * then fails too, because after a failed fsync the kernel may have dropped the pages it could
     * not write, and a later fsync can succeed with the data lost.
     */
    static CompletableFuture<Void> forceEarly(FileChannel out, CompletableFuture<Void> previous) {
        if (!previous.isDone() || previous.isCompletedExceptionally()) {
            return previous;
        }
        EARLY_FORCES.incrementAndGet();
        CompletableFuture<Void> force = new CompletableFuture<>();
        submit(() -> {
            try {
                out.force(false);
                force.complete(null);
            } catch (Throwable t) {
                force.completeExceptionally(t);
            }
        });
        return force;
    }

    /**
     * Forces {@code out} (the file at {@code path}) to disk and closes it, in the background, after
     * the file's last early force {@code early} ({@link #NO_EARLY_FORCE} for none) has finished:
     * never beside it, so the file is not closed under it, and never blocking a syncer thread to
     * wait for it. If the early
     * force failed, the file is closed unforced and its durability fails with that failure.
     */
    static void forceAndClose(Path path, FileChannel out, CompletableFuture<Void> early) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        PENDING.put(path, done);
        HANDED_OVER.incrementAndGet();
        Consumer<Throwable> forceAndClose = earlyFailure -> {
            try {
                try {
                    if (earlyFailure != null) {
                        throw new IOException(
                                "an earlier force of the file while it was written failed (a later "
                                        + "one cannot prove its data is on disk): " + ioCause(earlyFailure),
                                ioCause(earlyFailure));
                    }
                    forceListener.beforeForce(path);
                    out.force(false);
                } finally {
                    out.close();
                }
                PENDING.remove(path, done); // forgotten once durable: a later commit forces it again, cheaply
                done.complete(null);
            } catch (Throwable t) {
                done.completeExceptionally(t); // kept: the commit naming the file reports it
            }
        };
        // Submitted once the early force is done, never chained onto the executor itself: a
        // shutdown in between must not reject the force (submit starts a new syncer instead).
        early.whenComplete((v, failure) -> submit(() -> forceAndClose.accept(failure)));
    }

    /** Runs {@code force} on the syncer, starting one if none runs. */
    private static synchronized void submit(Runnable force) {
        if (syncer == null) {
            syncer = new Syncer();
        }
        syncer.execute(force);
    }

    /**
     * Stops the syncer threads once the forces already handed to them are done, waiting at most
     * {@code timeout}; returns whether they stopped in time. Forces handed over later start new
     * threads. See {@link ProcessResources#release}.
     */
    static boolean shutdown(Duration timeout) throws InterruptedException {
        Syncer s;
        synchronized (BackgroundSync.class) {
            s = syncer;
            syncer = null;
        }
        if (s == null) {
            return true;
        }
        s.shutdown();
        long deadline = System.nanoTime() + timeout.toNanos();
        return s.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS) && s.joinThreads(deadline);
    }

    /** Syncer threads alive now (tests). */
    static int liveThreads() {
        int n = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("strata-local-fsync-") && t.isAlive()) {
                n++;
            }
        }
        return n;
    }

    /** The IOException inside a failed early force. */
    private static Throwable ioCause(Throwable t) {
        Throwable c = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
        return c instanceof UncheckedIOException && c.getCause() != null ? c.getCause() : c;
    }

    static long earlyForces() {
        return EARLY_FORCES.get();
    }

    /** How many files were handed over for a background force since the JVM started. */
    static long handedOver() {
        return HANDED_OVER.get();
    }

    /** Returns once the file at {@code path} is on disk; {@code name} is how errors call it. */
    static void awaitDurable(Path path, String name) throws IOException {
        CompletableFuture<Void> pending = PENDING.get(path);
        if (pending != null) {
            try {
                pending.get();
                PENDING.remove(path, pending);
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while forcing " + name + " to disk");
            } catch (ExecutionException e) {
                PENDING.remove(path, pending);
                throw new IOException("cannot force data file " + name + " to disk: " + e.getCause(), e.getCause());
            }
        }
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            forceListener.beforeForce(path);
            ch.force(false);
        } catch (NoSuchFileException gone) {
            // deleted since: nothing to make durable
        }
    }
}
