package io.strata.storage.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import io.strata.storage.fs.ScheduledFailureFileIO;
import io.strata.storage.fs.ScheduledFailureFileIO.Op;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.ManualClock;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rollback to a snapshot or a tag: the target reads as the latest, writes go on from it, nothing it reads is lost. */
class RollbackTest {
    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(Instant.now().plus(Duration.ofDays(2)));
    private final TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
    private final Map<Long, Map<List<Object>, List<Object>>> contentsAt = new HashMap<>();
    private final Random rnd = new Random(31);
    private long identifier;

    private FileStoreTable create(Catalog catalog) {
        return catalog.createTable(
                "db",
                "t",
                TestTables.modelSchema(
                        true,
                        2,
                        Map.of(
                                "write-only", "true",
                                "commit.lock.class", "io.strata.storage.fs.CommitLockTest$JvmLock")));
    }

    private void append(FileStoreTable t) {
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            for (int r = 0; r < 50; r++) {
                GenericRow row = TableModel.randomRow(rnd, 40);
                model.apply(row);
                w.write(row);
            }
            c.commit(++identifier, w.prepareCommit());
        }
        contentsAt.put(t.snapshotManager().latestId().getAsLong(), new HashMap<>(model.contents()));
    }

    private void history(FileStoreTable t) {
        for (int i = 0; i < 6; i++) {
            append(t);
            if (i % 3 == 2) {
                t.copyWithOptions(Map.of("write-only", "false"))
                        .newCompactor()
                        .compact(CompactStrategy.FULL, "c", ++identifier);
                contentsAt.put(t.snapshotManager().latestId().getAsLong(), new HashMap<>(model.contents()));
            }
        }
    }

    private static Map<List<Object>, List<Object>> read(FileStoreTable t) {
        return TableModel.toContents(TestTables.scan(t));
    }

    /** New inserts after a rollback: the table reads the target's rows plus these. */
    private void appendAfterRollback(FileStoreTable t, long target) {
        List<GenericRow> rows = new ArrayList<>();
        for (int id = 0; id < 10; id++) {
            rows.add(new GenericRow(RowKind.INSERT, 0, 1000 + id, 1L, 2, "new", 3L, 0.5, 9L));
        }
        try (TableWrite w = t.newWrite("after");
                TableCommit c = t.newCommit("after")) {
            rows.forEach(w::write);
            c.commit(1, w.prepareCommit());
        }
        Map<List<Object>, List<Object>> expected = new HashMap<>(contentsAt.get(target));
        expected.putAll(TableModel.toContents(rows));
        assertThat(read(t)).as("the rollback target plus the new rows").isEqualTo(expected);
    }

    @Test
    void rollingBackToASnapshotRemovesTheLaterOnesAndWritesGoOnFromIt() {
        FileStoreTable t = create(Catalog.open(dir.resolve("wh").toString()).withClock(clock));
        history(t);
        long latest = t.snapshotManager().latestId().getAsLong();

        Rollback.Result dry = t.newRollback().planToSnapshot(3);
        assertThat(dry.snapshotsRemoved()).hasSize((int) (latest - 3)).first().isEqualTo(latest);
        assertThat(t.snapshotManager().latestId().getAsLong())
                .as("a dry run changes nothing")
                .isEqualTo(latest);

        Rollback.Result r = t.newRollback().toSnapshot(3);

        assertThat(r.snapshotsRemoved()).isEqualTo(dry.snapshotsRemoved());
        assertThat(t.snapshotManager().latestId().getAsLong()).isEqualTo(3);
        assertThat(read(t)).isEqualTo(contentsAt.get(3L));
        appendAfterRollback(t, 3);
        OrphanCleanResult orphans = t.newOrphanFilesClean(Duration.ofDays(1)).clean();
        assertThat(orphans.deleted()).as("the rolled-back snapshots' files").isNotEmpty();
        for (long id = 1; id <= 4; id++) {
            assertThat(TestTables.scan(t.newReadBuilder().withSnapshot(id)))
                    .as("snapshot %d", id)
                    .isNotNull();
        }
    }

    @Test
    void rollingBackToATagWhoseSnapshotExpiredRestoresIt() {
        FileStoreTable t = create(Catalog.open(dir.resolve("tag").toString()).withClock(clock));
        append(t);
        append(t);
        t.tags().create("v2", Optional.of(2L), Optional.empty());
        history(t);
        clock.advance(Duration.ofMinutes(1));
        t.copyWithOptions(Map.of("snapshot.num-retained.min", "1", "snapshot.time-retained", "0 s"))
                .newSnapshotExpiration()
                .expire();
        assertThat(t.snapshotManager().exists(2)).isFalse();

        Rollback.Result r = t.newRollback().toTag("v2");

        assertThat(r.restored()).isTrue();
        assertThat(t.snapshotManager().latestId().getAsLong()).isEqualTo(2);
        assertThat(t.snapshotManager().earliestId().getAsLong()).isEqualTo(2);
        assertThat(read(t)).isEqualTo(contentsAt.get(2L));
        appendAfterRollback(t, 2);
        // the restored snapshot names only lists that exist: expiration and orphan cleanup read them
        t.tags().delete("v2");
        clock.advance(Duration.ofMinutes(1));
        t.copyWithOptions(Map.of("snapshot.num-retained.min", "1", "snapshot.time-retained", "0 s"))
                .newSnapshotExpiration()
                .expire();
        assertThat(t.newOrphanFilesClean(Duration.ofDays(1)).clean().deleted()).isNotEmpty();
        assertThat(TestTables.scan(t)).hasSize(contentsAt.get(2L).size() + 10);
    }

    @Test
    void refusesWhatWouldLoseATagOrANameThatIsNotThere() {
        FileStoreTable t = create(Catalog.open(dir.resolve("refuse").toString()).withClock(clock));
        history(t);
        t.tags().create("late", Optional.empty(), Optional.empty());
        assertThatThrownBy(() -> t.newRollback().toSnapshot(2))
                .hasMessageContaining(
                        "late (snapshot " + t.snapshotManager().latestId().getAsLong() + ")")
                .hasMessageContaining("delete them first");
        assertThatThrownBy(() -> t.newRollback().toTag("nope")).hasMessageContaining("no tag 'nope'");
        assertThatThrownBy(() -> t.newRollback().toSnapshot(99)).hasMessageContaining("no snapshot 99");
        assertThat(read(t)).isEqualTo(model.contents());
    }

    @Test
    void aCrashAtAnyDeleteLeavesALatestSnapshotThatReadsAndARerunFinishes() {
        String wh = dir.resolve("crash").toString();
        ScheduledFailureFileIO io = new ScheduledFailureFileIO(wh);
        FileStoreTable t = create(Catalog.open(wh, io).withClock(clock));
        history(t);
        long latest = t.snapshotManager().latestId().getAsLong();
        io.failNth(Op.DELETE, 3, 0);
        assertThatThrownBy(() -> t.newRollback().toSnapshot(2)).hasStackTraceContaining("injected");
        io.heal();
        long now = t.snapshotManager().latestId().getAsLong();
        assertThat(now).isEqualTo(latest - 2);
        assertThat(read(t)).isEqualTo(contentsAt.get(now));
        t.newRollback().toSnapshot(2);
        assertThat(read(t)).isEqualTo(contentsAt.get(2L));
    }
}
