package io.strata.storage.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.read.Predicate.Op;
import io.strata.storage.schema.Schema;
import io.strata.storage.snapshot.SnapshotNotFoundException;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.ManualClock;
import io.strata.storage.testutil.TestTables;
import io.strata.storage.util.CloseableIterator;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Partition and key-range pruning, projection, time travel by timestamp, append tables. */
class ScanPlanningTest {
    @TempDir
    Path dir;

    private FileStoreTable partitioned() {
        FileStoreTable t = Catalog.open(dir.toString())
                .createTable(
                        "db",
                        "p",
                        Schema.newBuilder()
                                .column("dt", "INT NOT NULL")
                                .column("id", "BIGINT")
                                .column("v", "STRING")
                                .primaryKey("dt", "id")
                                .partitionKeys("dt")
                                .option("bucket", "1")
                                .build());
        try (TableWrite w = t.newWrite("u");
                TableCommit c = t.newCommit("u")) {
            long ident = 0;
            for (int dt = 1; dt <= 3; dt++) {
                for (int batch = 0; batch < 2; batch++) {
                    for (long id = batch * 100; id < batch * 100 + 100; id++) {
                        w.write(GenericRow.insert(dt, id, "v" + dt + "-" + id));
                    }
                    c.commit(++ident, w.prepareCommit());
                }
            }
        }
        return t;
    }

    @Test
    void partitionFilterSkipsOtherPartitionsFiles() {
        FileStoreTable t = partitioned();
        assertThat(t.newReadBuilder().plan()).hasSize(3);
        ReadBuilder rb = t.newReadBuilder().withFilter(Predicate.leaf(t.schema(), "dt", Op.EQ, 2));
        List<Split> splits = rb.plan();
        assertThat(splits).hasSize(1);
        assertThat(splits.get(0).partition()).containsExactly(2);
        assertThat(TestTables.scan(rb)).hasSize(200).allMatch(r -> r.get(0).equals(2));
    }

    @Test
    void keyRangeFilterSkipsFilesOutsideTheRange() {
        FileStoreTable t = partitioned();
        ReadBuilder rb = t.newReadBuilder()
                .withFilter(Predicate.and(
                        Predicate.leaf(t.schema(), "dt", Op.EQ, 1), Predicate.leaf(t.schema(), "id", Op.GE, 150L)));
        List<Split> splits = rb.plan();
        assertThat(splits).hasSize(1);
        assertThat(splits.get(0).files()).as("only the file with ids 100..199").hasSize(1);
        assertThat(TestTables.scan(rb)).hasSize(50);
    }

    @Test
    void valueFilterNeverPrunesFilesOfAPrimaryKeyTable() {
        FileStoreTable t = partitioned();
        try (TableWrite w = t.newWrite("u2");
                TableCommit c = t.newCommit("u2")) {
            w.write(GenericRow.insert(1, 5L, "changed"));
            c.commit(1, w.prepareCommit());
        }
        // the old value "v1-5" is in an older file whose stats match; the newer version must win
        ReadBuilder rb = t.newReadBuilder().withFilter(Predicate.leaf(t.schema(), "v", Op.EQ, "v1-5"));
        assertThat(TestTables.scan(rb)).isEmpty();
        assertThat(TestTables.scan(t.newReadBuilder().withFilter(Predicate.leaf(t.schema(), "v", Op.EQ, "changed"))))
                .containsExactly(GenericRow.insert(1, 5L, "changed"));
    }

    @Test
    void projectionReturnsColumnsInTheAskedOrder() {
        FileStoreTable t = partitioned();
        List<GenericRow> rows = TestTables.scan(
                t.newReadBuilder().withProjection("v", "id").withFilter(Predicate.leaf(t.schema(), "dt", Op.EQ, 3)));
        assertThat(rows).hasSize(200);
        assertThat(rows).contains(GenericRow.insert("v3-7", 7L));
    }

    @Test
    void timeTravelByTimestamp() {
        ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
        FileStoreTable t = Catalog.open(dir.toString())
                .withClock(clock)
                .createTable(
                        "db",
                        "tt",
                        Schema.newBuilder()
                                .column("id", "BIGINT")
                                .column("v", "INT")
                                .primaryKey("id")
                                .build());
        long[] times = new long[4];
        try (TableWrite w = t.newWrite("u");
                TableCommit c = t.newCommit("u")) {
            for (int i = 1; i <= 3; i++) {
                clock.advance(Duration.ofSeconds(10));
                w.write(GenericRow.insert(1L, i));
                c.commit(i, w.prepareCommit());
                times[i] = t.snapshotManager().snapshot(i).timeMillis();
                assertThat(times[i])
                        .as("snapshot %s's time is the table clock's", i)
                        .isEqualTo(clock.millis());
            }
        }
        for (int i = 1; i <= 3; i++) {
            assertThat(TestTables.scan(t.newReadBuilder().withTimestamp(times[i])))
                    .containsExactly(GenericRow.insert(1L, i));
            assertThat(TestTables.scan(t.newReadBuilder().withTimestamp(times[i] + 9_999)))
                    .as("the last snapshot at or before a time between commits")
                    .containsExactly(GenericRow.insert(1L, i));
        }
        assertThatThrownBy(() -> t.newReadBuilder().withTimestamp(times[1] - 1).plan())
                .isInstanceOf(SnapshotNotFoundException.class)
                .hasMessageContaining("db.tt");
    }

    @Test
    void appendTableKeepsEveryRowAndPrunesOnAnyColumn() {
        FileStoreTable t = Catalog.open(dir.toString())
                .createTable(
                        "db",
                        "log",
                        Schema.newBuilder()
                                .column("ts", "BIGINT")
                                .column("msg", "STRING")
                                .build());
        try (TableWrite w = t.newWrite("u");
                TableCommit c = t.newCommit("u")) {
            for (int batch = 0; batch < 3; batch++) {
                for (long i = 0; i < 10; i++) {
                    w.write(GenericRow.insert(batch * 10 + i, "same"));
                }
                c.commit(batch + 1, w.prepareCommit());
            }
            assertThatThrownBy(() -> w.write(GenericRow.delete(1L, "x"))).hasMessageContaining("db.log");
        }
        assertThat(TestTables.scan(t)).hasSize(30);
        ReadBuilder rb = t.newReadBuilder().withFilter(Predicate.leaf(t.schema(), "ts", Op.LT, 10L));
        assertThat(rb.plan().get(0).files()).hasSize(1);
        assertThat(TestTables.scan(rb)).hasSize(10);
    }

    @Test
    void anIncrementalReadPastTheLatestSnapshotSaysSo() {
        FileStoreTable t = partitioned();

        assertThatThrownBy(() -> t.newIncrementalRead().read(2, 99))
                .isInstanceOf(SnapshotNotFoundException.class)
                .hasMessage("table db.p has no snapshot 99: the latest is 6");
        assertThatThrownBy(() -> t.newIncrementalRead().read(99, 6))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("table db.p: the changes after snapshot 99 up to snapshot 6")
                .hasMessageContaining("the latest snapshot is 6");
        try (CloseableIterator<GenericRow> none = t.newIncrementalRead().read(6, 6)) {
            assertThat(none.hasNext())
                    .as("nothing after the latest: an empty range, not an error")
                    .isFalse();
        }
    }
}
