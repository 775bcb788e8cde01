package io.strata.storage.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.data.GenericRow;
import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.format.DataFilePathFactory;
import io.strata.storage.format.DataFileWriter;
import io.strata.storage.format.FileSource;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.manifest.ManifestEntry;
import io.strata.storage.schema.Schema;
import io.strata.storage.snapshot.CommitKind;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.snapshot.SnapshotManager;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.DirListing;
import io.strata.storage.testutil.Rows;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Commit guarantees on a local table: racing committers lose nothing and duplicate nothing,
 * replays are skipped, and a conflicting compaction leaves no trace.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConcurrentCommitTest {
    private static final int THREADS = 4;
    private static final int COMMITS_PER_THREAD = 6;
    private static final int ROWS_PER_COMMIT = 5;

    @TempDir
    Path warehouse;

    private Catalog catalog() {
        return Catalog.open(warehouse.toString());
    }

    private static Schema pkSchema(String... options) {
        Schema.Builder b =
                Schema.newBuilder().column("id", "BIGINT").column("v", "STRING").primaryKey("id");
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        return b.build();
    }

    private Path tableDir(String table) {
        return warehouse.resolve("db.db").resolve(table);
    }

    // ---------------------------------------------------------------------------------------
    // racing committers

    @Test
    void racingCommittersProduceGaplessSnapshotsAndLoseNoCommit() throws Exception {
        // one partition per writer: the one-writer-per-bucket rule holds, all committers share the table
        catalog()
                .createTable(
                        "db",
                        "t",
                        Schema.newBuilder()
                                .column("p", "INT")
                                .column("id", "BIGINT")
                                .column("v", "STRING")
                                .primaryKey("p", "id")
                                .partitionKeys("p")
                                .option("bucket", "2")
                                .option("commit.max-retries", "200")
                                .option("commit.max-retry-wait", "100 ms")
                                .option("write-only", "true")
                                .build());

        CyclicBarrier start = new CyclicBarrier(THREADS);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        List<Future<List<Long>>> results = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            final int thread = t;
            results.add(pool.submit(() -> {
                // a separate handle per committer, as separate processes would have
                FileStoreTable table = catalog().getTable("db", "t");
                String user = "user-" + thread;
                List<Long> published = new ArrayList<>();
                start.await();
                try (TableWrite w = table.newWrite(user);
                        TableCommit c = table.newCommit(user)) {
                    for (int n = 1; n <= COMMITS_PER_THREAD; n++) {
                        for (int r = 0; r < ROWS_PER_COMMIT; r++) {
                            long id = n * 1000L + r;
                            w.write(GenericRow.insert(thread, id, user + "/" + n + "/" + r));
                        }
                        published.addAll(c.commit(n, w.prepareCommit()));
                    }
                }
                return published;
            }));
        }
        pool.shutdown();
        List<Long> allPublished = new ArrayList<>();
        for (Future<List<Long>> f : results) {
            List<Long> ids = f.get(50, TimeUnit.SECONDS);
            assertThat(ids)
                    .as("each commit of a committer publishes exactly one APPEND snapshot")
                    .hasSize(COMMITS_PER_THREAD);
            allPublished.addAll(ids);
        }

        FileStoreTable table = catalog().getTable("db", "t");
        SnapshotManager sm = table.snapshotManager();
        int total = THREADS * COMMITS_PER_THREAD;
        List<Long> expectedIds = new ArrayList<>();
        for (long i = 1; i <= total; i++) {
            expectedIds.add(i);
        }
        assertThat(sm.listIds()).as("snapshot ids on disk").containsExactlyElementsOf(expectedIds);
        assertThat(allPublished).as("ids returned to the committers").containsExactlyInAnyOrderElementsOf(expectedIds);
        assertThat(sm.latestId()).hasValue(total);

        // every (user, identifier) exactly once; every snapshot readable and as large as it says
        Map<String, Integer> seen = new HashMap<>();
        Map<String, Long> lastIdentifierOfUser = new HashMap<>();
        for (long id = 1; id <= total; id++) {
            Snapshot s = sm.snapshot(id);
            assertThat(s.id()).isEqualTo(id);
            assertThat(s.commitKind()).isEqualTo(CommitKind.APPEND);
            assertThat(s.totalRecordCount()).isEqualTo(id * ROWS_PER_COMMIT);
            seen.merge(s.commitUser() + "#" + s.commitIdentifier(), 1, Integer::sum);
            Long prev = lastIdentifierOfUser.put(s.commitUser(), s.commitIdentifier());
            assertThat(prev == null ? 0L : prev)
                    .as("identifiers of %s increase along snapshots", s.commitUser())
                    .isLessThan(s.commitIdentifier());
            List<GenericRow> rows = Rows.readAll(table.newReadBuilder().withSnapshot(id));
            assertThat(rows).as("rows of snapshot %s", id).hasSize((int) (id * ROWS_PER_COMMIT));
        }
        Set<String> expectedCommits = new HashSet<>();
        for (int t = 0; t < THREADS; t++) {
            for (int n = 1; n <= COMMITS_PER_THREAD; n++) {
                expectedCommits.add("user-" + t + "#" + n);
            }
        }
        assertThat(seen.keySet()).containsExactlyInAnyOrderElementsOf(expectedCommits);
        assertThat(seen.values()).allMatch(count -> count == 1);

        // the final scan holds every row exactly once with its value
        Set<String> expectedRows = new HashSet<>();
        for (int t = 0; t < THREADS; t++) {
            for (int n = 1; n <= COMMITS_PER_THREAD; n++) {
                for (int r = 0; r < ROWS_PER_COMMIT; r++) {
                    expectedRows.add(t + "|" + (n * 1000L + r) + "|user-" + t + "/" + n + "/" + r);
                }
            }
        }
        List<String> actual = new ArrayList<>();
        for (GenericRow r : Rows.readAll(table.newReadBuilder())) {
            actual.add(r.get(0) + "|" + r.get(1) + "|" + r.get(2));
        }
        assertThat(actual).hasSize(expectedRows.size()).containsExactlyInAnyOrderElementsOf(expectedRows);

        // losers of a race clean up: no temporary files and no manifest list nobody references
        assertThat(hiddenFiles(tableDir("t"))).as("temporary files left behind").isEmpty();
    }

    private static List<Path> hiddenFiles(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith(".")).toList();
        }
    }

    // ---------------------------------------------------------------------------------------
    // idempotency

    @Test
    void replayedCommitPublishesNothing() throws IOException {
        // an append table: a replay that slipped through would show up as duplicated rows
        FileStoreTable table = catalog()
                .createTable(
                        "db",
                        "log",
                        Schema.newBuilder()
                                .column("id", "BIGINT")
                                .column("v", "STRING")
                                .build());
        SnapshotManager sm = table.snapshotManager();

        List<CommitMessage> first;
        try (TableWrite w = table.newWrite("job");
                TableCommit c = table.newCommit("job")) {
            w.write(GenericRow.insert(1L, "a"));
            w.write(GenericRow.insert(2L, "b"));
            first = w.prepareCommit();
            assertThat(c.commit(7, first)).containsExactly(1L);

            // same instance, same identifier
            assertThat(c.commit(7, first)).isEmpty();
            // an older identifier is also already covered
            assertThat(c.commit(6, first)).isEmpty();
        }
        assertThat(sm.listIds()).containsExactly(1L);

        // another user commits in between, so the job's snapshot is no longer the latest
        try (TableWrite w = table.newWrite("other");
                TableCommit c = table.newCommit("other")) {
            w.write(GenericRow.insert(3L, "c"));
            assertThat(c.commit(1, w.prepareCommit())).containsExactly(2L);
            w.write(GenericRow.insert(4L, "d"));
            assertThat(c.commit(2, w.prepareCommit())).containsExactly(3L);
        }

        // a restarted committer (new instance, same user) replays its last checkpoint
        FileStoreTable reopened = catalog().getTable("db", "log");
        try (TableCommit restarted = reopened.newCommit("job")) {
            assertThat(restarted.commit(7, first)).isEmpty();
            assertThat(restarted.commit(3, first)).isEmpty();
        }
        assertThat(sm.listIds()).containsExactly(1L, 2L, 3L);
        assertThat(sm.latest().orElseThrow().totalRecordCount()).isEqualTo(4);
        assertThat(Rows.readAll(reopened.newReadBuilder()))
                .containsExactlyInAnyOrder(
                        GenericRow.insert(1L, "a"),
                        GenericRow.insert(2L, "b"),
                        GenericRow.insert(3L, "c"),
                        GenericRow.insert(4L, "d"));

        // ... and a new identifier from the restarted committer is committed
        try (TableWrite w = reopened.newWrite("job");
                TableCommit restarted = reopened.newCommit("job")) {
            w.write(GenericRow.insert(5L, "e"));
            assertThat(restarted.commit(8, w.prepareCommit())).containsExactly(4L);
        }
        assertThat(Rows.readAll(reopened.newReadBuilder())).hasSize(5);
    }

    // ---------------------------------------------------------------------------------------
    // compaction conflicts

    @Test
    void secondCompactionOfTheSameFileConflictsAndLeavesNoTrace() throws Exception {
        FileStoreTable table = catalog().createTable("db", "pk", pkSchema());
        DataFileMeta live = appendOneFile(table, 0);
        Map<Long, List<Object>> content = Rows.byKey(Rows.readAll(table.newReadBuilder()));

        DataFileMeta afterA = writeCompacted(table, 0);
        try (TableCommit a = table.newCommit("compactor-a")) {
            assertThat(a.commit(1, List.of(CommitMessage.compact(new Object[0], 0, 1, List.of(live), List.of(afterA)))))
                    .containsExactly(2L);
        }
        assertThat(table.snapshotManager().latest().orElseThrow().commitKind()).isEqualTo(CommitKind.COMPACT);
        assertThat(liveFileNames(table)).containsExactly(afterA.fileName());

        DataFileMeta afterB = writeCompacted(table, 0);
        Path afterBPath = tableDir("pk").resolve("bucket-0").resolve(afterB.fileName());
        assertThat(afterBPath).exists();
        Map<String, String> before = DirListing.of(tableDir("pk"));

        try (TableCommit b = table.newCommit("compactor-b")) {
            assertThatThrownBy(() -> b.commit(
                            1, List.of(CommitMessage.compact(new Object[0], 0, 1, List.of(live), List.of(afterB)))))
                    .isInstanceOf(CommitConflictException.class)
                    .hasMessageContaining("db.pk")
                    .hasMessageContaining(live.fileName());
        }

        assertThat(table.snapshotManager().listIds()).containsExactly(1L, 2L);
        Map<String, String> expected = new TreeMap<>(before);
        expected.remove(tableDir("pk").relativize(afterBPath).toString());
        assertThat(DirListing.of(tableDir("pk")))
                .as("the failed commit deleted its new data file and wrote no manifest, list or snapshot")
                .isEqualTo(expected);
        assertThat(Rows.byKey(Rows.readAll(table.newReadBuilder()))).isEqualTo(content);
    }

    @Test
    void racingCompactionsOfTheSameFileExactlyOneWins() throws Exception {
        FileStoreTable table = catalog()
                .createTable("db", "race", pkSchema("commit.max-retries", "100", "commit.max-retry-wait", "50 ms"));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 4; round++) {
                DataFileMeta live = appendOneFile(table, round);
                DataFileMeta[] after = {writeCompacted(table, round), writeCompacted(table, round)};
                long before = table.snapshotManager().latestId().getAsLong();
                CyclicBarrier go = new CyclicBarrier(2);
                List<Future<Object>> outcomes = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    final int who = i;
                    final int identifier = round + 1;
                    Callable<Object> task = () -> {
                        FileStoreTable mine = catalog().getTable("db", "race");
                        try (TableCommit c = mine.newCommit("compactor-" + who)) {
                            go.await();
                            return c.commit(
                                    identifier,
                                    List.of(CommitMessage.compact(
                                            new Object[0], 0, 1, List.of(live), List.of(after[who]))));
                        } catch (CommitConflictException e) {
                            return e;
                        }
                    };
                    outcomes.add(pool.submit(task));
                }
                int winners = 0;
                int winner = -1;
                for (int i = 0; i < 2; i++) {
                    Object o = outcomes.get(i).get(30, TimeUnit.SECONDS);
                    if (o instanceof List) {
                        assertThat(o).isEqualTo(List.of(before + 1));
                        winners++;
                        winner = i;
                    } else {
                        assertThat(o).isInstanceOf(CommitConflictException.class);
                    }
                }
                assertThat(winners)
                        .as("round %s: exactly one compaction wins", round)
                        .isEqualTo(1);
                assertThat(table.snapshotManager().latestId()).hasValue(before + 1);
                Path bucket = tableDir("race").resolve("bucket-0");
                assertThat(bucket.resolve(after[winner].fileName())).exists();
                assertThat(bucket.resolve(after[1 - winner].fileName()))
                        .as("loser's output deleted")
                        .doesNotExist();
                assertThat(liveFileNames(table))
                        .contains(after[winner].fileName())
                        .doesNotContain(live.fileName(), after[1 - winner].fileName());
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(Rows.readAll(table.newReadBuilder())).hasSize(4 * ROWS_PER_COMMIT);
        assertThat(hiddenFiles(tableDir("race"))).isEmpty();
    }

    /** Commits {@value #ROWS_PER_COMMIT} rows with keys round*100.. as one level-0 file; returns it. */
    private static DataFileMeta appendOneFile(FileStoreTable table, int round) {
        try (TableWrite w = table.newWrite("writer");
                TableCommit c = table.newCommit("writer")) {
            for (int r = 0; r < ROWS_PER_COMMIT; r++) {
                w.write(GenericRow.insert(round * 100L + r, "v" + r));
            }
            List<CommitMessage> msgs = w.prepareCommit();
            assertThat(msgs).hasSize(1);
            assertThat(msgs.get(0).appendFiles()).hasSize(1);
            assertThat(c.commit(round + 1, msgs)).hasSize(1);
            return msgs.get(0).appendFiles().get(0);
        }
    }

    /** What a compaction of {@link #appendOneFile}'s file would produce: the same rows at level 1. */
    private static DataFileMeta writeCompacted(FileStoreTable table, int round) throws IOException {
        DataFilePathFactory paths = new DataFilePathFactory(table.paths(), "", 0);
        DataFileWriter w = DataFileWriter.durableOnFinish(
                        table.fileIO(),
                        table.schema(),
                        table.formatConfig(),
                        table.context().clock())
                .create(paths.newPath("data"), 1, FileSource.COMPACT);
        for (int r = 0; r < ROWS_PER_COMMIT; r++) {
            w.write(new KeyValue(r, RowKind.INSERT, new Object[] {round * 100L + r, "v" + r}));
        }
        return w.finish();
    }

    private static List<String> liveFileNames(FileStoreTable table) {
        Snapshot s = table.snapshotManager().latest().orElseThrow();
        List<String> out = new ArrayList<>();
        for (ManifestEntry e : table.manifests().scanner().scan(s.baseManifestList(), EntryFilter.ALL)) {
            out.add(e.file().fileName());
        }
        return out;
    }
}
