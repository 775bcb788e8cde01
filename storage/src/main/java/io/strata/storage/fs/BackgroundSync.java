package io.strata.storage.fs;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Forces closed local data files to disk off the writer's thread. A writer closing a data file
 * hands its descriptor here and goes on with the next bucket while the disk catches up; the
 * commit that names the file waits for that force ({@link #awaitDurable}) before it publishes,
 * so the durability contract is unchanged: a published snapshot never names a file an OS crash
 * could lose. Only the wait moved from the writer to the commit, which usually finds the force
 * long done.
 *
 * <p>While a data file is written, what it holds so far is forced every {@link #FORCE_EVERY}
 * bytes in the background too ({@link #forceWritten}), as RocksDB's {@code bytes_per_sync} does:
 * the disk writes the file back as it grows, and the force after its close, which a commit may be
 * waiting for, has at most that much left to write (measured before: 30-40 ms of a compaction's
 * 60-90 ms commit went to forcing its last 16 MB file). A failed earlier force fails the file's
 * final one: after a failed fsync, a later one may succeed with the data lost.
 *
 * <p>Pending forces are kept per path in this process; a file this process did not write (or
 * whose force finished and was forgotten) is forced again at commit, which costs little for a
 * file that is already on disk. Two daemon threads: the disk, not the CPU, is the limit.
 */
final class BackgroundSync {
    private static final ConcurrentHashMap<Path, CompletableFuture<Void>> PENDING = new ConcurrentHashMap<>();
    private static final AtomicInteger THREADS = new AtomicInteger();
    /** Files handed over so far (tests: which writes were deferred). */
    private static final java.util.concurrent.atomic.AtomicLong HANDED_OVER = new java.util.concurrent.atomic.AtomicLong();
    private static final ExecutorService SYNCER = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "strata-local-fsync-" + THREADS.incrementAndGet());
        t.setDaemon(true);
        return t;
    });

    /** Bytes written to a data file between two background forces of it while it is open. */
    static final long FORCE_EVERY = 4L << 20;
    /** Forces of open files started so far (tests). */
    private static final java.util.concurrent.atomic.AtomicLong WRITTEN_FORCES = new java.util.concurrent.atomic.AtomicLong();
    /** A force that is done: where a file's chain of forces starts. */
    static final CompletableFuture<Void> NONE = CompletableFuture.completedFuture(null);

    private BackgroundSync() {
    }

    /**
     * Starts forcing what {@code out} holds so far, in the background, and returns that force; or
     * returns {@code previous}, this file's last such force, while it still runs or if it failed
     * (kept, so that the final force reports it). Called by the file's writer thread only.
     */
    static CompletableFuture<Void> forceWritten(FileOutputStream out, CompletableFuture<Void> previous) {
        if (!previous.isDone() || previous.isCompletedExceptionally()) {
            return previous;
        }
        WRITTEN_FORCES.incrementAndGet();
        return CompletableFuture.runAsync(() -> {
            try {
                out.getChannel().force(false);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, SYNCER);
    }

    /**
     * Forces {@code out} (the file at {@code path}) to disk and closes it, in the background, once
     * {@code earlier} (its last {@link #forceWritten} force, or {@link #NONE}) is done: the file is
     * never closed under a running force, and fails durability if {@code earlier} failed.
     */
    static void forceAndClose(Path path, FileOutputStream out, CompletableFuture<Void> earlier) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        PENDING.put(path, done);
        HANDED_OVER.incrementAndGet();
        earlier.whenComplete((ignored, earlierFailure) -> SYNCER.execute(() -> {
            try {
                try {
                    if (earlierFailure == null) {
                        out.getChannel().force(false);
                    }
                } finally {
                    out.close();
                }
                if (earlierFailure != null) {
                    done.completeExceptionally(ioCause(earlierFailure)); // kept, like a failure of this force
                    return;
                }
                PENDING.remove(path, done); // forgotten once durable: a later commit forces it again, cheaply
                done.complete(null);
            } catch (Throwable t) {
                done.completeExceptionally(t); // kept: the commit naming the file reports it
            }
        }));
    }

    /** The IOException inside a failed {@link #forceWritten} force. */
    private static Throwable ioCause(Throwable t) {
        Throwable c = t instanceof java.util.concurrent.CompletionException && t.getCause() != null ? t.getCause() : t;
        return c instanceof java.io.UncheckedIOException ? c.getCause() : c;
    }

    /** How many forces of data files still being written were started since the JVM started. */
    static long writtenForces() {
        return WRITTEN_FORCES.get();
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
            ch.force(false);
        } catch (NoSuchFileException gone) {
            // deleted since: nothing to make durable
        }
    }
}
