package io.strata.storage.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.compact.TableCompactor;
import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.TestTables;
import io.strata.storage.util.CloseableIterator;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Parquet buffer a scan or a compaction borrows from {@link BufferPool} goes back: when a
 * reader moves to its next row group, when it is exhausted, when it is closed early, and when a
 * writer flushes a row group or completes a file. Files here hold many row groups of many pages,
 * and the values read must stay intact after their buffers were released (tests run with the
 * pool poisoning released memory).
 */
class RowGroupReleaseTest {
    @TempDir Path dir;

    @Test
    void scansAndCompactionsHandEveryBufferBack() {
        FileStoreTable t = Catalog.open(dir.toString()).createTable("db", "t", Schema.newBuilder()
                .column("k", "BIGINT NOT NULL").column("v", "STRING").column("n", "BIGINT").primaryKey("k")
                .option("bucket", "1").option("write-only", "true").option("file.compression", "uncompressed")
                .option("file.block-size", "16 kb").option("file.page-size", "4 kb").build(), false);
        BufferPool pool = BufferPool.shared();
        int lentBefore = pool.lent();
        TreeMap<Long, String> model = new TreeMap<>();
        try (TableWrite w = t.newWrite("w"); TableCommit c = t.newCommit("w")) {
            for (int commit = 1; commit <= 3; commit++) {
                for (long k = commit; k < 6000; k += 2) {
                    // long values, unique (plain pages) and repeated (dictionary pages)
                    String v = (k % 3 == 0 ? "shared-" + (k % 7) : "value-" + k + "-" + commit).repeat(1 + (int) (k % 4));
                    w.write(new GenericRow(RowKind.INSERT, k, v, k * commit));
                    model.put(k, v);
                }
                c.commit(commit, w.prepareCommit());
                assertThat(pool.lent()).as("buffers lent after commit %d", commit).isEqualTo(lentBefore);
            }
        }

        assertThat(contents(TestTables.scan(t))).isEqualTo(model);
        assertThat(pool.lent()).as("buffers lent after a full scan").isEqualTo(lentBefore);

        try (CloseableIterator<GenericRow> it = t.newReadBuilder().readAll()) {
            assertThat(it.hasNext()).isTrue();
            it.next();
            assertThat(pool.lent()).as("an open reader holds its row group").isGreaterThan(lentBefore);
        }
        assertThat(pool.lent()).as("buffers lent after closing a scan early").isEqualTo(lentBefore);

        new TableCompactor(t).compact(CompactStrategy.FULL, "compactor", 1);
        assertThat(pool.lent()).as("buffers lent after a full compaction").isEqualTo(lentBefore);
        assertThat(contents(TestTables.scan(t))).isEqualTo(model);
    }

    private static TreeMap<Long, String> contents(List<GenericRow> rows) {
        TreeMap<Long, String> m = new TreeMap<>();
        for (GenericRow r : rows) {
            m.put((Long) r.get(0), (String) r.get(1));
        }
        return m;
    }
}
