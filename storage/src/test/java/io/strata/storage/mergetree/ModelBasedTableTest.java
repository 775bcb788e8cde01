package io.strata.storage.mergetree;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.CommitMessage;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactResult;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.GenericRow;
import io.strata.storage.options.FileOptions;
import io.strata.storage.snapshot.CommitKind;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.LsmInvariants;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TableModel.Mode;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random upsert/delete streams over many commits, with writer restarts, abandoned writers,
 * spills and flushes forced by a tiny write buffer, for every merge engine. After every commit
 * the scan must equal {@link TableModel}; at the end, time travel to every snapshot must equal
 * the model as it was then.
 */
class ModelBasedTableTest {
    @TempDir
    Path dir;

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        long seed = 1000;
        for (int rep = 0; rep < TestTables.iterations(); rep++) {
            for (Mode m : Mode.values()) {
                out.add(Arguments.of(m, seed++));
                out.add(Arguments.of(m, seed++));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} seed={1}")
    @MethodSource("cases")
    void scanEqualsModelAfterEveryCommit(Mode mode, long seed) {
        try {
            run(mode, seed);
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("failed with mode=" + mode + " seed=" + seed + ": " + e.getMessage(), e);
        }
    }

    private void run(Mode mode, long seed) {
        Random rnd = new Random(seed);
        boolean partitioned = rnd.nextBoolean();
        int buckets = 1 + rnd.nextInt(3);
        Map<String, String> options = new HashMap<>(TableModel.options(mode));
        options.put("write-buffer-size", (2 + rnd.nextInt(40)) + " kb");
        options.put("write-buffer-spillable", String.valueOf(rnd.nextBoolean()));
        options.put("write-buffer-spill.dir", dir.resolve("spill").toString());
        // compaction, interleaved at random below: small files and low triggers exercise every path
        options.put("num-sorted-run.compaction-trigger", String.valueOf(2 + rnd.nextInt(4)));
        options.put("target-file-size", (2 + rnd.nextInt(30)) + " kb");
        options.put("sort-spill-threshold", String.valueOf(2 + rnd.nextInt(6)));
        options.put("compaction.small-file-ratio", String.valueOf(rnd.nextDouble()));
        // merges bounded by their runs' estimated memory instead of a count, half the time (own
        // stream, so the seeds above keep their tables)
        Random merge = new Random(seed * 17 + 3);
        if (merge.nextBoolean()) {
            options.remove("sort-spill-threshold");
            options.put("sort-spill-memory", (2 + merge.nextInt(60)) + " kb");
        }
        // the file format, from its own stream so the seeds above keep their tables: every codec, and
        // sometimes row groups and pages small enough that files hold several (each row group's column
        // chunks are released to the buffer pool when the reader moves on; tests run with it poisoning)
        Random format = new Random(seed * 31 + 7);
        options.put(
                "file.compression",
                FileOptions.Compression.values()[format.nextInt(FileOptions.Compression.values().length)]
                        .name()
                        .toLowerCase(Locale.ROOT));
        if (format.nextBoolean()) {
            options.put("file.block-size", (1 + format.nextInt(8)) + " kb");
            options.put("file.page-size", (64 + format.nextInt(2048)) + " b");
        }
        // a writer that is not write-only compacts inline; dedicated compactions then stay away
        boolean inline = rnd.nextInt(3) == 0;
        options.put("write-only", String.valueOf(!inline));
        FileStoreTable table = Catalog.open(dir.resolve("wh").toString())
                .createTable("db", "t", TestTables.modelSchema(partitioned, buckets, options));

        TableModel model = new TableModel(mode);
        Map<Long, Map<List<Object>, List<Object>>> modelAt = new HashMap<>();
        String user = "writer-" + seed;
        TableWrite write = table.newWrite(user);
        TableCommit commit = table.newCommit(user);
        int keys = 5 + rnd.nextInt(60);
        int commits = 15 + rnd.nextInt(15);
        long identifier = 0;
        long compactions = 0;
        for (int c = 0; c < commits; c++) {
            if (rnd.nextInt(6) == 0) {
                // an abandoned writer: rows written, never committed, must not show
                try (TableWrite lost = table.newWrite("lost-" + c)) {
                    for (int i = 0; i < 20; i++) {
                        lost.write(TableModel.randomRow(rnd, keys));
                    }
                }
            }
            int rows = rnd.nextInt(4) == 0 ? rnd.nextInt(400) : rnd.nextInt(40);
            for (int i = 0; i < rows; i++) {
                GenericRow r = TableModel.randomRow(rnd, keys);
                write.write(r);
                model.apply(r);
            }
            List<CommitMessage> messages = write.prepareCommit();
            List<Long> ids = commit.commit(++identifier, messages);
            for (long id : ids) {
                modelAt.put(id, model.contents());
            }
            assertThat(TableModel.toContents(TestTables.scan(table)))
                    .as("after commit %d", c)
                    .isEqualTo(model.contents());
            if (!inline && rnd.nextInt(3) == 0) {
                CompactStrategy strategy = CompactStrategy.values()[rnd.nextInt(CompactStrategy.values().length)];
                List<CompactResult> results =
                        table.newCompactor().compact(strategy, "compactor-" + seed, ++compactions);
                if (!results.isEmpty()) {
                    long id = table.snapshotManager().latestId().getAsLong();
                    assertThat(table.snapshotManager().snapshot(id).commitKind())
                            .isEqualTo(CommitKind.COMPACT);
                    modelAt.put(id, model.contents());
                }
                Map<List<Object>, List<Object>> got = TableModel.toContents(TestTables.scan(table));
                if (!got.equals(model.contents())) {
                    for (List<Object> k : model.contents().keySet()) {
                        if (!model.contents().get(k).equals(got.get(k))) {
                            System.err.println(
                                    "DIFF " + k + " model=" + model.contents().get(k) + " table=" + got.get(k));
                        }
                    }
                    for (List<Object> k : got.keySet()) {
                        if (!model.contents().containsKey(k)) {
                            System.err.println("EXTRA " + k + " table=" + got.get(k));
                        }
                    }
                    results.forEach(r ->
                            System.err.println("PLAN " + r.plan() + " before=" + r.before() + " after=" + r.after()));
                }
                assertThat(got)
                        .as("after %s compaction %d", strategy, compactions)
                        .isEqualTo(model.contents());
                LsmInvariants.check(table);
            }
            if (rnd.nextInt(5) == 0) {
                // writer restart: a new writer and committer with the same user continue the stream
                write.close();
                write = table.newWrite(user);
                commit = table.newCommit(user);
            }
        }
        write.close();
        LsmInvariants.check(table);
        table.newCompactor().compact(CompactStrategy.FULL, "compactor-" + seed, ++compactions);
        assertThat(TableModel.toContents(TestTables.scan(table)))
                .as("after the final full compaction")
                .isEqualTo(model.contents());
        LsmInvariants.check(table);
        LsmInvariants.checkRowCounts(table);
        for (Map.Entry<Long, Map<List<Object>, List<Object>>> e : modelAt.entrySet()) {
            assertThat(TableModel.toContents(
                            TestTables.scan(table.newReadBuilder().withSnapshot(e.getKey()))))
                    .as("time travel to snapshot %d", e.getKey())
                    .isEqualTo(e.getValue());
        }
    }
}
