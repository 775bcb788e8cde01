package io.strata.storage.compact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.commit.CommitConflictException;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.table.system.FilesTable;
import io.strata.storage.testutil.DirListing;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompactionConflictTest {
    @TempDir
    Path dir;

    private FileStoreTable tableWithRuns(String name, int commits) {
        FileStoreTable t = Catalog.open(dir.toString())
                .createTable(
                        "db", name, TestTables.modelSchema(false, 1, Map.of("num-sorted-run.compaction-trigger", "3")));
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            for (int i = 0; i < commits; i++) {
                for (int k = 0; k < 50; k++) {
                    w.write(GenericRow.insert(0, k, (long) i, i, "c" + i, null, null, (long) i));
                }
                c.commit(i + 1, w.prepareCommit());
            }
        }
        return t;
    }

    @Test
    void twoCompactionsOfTheSameBucketRacingExactlyOneCommits() {
        FileStoreTable t = tableWithRuns("race", 6);
        List<GenericRow> before = TestTables.scan(t);
        TableCompactor a = t.newCompactor();
        TableCompactor b = t.newCompactor();
        // both plan and rewrite from the same snapshot
        CompactResult ra =
                a.rewrite(a.plan(CompactStrategy.FULL, EntryFilter.ALL).get(0));
        CompactResult rb =
                b.rewrite(b.plan(CompactStrategy.FULL, EntryFilter.ALL).get(0));
        long snapshots = t.snapshotManager().latestId().getAsLong();
        try (TableCommit ca = t.newCommit("compactor-a")) {
            ca.commit(1, List.of(ra.toCommitMessage(1)));
        }
        try (TableCommit cb = t.newCommit("compactor-b")) {
            assertThatThrownBy(() -> cb.commit(1, List.of(rb.toCommitMessage(1))))
                    .isInstanceOf(CommitConflictException.class)
                    .hasMessageContaining("db.race");
        }
        assertThat(t.snapshotManager().latestId().getAsLong()).isEqualTo(snapshots + 1);
        List<String> live = new ArrayList<>();
        FilesTable.rows(t, null).forEach(f -> live.add(f.file.fileName()));
        for (DataFileMeta f : rb.after()) {
            assertThat(live).doesNotContain(f.fileName());
            assertThat(Files.exists(Path.of(t.paths().bucketDir("", 0).toUri().getPath(), f.fileName())))
                    .as("the loser's file %s is deleted", f.fileName())
                    .isFalse();
        }
        assertThat(TestTables.scan(t)).containsExactlyInAnyOrderElementsOf(before);
    }

    @Test
    void compactionKilledBeforeCommitLeavesTheTableUnchanged() throws Exception {
        FileStoreTable t = tableWithRuns("crash", 5);
        List<GenericRow> before = TestTables.scan(t);
        Map<String, String> snapshotDir =
                DirListing.of(Path.of(t.paths().snapshotDir().toUri().getPath()));
        long latest = t.snapshotManager().latestId().getAsLong();
        TableCompactor c = t.newCompactor();
        CompactResult written =
                c.rewrite(c.plan(CompactStrategy.FULL, EntryFilter.ALL).get(0));
        assertThat(written.after()).isNotEmpty();
        // the process dies here: the rewritten files exist, no commit happened
        assertThat(t.snapshotManager().latestId().getAsLong()).isEqualTo(latest);
        assertThat(DirListing.of(Path.of(t.paths().snapshotDir().toUri().getPath())))
                .isEqualTo(snapshotDir);
        assertThat(TestTables.scan(t)).containsExactlyInAnyOrderElementsOf(before);
        // and a later compaction still works
        assertThat(t.newCompactor().compact(CompactStrategy.FULL, "compactor", 1))
                .hasSize(1);
        assertThat(TestTables.scan(t)).containsExactlyInAnyOrderElementsOf(before);
    }

    @Test
    void appendsDuringACompactionDoNotConflict() {
        FileStoreTable t = tableWithRuns("live", 4);
        TableCompactor c = t.newCompactor();
        CompactResult r =
                c.rewrite(c.plan(CompactStrategy.FULL, EntryFilter.ALL).get(0));
        try (TableWrite w = t.newWrite("w2");
                TableCommit commit = t.newCommit("w2")) {
            w.write(GenericRow.insert(0, 999, 1L, 1, "new", null, null, 1L));
            commit.commit(1, w.prepareCommit());
        }
        try (TableCommit commit = t.newCommit("compactor")) {
            commit.commit(1, List.of(r.toCommitMessage(1)));
        }
        assertThat(TestTables.scan(t)).hasSize(51);
    }
}
