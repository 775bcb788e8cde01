package io.strata.storage.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.fs.CommitLockTest;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.system.FilesTable;
import io.strata.storage.testutil.SchemedLocalFileSystem;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.Progressable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Closing a writer while its inline compaction writes a file stops the compaction without
 * interrupting its thread (an interrupt while Parquet writes a column chunk can deadlock in the
 * JDK), returns, and leaves no file that the table does not reference.
 */
class CloseDuringCompactionTest {
    /** Writes made by a thread whose interrupt flag was set; and the first write of a compaction. */
    static final AtomicInteger INTERRUPTED_WRITES = new AtomicInteger();

    static volatile CountDownLatch compactionWriting = new CountDownLatch(1);

    @TempDir
    java.nio.file.Path dir;

    /** The local disk, watching who writes: counts writes of interrupted threads. */
    public static final class WatchingFileSystem extends SchemedLocalFileSystem {
        @Override
        public FSDataOutputStream create(
                Path f, boolean overwrite, int bufferSize, short replication, long blockSize, Progressable progress)
                throws IOException {
            FSDataOutputStream out = super.create(f, overwrite, bufferSize, replication, blockSize, progress);
            return new FSDataOutputStream(new Watching(out), null, out.getPos());
        }
    }

    private static final class Watching extends OutputStream {
        private final OutputStream out;

        Watching(OutputStream out) {
            this.out = out;
        }

        private static void check() {
            if (Thread.currentThread().isInterrupted()) {
                INTERRUPTED_WRITES.incrementAndGet();
            }
            if (Thread.currentThread().getName().startsWith("strata-compaction")) {
                compactionWriting.countDown();
            }
        }

        @Override
        public void write(int b) throws IOException {
            check();
            out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            check();
            out.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            check();
            out.close();
        }
    }

    @Test
    void closeStopsARunningCompactionWithoutInterruptAndLeavesNoFileBehind() throws Exception {
        INTERRUPTED_WRITES.set(0);
        compactionWriting = new CountDownLatch(1);
        Configuration conf = new Configuration();
        conf.set("fs.watch.impl", WatchingFileSystem.class.getName());
        conf.setBoolean("fs.watch.impl.disable.cache", true);
        java.nio.file.Path root = dir.resolve("wh");
        FileStoreTable t = Catalog.open("watch://" + root.toAbsolutePath(), conf)
                .createTable(
                        "db",
                        "t",
                        Schema.newBuilder()
                                .column("k", "BIGINT")
                                .column("v", "STRING")
                                .primaryKey("k")
                                .option("bucket", "1")
                                .option("num-sorted-run.compaction-trigger", "2")
                                .option("commit.lock.class", CommitLockTest.JvmLock.class.getName())
                                .build());
        TableWrite write = t.newWrite("w");
        ExecutorService closer = Executors.newSingleThreadExecutor();
        try (TableCommit commit = t.newCommit("w")) {
            for (int c = 1; c <= 3 && compactionWriting.getCount() > 0; c++) {
                for (long k = 0; k < 200_000; k++) {
                    write.write(GenericRow.insert(k, "value " + k + " of commit " + c));
                }
                commit.commit(c, write.prepareCommit());
            }
            assertThat(compactionWriting.await(60, TimeUnit.SECONDS))
                    .as("an inline compaction started writing")
                    .isTrue();
            Future<?> closing = closer.submit(write::close);
            closing.get(2, TimeUnit.MINUTES); // a deadlocked close fails here instead of hanging the suite
        } finally {
            closer.shutdown();
        }
        assertThat(INTERRUPTED_WRITES.get())
                .as("writes by an interrupted thread")
                .isZero();
        Set<String> referenced =
                FilesTable.rows(t, null).stream().map(r -> r.file.fileName()).collect(Collectors.toSet());
        Set<String> onDisk;
        try (Stream<java.nio.file.Path> files = Files.walk(root)) {
            onDisk = files.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("data-") && n.endsWith(".parquet"))
                    .collect(Collectors.toSet());
        }
        assertThat(onDisk).as("data files on disk, after the close").isEqualTo(referenced);
    }
}
