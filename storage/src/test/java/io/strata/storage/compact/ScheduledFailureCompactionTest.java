package io.strata.storage.compact;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.BucketId;
import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import io.strata.storage.fs.ScheduledFailureFileIO;
import io.strata.storage.fs.ScheduledFailureFileIO.Op;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.mergetree.Levels;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.LsmInvariants;
import io.strata.storage.testutil.TestTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compactions whose Nth file-system call of one kind fails, for every N a clean run makes: a
 * full compaction by {@link TableCompactor}, and inline compaction ({@link CompactManager})
 * behind a writer. A failed compaction leaves the table as it was and readable, and a retry on
 * a healthy file system succeeds with the same contents.
 */
class ScheduledFailureCompactionTest {
    @TempDir
    Path dir;

    private static final long SEED = 14;
    private static final int STEPS = 5;

    private static Schema schema(boolean writeOnly) {
        return Schema.newBuilder()
                .column("k", "BIGINT NOT NULL")
                .column("v", "BIGINT")
                .primaryKey("k")
                .option("bucket", "2")
                .option("write-only", String.valueOf(writeOnly))
                .option("num-sorted-run.compaction-trigger", "2")
                .option("commit.lock.class", "io.strata.storage.fs.CommitLockTest$JvmLock")
                .build();
    }

    /** The rows of step {@code i}: overlapping keys, so compactions merge versions. */
    private static List<GenericRow> rows(int step) {
        Random rnd = new Random(SEED * 31 + step);
        List<GenericRow> rows = new ArrayList<>();
        for (int r = 0; r < 40; r++) {
            rows.add(new GenericRow(RowKind.INSERT, (long) rnd.nextInt(60), (long) step * 1000 + r));
        }
        return rows;
    }

    private static void apply(Map<Long, Long> model, List<GenericRow> rows) {
        rows.forEach(r -> model.put((Long) r.get(0), (Long) r.get(1)));
    }

