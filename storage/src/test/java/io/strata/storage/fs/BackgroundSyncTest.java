package io.strata.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.parquet.io.PositionOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Local data files are forced to disk after their close, off the writer's thread: the bytes are
 * there for readers at once, {@code makeDurable} settles them before a commit names them, and
 * nothing about overwriting or missing files changes.
 */
class BackgroundSyncTest {
    @TempDir
    Path dir;

    private FileIO io() {
        return FileIO.forWarehouse(dir.toString(), Map.of());
    }

    /** Records the forces after close and at commit of files under {@code dir}; may hold them until released. */
    private static final class RecordingForces implements BackgroundSync.ForceListener, AutoCloseable {
        private final Path dir;
        final Map<Path, Integer> forced = new ConcurrentHashMap<>();
        final CountDownLatch release = new CountDownLatch(1);
        volatile boolean hold;

        RecordingForces(Path dir) {
            this.dir = dir;
            BackgroundSync.forceListener = this;
        }

        @Override
        public void beforeForce(Path file) throws IOException {
            if (!file.startsWith(dir)) {
                return; // a force another test handed over
            }
            try {
                if (hold && !release.await(30, TimeUnit.SECONDS)) {
                    throw new IOException("test: forces held too long");
                }
            } catch (InterruptedException e) {
                throw new InterruptedIOException();
            }
            forced.merge(file, 1, Integer::sum);
        }

        @Override
        public void close() {
            BackgroundSync.forceListener = BackgroundSync.NO_LISTENER;
            release.countDown();
        }
    }

