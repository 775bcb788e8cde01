package io.strata.storage.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import io.strata.storage.fs.ScheduledFailureFileIO;
import io.strata.storage.fs.ScheduledFailureFileIO.Op;
import io.strata.storage.manifest.FileKind;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.snapshot.SnapshotNotFoundException;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.ManualClock;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshot expiration against a model: after every run every retained snapshot reads what it
 * read when it was committed, the retention rules decide exactly which snapshots go, and the files
 * on disk are exactly those the retained snapshots reference. Crashes at every delete leave a
 * readable table that the next run finishes.
 */
class SnapshotExpirationTest {
    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T00:00:00Z"));

    /** A table with the lookup changelog producer (so COMPACT snapshots carry changelog), 2 partitions x 2 buckets. */
    private FileStoreTable create(String warehouse) {
        return Catalog.open(warehouse)
                .withClock(clock)
                .createTable(
                        "db",
                        "t",
                        TestTables.modelSchema(
                                true,
                                2,
                                Map.of(
                                        "write-only",
                                        "true",
                                        "changelog-producer",
                                        "lookup",
                                        "num-sorted-run.compaction-trigger",
                                        "3",
                                        // every single-run file moves up without a rewrite: the same
                                        // file is then deleted at one level and added at another
                                        "compaction.small-file-ratio",
                                        "0",
                                        // manifests merge often, so expired snapshots free manifests too
                                        "manifest.merge-min-count",
                                        "3")));
    }

    /** The test's history: what each snapshot read when it was committed. */
    private static final class History {
        final TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
        final Map<Long, Map<List<Object>, List<Object>>> contentsAt = new HashMap<>();
        final Random rnd;
        long identifier;

        History(long seed) {
            rnd = new Random(seed);
        }

        void append(FileStoreTable t, int rows) {
            try (TableWrite w = t.newWrite("w");
                    TableCommit c = t.newCommit("w")) {
                for (int r = 0; r < rows; r++) {
                    GenericRow row = TableModel.randomRow(rnd, 40);
                    model.apply(row);
                    w.write(row);
                }
                c.commit(++identifier, w.prepareCommit());
            }
            record(t);
        }

        /** Inserts of ids {@code [from, to)} in partition 0, one commit. */
        void appendKeys(FileStoreTable t, int from, int to) {
            try (TableWrite w = t.newWrite("w");
                    TableCommit c = t.newCommit("w")) {
                for (int id = from; id < to; id++) {
                    GenericRow row = new GenericRow(RowKind.INSERT, 0, id, (long) id, id, "v" + id, 1L, 0.5, 7L);
                    model.apply(row);
                    w.write(row);
                }
                c.commit(++identifier, w.prepareCommit());
            }
            record(t);
        }

        void compact(FileStoreTable t, CompactStrategy strategy) {
            t.copyWithOptions(Map.of("write-only", "false"))
                    .newCompactor()
                    .compact(strategy, "compactor", ++identifier);
            record(t);
        }

        void record(FileStoreTable t) {
            long latest = t.snapshotManager().latestId().getAsLong();
            contentsAt.putIfAbsent(latest, new HashMap<>(model.contents()));
        }
    }

    private static void assertRetainedSnapshotsRead(FileStoreTable t, History h, String what) {
        long earliest = t.snapshotManager().earliestId().getAsLong();
        long latest = t.snapshotManager().latestId().getAsLong();
        for (long id = earliest; id <= latest; id++) {
            assertThat(TableModel.toContents(TestTables.scan(t.newReadBuilder().withSnapshot(id))))
                    .as("%s: snapshot %d", what, id)
                    .isEqualTo(h.contentsAt.get(id));
        }
        if (earliest > 1) {
            long gone = earliest - 1;
            assertThatThrownBy(() -> t.snapshotManager().snapshot(gone))
                    .as(what)
                    .isInstanceOf(SnapshotNotFoundException.class)
                    .hasMessageContaining(
                            "snapshot " + gone + " has expired; the earliest retained snapshot is " + earliest);
        }
    }

    /** Files on disk are exactly those the retained snapshots reference: data, changelog, manifests, lists. */
    private static void assertNoFileLeftOrMissing(FileStoreTable t, String what) {
        assertThat(TableFiles.visibleOnDisk(t))
                .as("%s: files on disk = files retained snapshots reference", what)
                .isEqualTo(TableFiles.referenced(t));
    }

    /** The earliest snapshot the retention rules keep, computed from the snapshots' times alone. */
    private static long expectedEarliest(
            FileStoreTable t, long earliest, int min, Integer max, Duration retained, int limit, long now) {
        long latest = t.snapshotManager().latestId().getAsLong();
        long to = earliest;
        while (to <= latest - min && to < earliest + limit) {
            boolean beyondMax = max != null && to <= latest - max;
            boolean old = t.snapshotManager().snapshot(to).timeMillis() < now - retained.toMillis();
            if (!beyondMax && !old) {
                break;
            }
            to++;
        }
        return to;
    }

