package io.strata.storage.commit;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import io.strata.storage.fs.ScheduledFailureFileIO;
import io.strata.storage.fs.ScheduledFailureFileIO.Op;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A commit whose Nth file-system call of one kind fails, for every N a clean commit makes: the
 * commit either succeeds (the failure hit something it tolerates, such as the LATEST hint) or
 * fails and leaves the table as it was (no snapshot, no manifest of its own); the table stays
 * readable with every committed row; committing the same messages again then succeeds, once;
 * and a later commit works.
 */
class ScheduledFailureCommitTest {
    @TempDir
    Path dir;

    private static final long SEED = 14;
    private static final int ROWS = 50;

    /** The keys of the rows the commit under test adds (row 1 is in the table before). */
    private static Set<Long> newKeys() {
        Random rnd = new Random(SEED);
        Set<Long> keys = new TreeSet<>();
        while (keys.size() < ROWS) {
            keys.add(2 + (long) rnd.nextInt(10_000));
        }
        return keys;
    }

    private static Set<Long> keysOf(String warehouse) {
        return TestTables.scan(Catalog.open(warehouse).getTable("db.t")).stream()
                .map(r -> (Long) r.get(0))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static List<CommitMessage> write(FileStoreTable t, Set<Long> keys) {
        try (TableWrite w = t.newWrite("w2")) {
            for (long k : keys) {
                w.write(new GenericRow(RowKind.INSERT, k, "v" + k));
            }
            return w.prepareCommit();
        }
    }

    private static Set<String> manifests(String warehouse) throws Exception {
        try (Stream<Path> s = Files.list(Path.of(warehouse, "db.db", "t", "manifest"))) {
            return s.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    /** One run: the table with row 1, then the commit of {@link #newKeys} with {@code op}'s call n failing (0: none). */
    private Map<Op, Integer> run(Op op, int n) throws Exception {
        String wh = Files.createDirectories(dir.resolve(op == null ? "clean" : op + "-" + n))
                .toString();
        TestTables.oneRowTable(wh);
        ScheduledFailureFileIO io = new ScheduledFailureFileIO(wh);
        FileStoreTable t = Catalog.open(wh, io).getTable("db.t");
        Set<Long> all = new TreeSet<>(newKeys());
        all.add(1L);
        List<CommitMessage> messages = write(t, newKeys());
        Set<String> manifestsBefore = manifests(wh);
        String what = op + " call " + n + " failing (seed " + SEED + ")";

        if (n == 0) {
            io.resetCounts();
        } else {
            io.failNth(op, n, 0);
        }
        RuntimeException failure = null;
        try (TableCommit c = t.newCommit("w2")) {
            c.commit(1, messages);
        } catch (RuntimeException e) {
            failure = e;
        }
        Map<Op, Integer> calls = new EnumMap<>(Op.class);
        for (Op o : Op.values()) {
            calls.put(o, io.calls(o));
        }
        io.heal();
        if (n > 0) {
            assertThat(io.injected()).as(what + ": the failure was injected").isEqualTo(1);
        }

        Set<Long> after = keysOf(wh);
        if (failure == null) {
            assertThat(after)
                    .as(what + ": a commit that returned has every row")
                    .isEqualTo(all);
        } else {
            // CommitFailedException once the commit has begun; a read failing while it looks for an
            // earlier commit of the same identifier surfaces as SnapshotManager's UncheckedIOException
            assertThat(failure).as(what).hasMessageContaining("table db.t").hasMessageContaining("injected");
            assertThat(after)
                    .as(what + ": a failed commit leaves the table as it was; failure: " + failure)
                    .isEqualTo(Set.of(1L));
            assertThat(t.snapshotManager().latestId().getAsLong()).as(what).isEqualTo(1);
            if (op != Op.DELETE) {
                assertThat(manifests(wh))
                        .as(what + ": the failed commit's manifests are removed")
                        .isEqualTo(manifestsBefore);
            }
        }

        try (TableCommit c = t.newCommit("w2")) {
            List<Long> published = c.commit(1, messages);
            assertThat(published)
                    .as(what + ": the retry publishes exactly when the first try did not")
                    .hasSize(failure == null ? 0 : 1);
        }
        assertThat(keysOf(wh)).as(what + ": after the retry").isEqualTo(all);

        List<CommitMessage> later = write(t, Set.of(20_000L));
        try (TableCommit c = t.newCommit("w2")) {
            c.commit(2, later);
        }
        all.add(20_000L);
        assertThat(keysOf(wh)).as(what + ": after a later commit").isEqualTo(all);
        return calls;
    }

    @Test
    void everyFailurePointOfACommitFailsCleanlyOrIsTolerated() throws Exception {
        Map<Op, Integer> clean = run(null, 0);
        int points = 0;
        for (Op op : Op.values()) {
            for (int n = 1; n <= clean.get(op); n++) {
                run(op, n);
                points++;
            }
        }
        assertThat(clean.get(Op.CREATE))
                .as("manifests, manifest list, snapshot")
                .isGreaterThanOrEqualTo(3);
        assertThat(clean.get(Op.PUBLISH)).as("the snapshot moved in").isPositive();
        assertThat(clean.get(Op.DURABLE)).isPositive();
        assertThat(points).as("failure points of a commit: " + clean).isGreaterThan(10);
    }
}
