package io.strata.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.schema.Schema;
import io.strata.storage.snapshot.SnapshotManager;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.SchemedLocalFileSystem;
import io.strata.storage.testutil.TestTables;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The LATEST hint on a file system whose rename refuses an existing target by throwing, as S3A's
 * does: it must move with every commit, and finding the latest snapshot must not probe every id
 * when it is stale. Run under the scheme {@code s3a} (the hint is replaced by one PUT with
 * overwrite) and under a scheme Strata does not know as an object store (temp file and rename).
 */
class LatestHintTest {
    @TempDir
    Path dir;

    /** The local file system with S3A's rename refusal, counting the metadata calls. */
    public static final class RenameRefusingFileSystem extends SchemedLocalFileSystem {
        final AtomicInteger existsCalls = new AtomicInteger();
        final AtomicInteger listCalls = new AtomicInteger();

        @Override
        public boolean rename(org.apache.hadoop.fs.Path src, org.apache.hadoop.fs.Path dst) throws IOException {
            if (super.exists(dst)) {
                throw new FileAlreadyExistsException("rename destination " + dst + " already exists");
            }
            return super.rename(src, dst);
        }

        @Override
        public boolean exists(org.apache.hadoop.fs.Path f) throws IOException {
            existsCalls.incrementAndGet();
            return super.exists(f);
        }

        @Override
        public FileStatus[] listStatus(org.apache.hadoop.fs.Path f) throws FileNotFoundException, IOException {
            listCalls.incrementAndGet();
            return super.listStatus(f);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3a", "objlike"})
    void theHintMovesWithEveryCommitAndAStaleHintCostsOneListing(String scheme) throws Exception {
        Configuration conf = new Configuration();
        conf.set("fs." + scheme + ".impl", RenameRefusingFileSystem.class.getName());
        conf.setBoolean("fs." + scheme + ".impl.disable.cache", true);
        String warehouse = scheme + "://" + dir.toAbsolutePath().toUri().getPath() + "wh";
        FileIO io = FileIO.forWarehouse(warehouse, conf);
        RenameRefusingFileSystem fs = (RenameRefusingFileSystem) ((HadoopFileIO) io).fileSystem();
        FileStoreTable t = Catalog.open(warehouse, io)
                .createTable(
                        "db",
                        "t",
                        Schema.newBuilder()
                                .column("k", "BIGINT NOT NULL")
                                .primaryKey("k")
                                .option("bucket", "1")
                                .option("write-only", "true")
                                .option("commit.lock.class", CommitLockTest.JvmLock.class.getName())
                                .build());
        int commits = 46;
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            for (long n = 1; n <= commits; n++) {
                w.write(GenericRow.insert(n));
                c.commit(n, w.prepareCommit());
                assertThat(io.readUtf8(t.paths().latestHint()))
                        .as("LATEST after commit %s", n)
                        .isEqualTo(Long.toString(n));
            }
        }
        SnapshotManager sm = t.snapshotManager();

        fs.existsCalls.set(0);
        fs.listCalls.set(0);
        assertThat(sm.latestId()).hasValue(commits);
        assertThat(fs.existsCalls.get()).as("probes with a current hint").isEqualTo(2);
        assertThat(fs.listCalls.get()).isZero();

        // a committer that died before moving the hint, long ago
        io.overwriteHint(t.paths().latestHint(), "3");
        assertThat(io.readUtf8(t.paths().latestHint())).isEqualTo("3");
        fs.existsCalls.set(0);
        fs.listCalls.set(0);
        assertThat(sm.latestId()).hasValue(commits);
        assertThat(fs.existsCalls.get()).as("probes with a stale hint").isEqualTo(2);
        assertThat(fs.listCalls.get()).as("listings with a stale hint").isEqualTo(1);

        // no hint at all: one listing
        io.delete(t.paths().latestHint());
        fs.existsCalls.set(0);
        assertThat(sm.latestId()).hasValue(commits);
        assertThat(fs.existsCalls.get()).isZero();

        assertThat(TestTables.scan(t)).hasSize(commits);
        for (FileIO.FileEntry e : io.list(t.paths().snapshotDir())) {
            assertThat(e.path().getName()).as("temporary hint file left behind").doesNotStartWith(".");
        }
        assertThat(new String(io.readFully(t.paths().earliestHint()), StandardCharsets.UTF_8))
                .isEqualTo("1");
    }
}