    @Test
    void modelBasedExpirationKeepsExactlyWhatTheRetentionRulesSay() throws Exception {
        int dataFilesExpired = 0;
        int changelogFilesExpired = 0;
        int manifestsExpired = 0;
        for (long seed = 1; seed <= 3L * TestTables.iterations(); seed++) {
            Path wh = dir.resolve("seed-" + seed);
            FileStoreTable t = create(wh.toString());
            History h = new History(seed);
            for (int step = 0; step < 40; step++) {
                String what = "seed " + seed + ", step " + step;
                int action = h.rnd.nextInt(10);
                if (action < 5) {
                    h.append(t, 20 + h.rnd.nextInt(60));
                } else if (action < 7 && t.snapshotManager().latestId().isPresent()) {
                    h.compact(t, h.rnd.nextBoolean() ? CompactStrategy.FULL : CompactStrategy.MINOR);
                } else if (action < 8) {
                    clock.advance(Duration.ofMinutes(h.rnd.nextInt(90)));
                } else if (t.snapshotManager().latestId().isPresent()) {
                    int min = 1 + h.rnd.nextInt(4);
                    Integer max = h.rnd.nextBoolean() ? null : min + h.rnd.nextInt(4);
                    Duration retained = Duration.ofMinutes(h.rnd.nextInt(120));
                    int limit = 1 + h.rnd.nextInt(6);
                    Map<String, String> o = new HashMap<>(Map.of(
                            "snapshot.num-retained.min", String.valueOf(min),
                            "snapshot.time-retained", retained.toMinutes() + " min",
                            "snapshot.expire.limit", String.valueOf(limit)));
                    if (max != null) {
                        o.put("snapshot.num-retained.max", String.valueOf(max));
                    }
                    long earliest = t.snapshotManager().earliestId().getAsLong();
                    long expected = expectedEarliest(t, earliest, min, max, retained, limit, clock.millis());
                    FileStoreTable run = t.copyWithOptions(o);
                    ExpirePlan dry = run.newSnapshotExpiration().dryRun().plan();
                    ExpireResult r = run.newSnapshotExpiration().expire();
                    String w = what + " " + o;
                    assertThat(dry)
                            .as(w + ": a dry run plans what the run does")
                            .isEqualTo(r.plan());
                    assertThat(t.snapshotManager().earliestId().getAsLong())
                            .as(w)
                            .isEqualTo(expected);
                    assertThat(r.plan().snapshotsExpired()).as(w).isEqualTo(expected - earliest);
                    assertThat(r.deletedCounts().get(TableFile.Kind.SNAPSHOT))
                            .as(w)
                            .isEqualTo((int) (expected - earliest));
                    assertRetainedSnapshotsRead(t, h, w);
                    assertNoFileLeftOrMissing(t, w);
                    Set<String> referenced = t.reachableFiles().referencedByRetainedSnapshots();
                    for (TableFile f : r.plan().files()) {
                        assertThat(referenced)
                                .as("%s: planned to delete %s, which a retained snapshot references", w, f)
                                .doesNotContain(new org.apache.hadoop.fs.Path(f.path()).getName());
                    }
                    dataFilesExpired += r.deletedCounts().get(TableFile.Kind.DATA);
                    changelogFilesExpired += r.deletedCounts().get(TableFile.Kind.CHANGELOG);
                    manifestsExpired += r.deletedCounts().get(TableFile.Kind.MANIFEST);
                }
            }
            assertThat(TableModel.toContents(TestTables.scan(t))).isEqualTo(h.model.contents());
        }
        assertThat(dataFilesExpired).as("expirations freed data files").isGreaterThan(10);
        assertThat(changelogFilesExpired)
                .as("expirations freed changelog files")
                .isGreaterThan(5);
    }

