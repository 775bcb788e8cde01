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

    private BackgroundSync() {
    }

    /** Forces {@code out} (the file at {@code path}) to disk and closes it, in the background. */
    static void forceAndClose(Path path, FileOutputStream out) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        PENDING.put(path, done);
        HANDED_OVER.incrementAndGet();
        SYNCER.execute(() -> {
            try {
                try {
                    out.getChannel().force(false);
                } finally {
                    out.close();
                }
                PENDING.remove(path, done); // forgotten once durable: a later commit forces it again, cheaply
                done.complete(null);
            } catch (Throwable t) {
                done.completeExceptionally(t); // kept: the commit naming the file reports it
            }
        });
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