    /**
     * makeDurable returns only once every file it names has been forced: with the background
     * forces held, it waits; once they run it returns, every file forced. A second call forces
     * each again (a durable file is forgotten), so it is never skipped either.
     */
    @Test
    void aClosedDataFileIsReadableAtOnceAndDurableAfterMakeDurable() throws Exception {
        FileIO io = io();
        byte[] content = new byte[3 << 20];
        new Random(7).nextBytes(content);
        List<org.apache.hadoop.fs.Path> written = new ArrayList<>();
        try (RecordingForces forces = new RecordingForces(dir)) {
            forces.hold = true;
            for (int i = 0; i < 8; i++) {
                org.apache.hadoop.fs.Path p =
                        new org.apache.hadoop.fs.Path(dir.toUri().toString(), "bucket-0/data-" + i);
                try (PositionOutputStream out = io.dataOutputFile(p).create(0)) {
                    out.write(content);
                    assertThat(out.getPos()).isEqualTo(content.length);
                }
                assertThat(io.readFully(p)).as("file %d right after close", i).isEqualTo(content);
                written.add(p);
            }
            CompletableFuture<Void> durable = CompletableFuture.runAsync(() -> {
                try {
                    io.makeDurable(written);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            Thread.sleep(300);
            assertThat(durable)
                    .as("makeDurable returned while the forces of its files were held")
                    .isNotDone();
            assertThat(forces.forced).isEmpty();
            forces.release.countDown();
            durable.get(30, TimeUnit.SECONDS);
            // a file whose background force ended before makeDurable came to it is forced again by makeDurable
            assertThat(forces.forced)
                    .as("each file forced before makeDurable returned")
                    .hasSize(written.size());
            Map<Path, Integer> once = Map.copyOf(forces.forced);

            io.makeDurable(written); // again: forgotten once durable, forced once more, cheaply
            assertThat(forces.forced)
                    .hasSize(written.size())
                    .allSatisfy((file, n) -> assertThat(n).as(file.toString()).isEqualTo(once.get(file) + 1));
        }
        for (org.apache.hadoop.fs.Path p : written) {
            assertThat(io.length(p)).isEqualTo(content.length);
        }
    }

    /**
     * A long data file is forced while it is written, so the force after close (which a commit
     * may wait for) finds little left; the early forces run beside the writes and beside the close
     * and change no byte.
     */
    @Test
    void aLongDataFileIsForcedWhileWrittenAndStaysIntact() throws IOException {
        FileIO io = io();
        byte[] chunk = new byte[64 << 10];
        Random random = new Random(11);
        long before = BackgroundSync.earlyForces();
        List<org.apache.hadoop.fs.Path> written = new ArrayList<>();
        List<byte[]> contents = new ArrayList<>();
        for (int f = 0; f < 4; f++) {
            org.apache.hadoop.fs.Path p =
                    new org.apache.hadoop.fs.Path(dir.toUri().toString(), "bucket-0/long-" + f);
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            try (PositionOutputStream out = io.dataOutputFile(p).create(0)) {
                // 3 x EARLY_FORCE_BYTES and a bit, in writes of uneven sizes
                while (expected.size() < 3 * BackgroundSync.EARLY_FORCE_BYTES + 12_345) {
                    random.nextBytes(chunk);
                    int len = 1 + random.nextInt(chunk.length);
                    out.write(chunk, 0, len);
                    expected.write(chunk, 0, len);
                }
            }
            written.add(p);
            contents.add(expected.toByteArray());
        }
        assertThat(BackgroundSync.earlyForces() - before)
                .as("early forces of four files of 3 x %d bytes", BackgroundSync.EARLY_FORCE_BYTES)
                .isBetween(4L, 12L);
        io.makeDurable(written);
        for (int f = 0; f < written.size(); f++) {
            assertThat(io.readFully(written.get(f))).as("file %d", f).isEqualTo(contents.get(f));
        }
    }

    /**
     * After a failed fsync a later one may succeed with the data lost (the kernel can drop the
     * pages it failed to write): a file whose early force failed is never reported durable.
     */
    @Test
    void aFailedEarlyForceFailsTheFilesDurability() throws IOException {
        Path file = dir.resolve("data-early-force-failed");
        FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        out.write(ByteBuffer.wrap(new byte[] {1, 2, 3}));
        CompletableFuture<Void> failedEarly =
                CompletableFuture.failedFuture(new UncheckedIOException(new IOException("injected: EIO")));
        assertThat(BackgroundSync.forceEarly(out, failedEarly))
                .as("no early force after a failed one")
                .isSameAs(failedEarly);
        BackgroundSync.forceAndClose(file, out, failedEarly);
        assertThatThrownBy(() -> BackgroundSync.awaitDurable(file, "data-early-force-failed"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("data-early-force-failed")
                .hasMessageContaining("an earlier force")
                .hasMessageContaining("injected: EIO");
        assertThatThrownBy(() -> out.write(ByteBuffer.wrap(new byte[] {4})))
                .as("the file was closed all the same")
                .isInstanceOf(IOException.class);
    }

    @Test
    void filesWrittenElsewhereAreForcedAndMissingOnesSkipped() throws IOException {
        FileIO io = io();
        Path other = Files.write(dir.resolve("written-by-another-process"), new byte[] {1, 2, 3});
        try (RecordingForces forces = new RecordingForces(dir)) {
            io.makeDurable(List.of(
                    new org.apache.hadoop.fs.Path(other.toUri()),
                    new org.apache.hadoop.fs.Path(dir.toUri().toString(), "never-written")));
            assertThat(forces.forced)
                    .as("forced by makeDurable itself; the missing file skipped")
                    .isEqualTo(Map.of(other, 1));
        }
        assertThat(Files.readAllBytes(other)).containsExactly(1, 2, 3);
    }

    /** Manifests and manifest lists are written through outputFile: a snapshot names them directly. */
    @Test
    void onlyDataFilesAreForcedInTheBackground() throws IOException {
        FileIO io = io();
        long before = BackgroundSync.handedOver();
        try (OutputStream out = io.outputFile(
                        new org.apache.hadoop.fs.Path(dir.toUri().toString(), "manifest-1"))
                .create(0)) {
            out.write(1);
        }
        assertThat(BackgroundSync.handedOver())
                .as("a file of outputFile is forced at its close")
                .isEqualTo(before);
        try (OutputStream out = io.dataOutputFile(
                        new org.apache.hadoop.fs.Path(dir.toUri().toString(), "data-1"))
                .create(0)) {
            out.write(1);
        }
        assertThat(BackgroundSync.handedOver()).isEqualTo(before + 1);
    }

    @Test
    void aDataFileNeverOverwritesAnExistingOne() throws IOException {
        FileIO io = io();
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(dir.toUri().toString(), "data-x");
        try (OutputStream out = io.dataOutputFile(p).create(0)) {
            out.write(42);
        }
        assertThatThrownBy(() -> io.dataOutputFile(p).create(0)).hasMessageContaining("data-x");
        io.makeDurable(List.of(p));
        assertThat(io.readFully(p)).containsExactly(42);
    }

    /**
     * No syncer thread outlives its work: a class loader that Flink drops after a job must not be
     * kept alive by one. They stop when released and when idle, and a later force starts anew.
     */
    @Test
    void syncerThreadsStopWhenReleasedOrIdleAndStartAgain() throws Exception {
        FileIO io = io();
        org.apache.hadoop.fs.Path first = writeDataFile(io, "data-before-release");
        assertThat(BackgroundSync.liveThreads())
                .as("a force started a syncer thread")
                .isPositive();
        ProcessResources.release();
        assertThat(BackgroundSync.liveThreads()).as("threads after release").isZero();
        io.makeDurable(List.of(first));

        org.apache.hadoop.fs.Path second = writeDataFile(io, "data-after-release");
        io.makeDurable(List.of(second));
        assertThat(io.readFully(second)).containsExactly(7, 7, 7);
        long deadline = System.nanoTime()
                + Duration.ofMillis(BackgroundSync.IDLE_MILLIS * 5).toNanos();
        while (BackgroundSync.liveThreads() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(BackgroundSync.liveThreads())
                .as("threads %d ms after the last force", BackgroundSync.IDLE_MILLIS * 5)
                .isZero();
    }

    private org.apache.hadoop.fs.Path writeDataFile(FileIO io, String name) throws IOException {
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(dir.toUri().toString(), name);
        try (OutputStream out = io.dataOutputFile(p).create(0)) {
            out.write(new byte[] {7, 7, 7});
        }
        return p;
    }
}