    @Test
    void aCrashAtAnyDeleteLeavesEveryRetainedSnapshotReadableAndTheNextRunFinishes() throws Exception {
        // a template history: compactions every few commits so expired snapshots free files
        Path template = dir.resolve("template");
        FileStoreTable base = create(template.toString());
        History h = new History(99);
        for (int i = 0; i < 12; i++) {
            h.append(base, 40);
            if (i % 3 == 2) {
                h.compact(base, CompactStrategy.FULL);
            }
        }
        clock.advance(Duration.ofHours(2));
        Map<String, String> retain3 = Map.of("snapshot.num-retained.min", "3", "snapshot.expire.limit", "100");
        int deletes;
        {
            Path wh = copy(template, "count");
            ScheduledFailureFileIO io = new ScheduledFailureFileIO(wh.toString());
            FileStoreTable t = Catalog.open(wh.toString(), io).withClock(clock).getTable("db.t");
            io.resetCounts();
            t.copyWithOptions(retain3).newSnapshotExpiration().expire();
            deletes = io.calls(Op.DELETE);
            assertNoFileLeftOrMissing(t, "a clean run");
        }
        assertThat(deletes)
                .as("snapshots, data, changelog, manifests, lists and the journal")
                .isGreaterThan(20);
        for (Op op : new Op[] {Op.DELETE, Op.PUBLISH, Op.CREATE}) {
            int calls = op == Op.DELETE ? deletes : 3;
            for (int n = 1; n <= calls; n++) {
                String what = op + " call " + n;
                Path wh = copy(template, op + "-" + n);
                ScheduledFailureFileIO io = new ScheduledFailureFileIO(wh.toString());
                FileStoreTable t =
                        Catalog.open(wh.toString(), io).withClock(clock).getTable("db.t");
                io.failNth(op, n, 0);
                try {
                    t.copyWithOptions(retain3).newSnapshotExpiration().expire();
                } catch (RuntimeException injected) {
                    assertThat(injected).as(what).hasStackTraceContaining("injected");
                }
                FileStoreTable healthy =
                        Catalog.open(wh.toString()).withClock(clock).getTable("db.t");
                assertRetainedSnapshotsRead(healthy, h, what + ", after the crash");
                ExpireResult rerun =
                        healthy.copyWithOptions(retain3).newSnapshotExpiration().expire();
                assertThat(healthy.snapshotManager().earliestId().getAsLong())
                        .as(what)
                        .isEqualTo(healthy.snapshotManager().latestId().getAsLong() - 2);
                assertRetainedSnapshotsRead(healthy, h, what + ", after the rerun");
                assertNoFileLeftOrMissing(healthy, what + ", after the rerun (" + rerun.resumed() + " resumed)");
            }
        }
    }

    /**
     * A compaction that moves a file up a level without rewriting it deletes and adds the same
     * file in one snapshot; expiring the snapshots before it must keep the file, although a later
     * compaction replaced it and the latest snapshot no longer holds it.
     */
    @Test
    void aFileMovedUpALevelStaysWhileTheSnapshotThatMovedItIsRetained() throws Exception {
        FileStoreTable t = create(dir.resolve("moved").toString());
        History h = new History(7);
        h.appendKeys(t, 0, 10); // snapshot 1
        h.appendKeys(t, 20, 30); // snapshot 2: key-disjoint from 1
        h.compact(t, CompactStrategy.FULL); // 3: both files move to the top level unchanged
        Snapshot moved = t.snapshotManager().latest().orElseThrow();
        assertThat(t.manifests().scanner().entries(moved.deltaManifestList()))
                .as("the full compaction only moved files")
                .allMatch(e -> e.file().level() == 0 || e.kind() == FileKind.ADD)
                .hasSize(8); // 2 buckets x 2 files, each deleted at level 0 and added at the top
        h.appendKeys(t, 5, 25); // 4
        h.compact(t, CompactStrategy.FULL); // 5: rewrites the moved files
        clock.advance(Duration.ofHours(2));

        ExpireResult r = t.copyWithOptions(Map.of("snapshot.num-retained.min", "3"))
                .newSnapshotExpiration()
                .expire();

        assertThat(r.plan().toId()).isEqualTo(3);
        assertRetainedSnapshotsRead(t, h, "after expiring 1 and 2");
        assertNoFileLeftOrMissing(t, "after expiring 1 and 2");
    }

    @Test
    void badRetentionOptionsAreRejectedNamingTheOptionAndNothingIsDeleted() {
        FileStoreTable t = create(dir.resolve("bad").toString());
        History h = new History(5);
        h.append(t, 10);
        h.append(t, 10);
        assertThatThrownBy(() -> t.copyWithOptions(Map.of("snapshot.num-retained.min", "0"))
                        .newSnapshotExpiration()
                        .expire())
                .hasMessageContaining("snapshot.num-retained.min")
                .hasMessageContaining("db.t");
        assertThatThrownBy(() -> t.copyWithOptions(
                                Map.of("snapshot.num-retained.min", "3", "snapshot.num-retained.max", "2"))
                        .newSnapshotExpiration()
                        .expire())
                .hasMessageContaining("snapshot.num-retained.max");
        assertThatThrownBy(() -> t.copyWithOptions(Map.of("snapshot.expire.limit", "0"))
                        .newSnapshotExpiration()
                        .expire())
                .hasMessageContaining("snapshot.expire.limit");
        assertThat(t.snapshotManager().earliestId().getAsLong()).isEqualTo(1);
    }

    @Test
    void anEmptyTableHasNothingToExpire() {
        FileStoreTable t = create(dir.resolve("empty").toString());
        ExpireResult r = t.newSnapshotExpiration().expire();
        assertThat(r.plan().heldBackBy()).isEqualTo(ExpirePlan.HeldBack.NO_SNAPSHOTS);
        assertThat(r.deleted()).isEmpty();
    }

    private Path copy(Path template, String name) throws Exception {
        return TestTables.copyTree(template, dir.resolve(name));
    }
}