    private static Map<Long, Long> contents(String warehouse) {
        Map<Long, Long> out = new TreeMap<>();
        TestTables.scan(Catalog.open(warehouse).getTable("db.t"))
                .forEach(r -> out.put((Long) r.get(0), (Long) r.get(1)));
        return out;
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Files.copy(p, to.resolve(from.relativize(p).toString()));
            }
        }
    }

    // ---- TableCompactor --------------------------------------------------------------------

    /** A full compaction of a copy of {@code template} with {@code op}'s call n failing (0: none); the calls made. */
    private int fullCompaction(Path template, Map<Long, Long> model, Op op, int n) throws IOException {
        Path wh = dir.resolve("full-" + op + "-" + n);
        copy(template, wh);
        ScheduledFailureFileIO io = new ScheduledFailureFileIO(wh.toString());
        FileStoreTable t = Catalog.open(wh.toString(), io).getTable("db.t");
        long before = t.snapshotManager().latestId().getAsLong();
        String what = "full compaction, " + op + " call " + n + " failing (seed " + SEED + ")";
        io.failNth(op, n == 0 ? Integer.MAX_VALUE : n, 0);
        RuntimeException failure = null;
        try {
            t.newCompactor().compact(CompactStrategy.FULL, "compactor", 1);
        } catch (RuntimeException e) {
            failure = e;
        }
        int calls = io.calls(op);
        io.heal();
        FileStoreTable healthy = Catalog.open(wh.toString()).getTable("db.t");
        assertThat(contents(wh.toString())).as(what).isEqualTo(model);
        if (failure != null) {
            assertThat(failure).as(what).hasMessageContaining("injected");
            assertThat(healthy.snapshotManager().latestId().getAsLong())
                    .as(what + ": the table is unchanged; " + failure)
                    .isEqualTo(before);
        }
        t.newCompactor().compact(CompactStrategy.FULL, "compactor", failure == null ? 2 : 1);
        assertThat(contents(wh.toString())).as(what + ", after the retry").isEqualTo(model);
        for (Map.Entry<BucketId, Levels> e : healthy.newCompactor()
                .levels(healthy.snapshotManager().latest().orElseThrow(), EntryFilter.ALL)
                .entrySet()) {
            assertThat(e.getValue().numberOfSortedRuns())
                    .as(what + ": bucket " + e.getKey() + " " + e.getValue() + " after the retry")
                    .isEqualTo(1);
        }
        LsmInvariants.check(healthy);
        return calls;
    }

    @Test
    void everyFailurePointOfAFullCompactionLeavesTheTableAsItWasAndARetrySucceeds() throws Exception {
        Path template = dir.resolve("template");
        FileStoreTable t = Catalog.open(template.toString()).createTable("db", "t", schema(true));
        Map<Long, Long> model = new TreeMap<>();
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            for (int step = 0; step < STEPS; step++) {
                rows(step).forEach(w::write);
                apply(model, rows(step));
                c.commit(step, w.prepareCommit());
            }
        }
        int points = 0;
        for (Op op : new Op[] {Op.CREATE, Op.READ, Op.PUBLISH, Op.DELETE, Op.LIST, Op.EXISTS, Op.DURABLE}) {
            int clean = fullCompaction(template, model, op, 0);
            for (int n = 1; n <= clean; n++) {
                fullCompaction(template, model, op, n);
                points++;
            }
            if (op == Op.CREATE || op == Op.READ || op == Op.PUBLISH) {
                assertThat(clean).as("%s calls of a clean full compaction", op).isPositive();
            }
        }
        assertThat(points).isGreaterThan(20);
    }

    // ---- CompactManager (inline compaction) --------------------------------------------------

    /**
     * {@link #STEPS} commits by a writer that compacts inline, on a new table, with {@code op}'s
     * call n failing (0: none); after a failure the writer is dropped and a new one on a healthy
     * file system writes the failed step again and the rest. Returns the calls of a clean run.
     */
    private int inlineRun(Op op, int n) {
        Path wh = dir.resolve("inline-" + op + "-" + n);
        ScheduledFailureFileIO io = new ScheduledFailureFileIO(wh.toString());
        FileStoreTable t = Catalog.open(wh.toString(), io).createTable("db", "t", schema(false));
        String what = "inline compaction, " + op + " call " + n + " failing (seed " + SEED + ")";
        io.failNth(op, n == 0 ? Integer.MAX_VALUE : n, 0);
        Map<Long, Long> committed = new TreeMap<>();
        int step = 0;
        RuntimeException failure = null;
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            for (; step < STEPS; step++) {
                rows(step).forEach(w::write);
                c.commit(step, w.prepareCommit());
                apply(committed, rows(step));
            }
        } catch (RuntimeException e) {
            failure = e;
        }
        int calls = io.calls(op);
        io.heal();
        if (failure != null) {
            assertThat(failure).as(what).hasStackTraceContaining("injected");
            Map<Long, Long> withFailedStep = new TreeMap<>(committed);
            if (step < STEPS) {
                apply(withFailedStep, rows(step));
            }
            assertThat(contents(wh.toString()))
                    .as(what + ": the committed steps, the failed one all or nothing; " + failure)
                    .isIn(committed, withFailedStep);
        }
        Map<Long, Long> model = new TreeMap<>();
        for (int s = 0; s < STEPS; s++) {
            apply(model, rows(s));
        }
        if (failure != null) {
            // resume after the last step in a snapshot: an identifier names one set of messages, and a
            // step whose append landed before its compaction failed is committed
            FileStoreTable reopened = Catalog.open(wh.toString()).getTable("db.t");
            int resume = (int) reopened.snapshotManager()
                    .latest()
                    .map(x -> x.commitIdentifier() + 1)
                    .orElse(0L)
                    .longValue();
            try (TableWrite w = t.newWrite("w");
                    TableCommit c = t.newCommit("w")) {
                for (int s = resume; s < STEPS; s++) {
                    rows(s).forEach(w::write);
                    c.commit(s, w.prepareCommit());
                }
            } catch (RuntimeException e) {
                StringBuilder snaps = new StringBuilder();
                for (long id = 1; id <= t.snapshotManager().latestId().getAsLong(); id++) {
                    snaps.append("\n  ").append(t.snapshotManager().snapshot(id));
                }
                throw new AssertionError(what + ": the retry after " + failure + " failed; snapshots:" + snaps, e);
            }
        }
        assertThat(contents(wh.toString())).as(what + ", after the retry").isEqualTo(model);
        LsmInvariants.check(Catalog.open(wh.toString()).getTable("db.t"));
        return calls;
    }

    @Test
    void everyFileWriteOfAWriterThatCompactsInlineMayFailAndANewWriterRecovers() {
        int clean = inlineRun(Op.CREATE, 0);
        assertThat(clean).isGreaterThan(STEPS * 3);
        for (int n = 1; n <= clean; n++) {
            inlineRun(Op.CREATE, n);
        }
    }
}
