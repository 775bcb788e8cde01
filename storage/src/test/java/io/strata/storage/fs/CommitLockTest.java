package io.strata.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.options.TableOptions;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.LongStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The object-store path: with {@code commit.lock.class} snapshots are published under the lock
 * (check absent, single write); without it, a file system with no trusted primitive is refused.
 */
public class CommitLockTest {
    @TempDir
    Path dir;

    /** A JVM-wide lock: enough to test the publisher's contract inside one process. */
    public static final class JvmLock implements CommitLock {
        static final ReentrantLock LOCK = new ReentrantLock();
        static final AtomicInteger USES = new AtomicInteger();

        @Override
        public <T> T runExclusive(String tableLocation, Callable<T> action) throws Exception {
            LOCK.lock();
            try {
                USES.incrementAndGet();
                return action.call();
            } finally {
                LOCK.unlock();
            }
        }
    }

    @Test
    void racingCommittersUnderACommitLockLoseNothing() throws Exception {
        FileStoreTable t = Catalog.open(dir.toString())
                .createTable(
                        "db",
                        "locked",
                        Schema.newBuilder()
                                .column("p", "INT")
                                .column("id", "BIGINT")
                                .primaryKey("p", "id")
                                .partitionKeys("p")
                                .option("bucket", "1")
                                .option("write-only", "true")
                                .option("commit.lock.class", JvmLock.class.getName())
                                .option("commit.max-retries", "100")
                                .build());
        assertThat(t.publisher().describe()).contains(JvmLock.class.getName());
        int before = JvmLock.USES.get();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int w = 0; w < 3; w++) {
                int writer = w;
                futures.add(pool.submit(() -> {
                    try (TableWrite write = t.newWrite("w" + writer);
                            TableCommit commit = t.newCommit("w" + writer)) {
                        for (long c = 1; c <= 5; c++) {
                            write.write(GenericRow.insert(writer, c));
                            commit.commit(c, write.prepareCommit());
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(t.snapshotManager().listIds())
                .hasSize(15)
                .containsExactlyElementsOf(LongStream.rangeClosed(1, 15).boxed().toList());
        assertThat(TestTables.scan(t)).hasSize(15);
        assertThat(JvmLock.USES.get() - before)
                .as("every publish went through the lock")
                .isGreaterThanOrEqualTo(15);
    }

    @Test
    void aFileSystemWithoutATrustedPrimitiveIsRefusedWithTheOptionToSet() {
        // a non-HDFS Hadoop file system: the raw local one under a scheme Strata does not trust for commits
        Configuration conf = new Configuration();
        conf.set("fs.untrusted.impl", RawLocalFileSystem.class.getName());
        conf.setBoolean("fs.untrusted.impl.disable.cache", true);
        FileIO io = FileIO.forWarehouse("untrusted:///" + dir.toAbsolutePath(), conf);
        assertThatThrownBy(() -> Publishers.forTable(io, "untrusted:///wh/db.db/t", TableOptions.empty()))
                .hasMessageContaining("untrusted")
                .hasMessageContaining("commit.lock.class")
                .hasMessageContaining("commit.lock.jdbc.url");
        assertThat(Publishers.forTable(io, "untrusted:///wh/db.db/t", lockClass(JvmLock.class.getName()))
                        .describe())
                .contains("lock");
        assertThatThrownBy(() -> Publishers.forTable(io, "t", lockClass("no.such.Lock")))
                .hasMessageContaining("no.such.Lock");
        assertThatThrownBy(() -> Publishers.forTable(
                        io,
                        "t",
                        TableOptions.validate(
                                "t",
                                Map.of(
                                        "commit.lock.class",
                                        JvmLock.class.getName(),
                                        "commit.lock.jdbc.url",
                                        "jdbc:h2:mem:x"))))
                .hasMessageContaining("not both");
    }

    private static TableOptions lockClass(String name) {
        return TableOptions.validate("t", Map.of("commit.lock.class", name));
    }
}
