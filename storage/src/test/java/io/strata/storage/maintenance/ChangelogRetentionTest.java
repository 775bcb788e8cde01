package io.strata.storage.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.GenericRow;
import io.strata.storage.fs.ScheduledFailureFileIO;
import io.strata.storage.fs.ScheduledFailureFileIO.Op;
import io.strata.storage.snapshot.SnapshotNotFoundException;
import io.strata.storage.snapshot.Tag;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.ManualClock;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TestTables;
import io.strata.storage.util.CloseableIterator;
import java.io.IOException;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Changelog retention decoupled from snapshot retention: the changes of expired snapshots stay
 * readable, change by change, for as long as {@code changelog.*} says, the files they need stay
 * and nothing else does, and where history starts is said clearly.
 */
class ChangelogRetentionTest {
    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T00:00:00Z"));

    private FileStoreTable create(String warehouse, String producer) {
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
                                        producer,
                                        "num-sorted-run.compaction-trigger",
                                        "3",
                                        "manifest.merge-min-count",
                                        "3")));
    }

    /** The changes each snapshot emitted, read right after it was committed. */
    private static final class History {
        final TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
        final Map<Long, List<GenericRow>> changesOf = new HashMap<>();
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

        void compact(FileStoreTable t, CompactStrategy strategy) {
            t.copyWithOptions(Map.of("write-only", "false"))
                    .newCompactor()
                    .compact(strategy, "compactor", ++identifier);
            record(t);
        }

        void record(FileStoreTable t) {
            long latest = t.snapshotManager().latestId().getAsLong();
            if (!changesOf.containsKey(latest)) {
                changesOf.put(latest, drain(t.newIncrementalRead().read(latest - 1, latest)));
                contentsAt.put(latest, new HashMap<>(model.contents()));
            }
        }

        List<GenericRow> changes(long fromExclusive, long toInclusive) {
            List<GenericRow> out = new ArrayList<>();
            for (long id = fromExclusive + 1; id <= toInclusive; id++) {
                out.addAll(changesOf.get(id));
            }
            return out;
        }
    }

    private static List<GenericRow> drain(CloseableIterator<GenericRow> it) {
        List<GenericRow> rows = new ArrayList<>();
        try (it) {
            while (it.hasNext()) {
                rows.add(it.next());
            }
        }
        return rows;
    }

    /** Every retained change reads as emitted, each snapshot alone and all at once; earlier ones are refused. */
    private static void assertHistory(FileStoreTable t, History h, String what) {
        long start = t.newIncrementalRead().historyStart().getAsLong();
        long latest = t.snapshotManager().latestId().getAsLong();
        for (long id = start; id <= latest; id++) {
            assertThat(drain(t.newIncrementalRead().read(id - 1, id)))
                    .as("%s: the changes of snapshot %d", what, id)
                    .isEqualTo(h.changesOf.get(id));
        }
        assertThat(drain(t.newIncrementalRead().read(start - 1, latest)))
                .as("%s: every retained change from %d, in order", what, start)
                .isEqualTo(h.changes(start - 1, latest));
        long earliest = t.snapshotManager().earliestId().getAsLong();
        for (long id = earliest; id <= latest; id++) {
            assertThat(TableModel.toContents(TestTables.scan(t.newReadBuilder().withSnapshot(id))))
                    .as("%s: snapshot %d", what, id)
                    .isEqualTo(h.contentsAt.get(id));
        }
        if (start > 1) {
            assertThatThrownBy(() -> drain(t.newIncrementalRead().read(start - 2, latest)))
                    .as(what)
                    .isInstanceOf(SnapshotNotFoundException.class)
                    .hasMessageContaining("the changes of snapshot " + (start - 1)
                            + " are no longer retained; history starts at snapshot " + start);
        }
    }

    private static void assertNoFileLeftOrMissing(FileStoreTable t, String what) {
        assertThat(TableFiles.visibleOnDisk(t))
                .as("%s: files on disk = files retained snapshots, tags and kept changelogs reference", what)
                .isEqualTo(TableFiles.referenced(t));
    }

    @ParameterizedTest(name = "changelog-producer={0}")
    @ValueSource(strings = {"input", "lookup", "none"})
    void modelBasedChangelogOutlivesItsSnapshotsAndExpiresByItsOwnRetention(String producer) {
        int changelogsKept = 0;
        int changelogsExpired = 0;
        for (long seed = 1; seed <= TestTables.iterations(); seed++) {
            FileStoreTable t = create(dir.resolve(producer + "-" + seed).toString(), producer);
            History h = new History(seed);
            for (int step = 0; step < 60; step++) {
                String what = "producer " + producer + ", seed " + seed + ", step " + step;
                int action = h.rnd.nextInt(10);
                if (action < 5 || t.snapshotManager().latestId().isEmpty()) {
                    h.append(t, 10 + h.rnd.nextInt(40));
                } else if (action < 7) {
                    h.compact(t, h.rnd.nextBoolean() ? CompactStrategy.FULL : CompactStrategy.MINOR);
                } else if (action < 8) {
                    clock.advance(Duration.ofMinutes(h.rnd.nextInt(60)));
                } else {
                    int snapshotMax = 1 + h.rnd.nextInt(3);
                    int changelogMin = 1 + h.rnd.nextInt(4);
                    int changelogMax = changelogMin + h.rnd.nextInt(8);
                    Map<String, String> o = new HashMap<>(Map.of(
                            "snapshot.num-retained.min", "1",
                            "snapshot.num-retained.max", String.valueOf(snapshotMax),
                            "changelog.num-retained.min", String.valueOf(changelogMin),
                            "changelog.num-retained.max", String.valueOf(changelogMax),
                            "changelog.time-retained", h.rnd.nextInt(90) + " min",
                            "snapshot.expire.limit", String.valueOf(1 + h.rnd.nextInt(8))));
                    String w = what + " " + o;
                    FileStoreTable run = t.copyWithOptions(o);
                    long startBefore = t.newIncrementalRead().historyStart().getAsLong();
                    long earliestBefore = t.snapshotManager().earliestId().getAsLong();
                    int limit = Integer.parseInt(o.get("snapshot.expire.limit"));
                    ExpireResult dry = run.newSnapshotExpiration().dryRun();
                    ExpireResult r = run.newSnapshotExpiration().expire();
                    assertThat(r.plan())
                            .as(w + ": a dry run plans what the run does")
                            .isEqualTo(dry.plan());
                    assertThat(r.changelogFromId())
                            .as(w + ": a dry run plans the changelog expiration the run does")
                            .isEqualTo(dry.changelogFromId());
                    changelogsKept += (int) r.plan().changelogsKept();
                    changelogsExpired += (int) r.changelogsExpired();
                    long latest = t.snapshotManager().latestId().getAsLong();
                    long start = t.newIncrementalRead().historyStart().getAsLong();
                    assertThat(start)
                            .as(w + ": the changes of the latest changelog.num-retained.min snapshots stay")
                            .isLessThanOrEqualTo(Math.max(startBefore, latest - changelogMin + 1));
                    assertThat(t.snapshotManager().earliestId().getAsLong())
                            .as(w + ": snapshot retention is independent")
                            .isGreaterThanOrEqualTo(Math.min(latest - snapshotMax + 1, earliestBefore + limit));
                    assertHistory(t, h, w);
                    assertNoFileLeftOrMissing(t, w);
                }
            }
            assertThat(TableModel.toContents(TestTables.scan(t))).isEqualTo(h.model.contents());
        }
        assertThat(changelogsKept).as("expirations kept changelogs").isGreaterThan(10);
        assertThat(changelogsExpired).as("kept changelogs expired").isGreaterThan(5);
    }

    @Test
    void aConsumerThatHoldsOnlyTheChangelogLetsSnapshotsExpireAndReadsEveryChangeOnce() {
        FileStoreTable t = create(dir.resolve("consumer").toString(), "input");
        History h = new History(11);
        for (int i = 0; i < 6; i++) {
            h.append(t, 20);
        }
        List<GenericRow> first = drain(t.newIncrementalRead().readAs("downstream", 2));
        for (int i = 0; i < 6; i++) {
            h.append(t, 20);
        }
        clock.advance(Duration.ofHours(2));
        Map<String, String> o = Map.of(
                "snapshot.num-retained.min", "2",
                "snapshot.time-retained", "1 min",
                "changelog.time-retained", "1 min",
                "changelog.num-retained.min", "2",
                "consumer.changelog-only", "true",
                "snapshot.expire.limit", "100");
        ExpireResult r = t.copyWithOptions(o).newSnapshotExpiration().expire();
        assertThat(t.snapshotManager().earliestId().getAsLong())
                .as("the consumer does not hold the snapshots")
                .isEqualTo(11);
        assertThat(r.plan().changelogKeptFrom())
                .as("it holds the changes from the one it reads next")
                .isEqualTo(3);
        assertThat(t.newIncrementalRead().historyStart().getAsLong()).isEqualTo(3);
        List<GenericRow> rest = drain(t.newIncrementalRead().readAs("downstream", 12));
        List<GenericRow> all = new ArrayList<>(first);
        all.addAll(rest);
        assertThat(all).as("every change of 1..12 once, in order").isEqualTo(h.changes(0, 12));

        ExpireResult after = t.copyWithOptions(o).newSnapshotExpiration().expire();
        assertThat(after.changelogFromId()).isEqualTo(3);
        assertThat(after.changelogToId()).as("read: the changes go").isEqualTo(11);
        assertThat(t.context().changelogManager().ids()).isEmpty();
        assertNoFileLeftOrMissing(t, "after the consumer read everything");
    }

    @ParameterizedTest(name = "changelog-producer={0}")
    @ValueSource(strings = {"input", "none"})
    void changelogExpirationAloneExpiresKeptChangelogsAndLeavesSnapshotsAndTags(String producer) {
        FileStoreTable t = create(dir.resolve("alone-" + producer).toString(), producer);
        History h = new History(31);
        for (int i = 0; i < 9; i++) {
            h.append(t, 30);
            if (i % 3 == 2) {
                h.compact(t, CompactStrategy.FULL);
            }
        }
        clock.advance(Duration.ofHours(2));
        t.copyWithOptions(Map.of(
                        "snapshot.num-retained.max", "3",
                        "snapshot.num-retained.min", "1",
                        "changelog.num-retained.max", "100",
                        "changelog.time-retained", "1 d",
                        "snapshot.expire.limit", "100"))
                .newSnapshotExpiration()
                .expire();
        long earliest = t.snapshotManager().earliestId().getAsLong();
        long latest = t.snapshotManager().latestId().getAsLong();
        assertThat(t.context().changelogManager().ids()).hasSize((int) earliest - 1);
        t.tags().create("pinned", Optional.of(earliest), Optional.empty());

        // at most the changes of the latest 6 snapshots stay, however young: those below latest - 5 go
        ChangelogExpireResult r = t.copyWithOptions(Map.of(
                        "changelog.num-retained.max", "6",
                        "changelog.num-retained.min", "1",
                        "changelog.time-retained", "1 d"))
                .newSnapshotExpiration()
                .expireChangelogs();
        assertThat(r.fromId()).isEqualTo(1);
        assertThat(r.toId()).isEqualTo(latest - 5);
        assertThat(r.changelogsExpired()).isEqualTo(latest - 6);
        assertThat(r.deleted()).extracting(TableFile::kind).contains(TableFile.Kind.CHANGELOG_METADATA);
        assertThat(t.context().changelogManager().ids()).first().isEqualTo(latest - 5);
        assertThat(t.snapshotManager().earliestId().getAsLong())
                .as("no snapshot expires")
                .isEqualTo(earliest);
        assertThat(t.tags().list()).extracting(Tag::name).containsExactly("pinned");
        assertThat(t.newIncrementalRead().historyStart().getAsLong()).isEqualTo(latest - 5);
        assertHistory(t, h, "after changelog expiration alone");
        assertNoFileLeftOrMissing(t, "after changelog expiration alone");

        ChangelogExpireResult again = t.copyWithOptions(Map.of(
                        "changelog.num-retained.max", "6",
                        "changelog.num-retained.min", "1",
                        "changelog.time-retained", "1 d"))
                .newSnapshotExpiration()
                .expireChangelogs();
        assertThat(again.changelogsExpired()).as("nothing more is due").isZero();
        assertThat(again.deleted()).isEmpty();
    }

    @Test
    void orphanCleanupKeepsWhatKeptChangelogsHold() {
        FileStoreTable t = create(dir.resolve("orphans").toString(), "none");
        History h = new History(5);
        for (int i = 0; i < 9; i++) {
            h.append(t, 30);
            if (i % 3 == 2) {
                h.compact(t, CompactStrategy.FULL);
            }
        }
        clock.advance(Duration.ofHours(2));
        t.copyWithOptions(Map.of(
                        "snapshot.num-retained.max", "2",
                        "snapshot.num-retained.min", "1",
                        "changelog.num-retained.max", "100",
                        "changelog.time-retained", "1 d",
                        "snapshot.expire.limit", "100"))
                .newSnapshotExpiration()
                .expire();
        long earliest = t.snapshotManager().earliestId().getAsLong();
        assertThat(earliest).isGreaterThan(8);
        assertThat(t.context().changelogManager().ids()).hasSize((int) earliest - 1);
        clock.advance(Duration.ofDays(2));
        OrphanCleanResult clean =
                OrphanFilesClean.olderThan(t.context(), Duration.ofDays(1)).clean();
        assertThat(clean.deleted())
                .as("the data files that compactions replaced are the kept changelog's changes")
                .isEmpty();
        assertHistory(t, h, "after orphan cleanup");
    }

    @Test
    void aRollbackToAnExpiredTagRemovesTheKeptChangelogAfterIt() {
        FileStoreTable t = create(dir.resolve("rollback").toString(), "input");
        History h = new History(8);
        for (int i = 0; i < 3; i++) {
            h.append(t, 20);
        }
        t.tags().create("v3", Optional.of(3L), Optional.empty());
        for (int i = 0; i < 5; i++) {
            h.append(t, 20);
        }
        clock.advance(Duration.ofHours(2));
        t.copyWithOptions(Map.of(
                        "snapshot.num-retained.max", "2",
                        "snapshot.num-retained.min", "1",
                        "changelog.num-retained.max", "100",
                        "changelog.time-retained", "1 d"))
                .newSnapshotExpiration()
                .expire();
        long earliest = t.snapshotManager().earliestId().getAsLong();
        assertThat(earliest).as("older than snapshot.time-retained").isEqualTo(8);
        assertThat(t.context().changelogManager().ids()).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L);
        Rollback.Result r = t.newRollback().toTag("v3");
        assertThat(r.changelogsRemoved()).containsExactly(7L, 6L, 5L, 4L);
        assertThat(t.context().changelogManager().ids()).containsExactly(1L, 2L, 3L);
        List<GenericRow> rolledBack = h.changesOf.get(4L);
        h.changesOf.keySet().removeIf(id -> id > 3);
        h.contentsAt.keySet().removeIf(id -> id > 3);
        h.append(t, 20); // snapshot 4 again
        assertThat(h.changesOf.get(4L)).isNotEqualTo(rolledBack);
        assertThat(drain(t.newIncrementalRead().read(3, 4)))
                .as("the new snapshot 4's changes, not the rolled-back one's")
                .isEqualTo(h.changesOf.get(4L));
        assertThat(drain(t.newIncrementalRead().read(0, 3))).isEqualTo(h.changes(0, 3));
    }

    @Test
    void aCrashAtAnyStepLeavesEveryRetainedChangeReadableAndTheNextRunFinishes() throws IOException {
        Path template = dir.resolve("template");
        FileStoreTable base = create(template.toString(), "lookup");
        History h = new History(21);
        for (int i = 0; i < 6; i++) {
            h.append(base, 20);
            if (i % 3 == 2) {
                h.compact(base, CompactStrategy.FULL);
            }
        }
        clock.advance(Duration.ofHours(2));
        // the first run keeps the changelog of the 5 snapshots it expires; the second expires 3 of them
        Map<String, String> keep = Map.of(
                "snapshot.num-retained.max", "3",
                "snapshot.num-retained.min", "1",
                "changelog.num-retained.min", "1",
                "changelog.num-retained.max", "8",
                "changelog.time-retained", "1 d",
                "snapshot.expire.limit", "100");
        Map<String, String> shorter = Map.of(
                "snapshot.num-retained.max", "2",
                "snapshot.num-retained.min", "1",
                "changelog.num-retained.min", "1",
                "changelog.num-retained.max", "5",
                "changelog.time-retained", "1 d",
                "snapshot.expire.limit", "100");
        for (Map<String, String> o : List.of(keep, shorter)) {
            Map<Op, Integer> calls = new HashMap<>();
            {
                Path wh = copy(template, "count");
                ScheduledFailureFileIO io = new ScheduledFailureFileIO(wh.toString());
                FileStoreTable t =
                        Catalog.open(wh.toString(), io).withClock(clock).getTable("db.t");
                io.resetCounts();
                t.copyWithOptions(o).newSnapshotExpiration().expire();
                calls.put(Op.DELETE, io.calls(Op.DELETE));
                calls.put(Op.CREATE, io.calls(Op.CREATE));
                assertNoFileLeftOrMissing(t, "a clean run");
                assertHistory(t, h, "a clean run " + o);
                TestTables.deleteTree(wh);
            }
            for (Op op : new Op[] {Op.DELETE, Op.CREATE}) {
                for (int n = 1; n <= calls.get(op); n++) {
                    String what = o + ": " + op + " call " + n;
                    Path wh = copy(template, op + "-" + n);
                    ScheduledFailureFileIO io = new ScheduledFailureFileIO(wh.toString());
                    FileStoreTable t =
                            Catalog.open(wh.toString(), io).withClock(clock).getTable("db.t");
                    io.failNth(op, n, 0);
                    try {
                        t.copyWithOptions(o).newSnapshotExpiration().expire();
                    } catch (RuntimeException injected) {
                        assertThat(injected).as(what).hasStackTraceContaining("injected");
                    }
                    FileStoreTable healthy =
                            Catalog.open(wh.toString()).withClock(clock).getTable("db.t");
                    assertHistory(healthy, h, what + ", after the crash");
                    healthy.copyWithOptions(o).newSnapshotExpiration().expire();
                    assertHistory(healthy, h, what + ", after the rerun");
                    assertNoFileLeftOrMissing(healthy, what + ", after the rerun");
                    TestTables.deleteTree(wh);
                }
            }
            // the template moves on to the state after this run
            Catalog.open(template.toString())
                    .withClock(clock)
                    .getTable("db.t")
                    .copyWithOptions(o)
                    .newSnapshotExpiration()
                    .expire();
        }
    }

    private Path copy(Path from, String name) {
        return TestTables.copyTree(from, dir.resolve("copies").resolve(name));
    }
}
