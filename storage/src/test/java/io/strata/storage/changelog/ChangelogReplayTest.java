package io.strata.storage.changelog;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactResult;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.compact.TableCompactor;
import io.strata.storage.data.GenericRow;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.table.system.BucketsTable;
import io.strata.storage.testutil.ChangelogReplay;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TableModel.Mode;
import io.strata.storage.testutil.TestTables;
import io.strata.storage.util.CloseableIterator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Replaying the changelog from the first snapshot reproduces the table: after every lookup
 * compaction, at every full compaction; and every -U carries the value the key really had.
 */
class ChangelogReplayTest {
    @TempDir
    Path dir;

    private int tables;

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (String producer : List.of("lookup", "full-compaction")) {
            for (Mode m : List.of(
                    Mode.DEDUPLICATE,
                    Mode.PARTIAL_UPDATE_REMOVE,
                    Mode.AGGREGATION_REMOVE,
                    Mode.AGGREGATION,
                    Mode.FIRST_ROW,
                    Mode.DEDUPLICATE_SEQUENCE_FIELD,
                    Mode.FIRST_ROW_SEQUENCE_FIELD,
                    Mode.AGGREGATION_OTHER_FUNCTIONS)) {
                for (boolean dedup : List.of(false, true)) {
                    out.add(Arguments.of(producer, m, dedup, 300L + out.size()));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} row-deduplicate={2} seed={3}")
    @MethodSource("cases")
    void replayReproducesTheScan(String producer, Mode mode, boolean rowDedup, long seed) {
        Map<String, String> options = new HashMap<>(TableModel.options(mode));
        options.put("changelog-producer", producer);
        options.put("changelog-producer.row-deduplicate", String.valueOf(rowDedup));
        options.put("write-only", "true");
        options.put("num-sorted-run.compaction-trigger", "3");
        options.put("sort-spill-threshold", "3");
        options.put("target-file-size", "16 kb");
        FileStoreTable t = Catalog.open(dir.toString())
                .createTable("db", "t" + (tables++), TestTables.modelSchema(true, 2, options));
        Random rnd = new Random(seed);
        TableCompactor compactor = t.newCompactor();
        long compactions = 0;
        int checks = 0;
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            for (int commit = 1; commit <= 20; commit++) {
                for (int i = 0, n = rnd.nextInt(80); i < n; i++) {
                    w.write(TableModel.randomRow(rnd, 30));
                }
                c.commit(commit, w.prepareCommit());
                boolean full = producer.equals("full-compaction");
                if (full && rnd.nextInt(3) != 0) {
                    continue; // full-compaction changelog is only complete at full compactions
                }
                if (!full && rnd.nextInt(4) == 0) {
                    // a minor compaction that leaves level 0 alone produces no changelog and changes nothing
                    compactor.compact(CompactStrategy.MINOR, "compactor", ++compactions);
                }
                List<CompactResult> r = compactor.compact(
                        full ? CompactStrategy.FULL : CompactStrategy.LOOKUP, "compactor", ++compactions);
                if (!full) {
                    assertThat(BucketsTable.rows(t, null)).allMatch(b -> b.level0Files == 0);
                }
                assertThat(replay(t))
                        .as("replay after compaction %d (%s)", compactions, r.size())
                        .isEqualTo(TableModel.toContents(TestTables.scan(t)));
                checks++;
            }
        }
        assertThat(checks).isPositive();
    }

    private static Map<List<Object>, List<Object>> replay(FileStoreTable t) {
        return ChangelogReplay.replay(t);
    }

    @ParameterizedTest(name = "lookup-compact={0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"radical", "gentle"})
    void inlineLookupCompactionProducesTheChangelog(String mode) {
        Map<String, String> options = new HashMap<>(TableModel.options(Mode.PARTIAL_UPDATE_REMOVE));
        options.put("changelog-producer", "lookup");
        options.put("lookup-compact", mode);
        options.put("lookup-compact.max-interval", "3");
        options.put("num-sorted-run.compaction-trigger", "4");
        FileStoreTable t = Catalog.open(dir.toString())
                .createTable("db", "inline_" + mode, TestTables.modelSchema(false, 2, options));
        Random rnd = new Random(11);
        int maxLevel0 = 0;
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            for (int commit = 1; commit <= 15; commit++) {
                for (int i = 0; i < 60; i++) {
                    w.write(TableModel.randomRow(rnd, 40));
                }
                c.commit(commit, w.prepareCommit());
                for (BucketsTable.BucketRow b : BucketsTable.rows(t, null)) {
                    maxLevel0 = Math.max(maxLevel0, b.level0Files);
                }
                if (mode.equals("radical")) {
                    assertThat(BucketsTable.rows(t, null))
                            .as("radical: level 0 forced up every commit")
                            .allMatch(b -> b.level0Files == 0);
                    assertThat(replay(t)).isEqualTo(TableModel.toContents(TestTables.scan(t)));
                }
            }
        }
        if (mode.equals("gentle")) {
            assertThat(maxLevel0)
                    .as("gentle lets level-0 files wait, at most max-interval triggers")
                    .isBetween(1, 3);
        }
        t.newCompactor().compact(CompactStrategy.LOOKUP, "compactor", 1);
        assertThat(replay(t)).isEqualTo(TableModel.toContents(TestTables.scan(t)));
    }

    /**
     * {@code changelog-producer.lookup-wait=false}: a commit does not wait for the lookup
     * compaction of its level-0 file, so the changelog lags the data; it has caught up exactly
     * when no level-0 file is left, and {@code prepareLastCommit()} at the end of the input gets
     * it there. The data is right at every commit either way.
     */
    @ParameterizedTest(name = "{0} seed={1}")
    @MethodSource("lookupWaitCases")
    void withoutLookupWaitTheChangelogCatchesUpAtEndOfInput(Mode mode, long seed) {
        Map<String, String> options = new HashMap<>(TableModel.options(mode));
        options.put("changelog-producer", "lookup");
        options.put("changelog-producer.lookup-wait", "false");
        options.put("num-sorted-run.compaction-trigger", "3");
        options.put("target-file-size", "16 kb");
        FileStoreTable t = Catalog.open(dir.toString())
                .createTable("db", "nowait" + (tables++), TestTables.modelSchema(true, 2, options));
        Random rnd = new Random(seed);
        TableModel model = new TableModel(mode);
        int commitsWithLevel0 = 0;
        int caughtUp = 0;
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            for (int commit = 1; commit <= 12; commit++) {
                for (int i = 0, n = 1 + rnd.nextInt(80); i < n; i++) {
                    GenericRow r = TableModel.randomRow(rnd, 30);
                    w.write(r);
                    model.apply(r);
                }
                boolean last = commit == 12;
                c.commit(commit, last ? w.prepareLastCommit() : w.prepareCommit());
                assertThat(TableModel.toContents(TestTables.scan(t)))
                        .as("seed %d commit %d", seed, commit)
                        .isEqualTo(model.contents());
                boolean level0Left = BucketsTable.rows(t, null).stream().anyMatch(b -> b.level0Files > 0);
                if (level0Left) {
                    commitsWithLevel0++;
                } else {
                    caughtUp++;
                    assertThat(replay(t))
                            .as("seed %d: replay at commit %d, level 0 empty", seed, commit)
                            .isEqualTo(TableModel.toContents(TestTables.scan(t)));
                }
                if (last) {
                    assertThat(level0Left)
                            .as("seed %d: the last commit waited for the lookup compaction", seed)
                            .isFalse();
                }
            }
        }
        assertThat(commitsWithLevel0)
                .as("seed %d: commits did not wait for their lookup compaction", seed)
                .isPositive();
        assertThat(caughtUp).isPositive();
    }

    static Stream<Arguments> lookupWaitCases() {
        return Stream.of(
                Arguments.of(Mode.DEDUPLICATE, 501L),
                Arguments.of(Mode.PARTIAL_UPDATE_REMOVE, 502L),
                Arguments.of(Mode.AGGREGATION_REMOVE, 503L),
                Arguments.of(Mode.FIRST_ROW, 504L),
                Arguments.of(Mode.DEDUPLICATE_SEQUENCE_FIELD, 505L),
                Arguments.of(Mode.FIRST_ROW_SEQUENCE_FIELD, 506L),
                Arguments.of(Mode.AGGREGATION_OTHER_FUNCTIONS, 507L));
    }

    @Test
    void inputProducerStoresTheWritersRows() {
        Map<String, String> options = new HashMap<>(TableModel.options(Mode.DEDUPLICATE));
        options.put("changelog-producer", "input");
        FileStoreTable t =
                Catalog.open(dir.toString()).createTable("db", "in", TestTables.modelSchema(false, 2, options));
        Random rnd = new Random(4);
        List<GenericRow> written = new ArrayList<>();
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            for (int commit = 1; commit <= 5; commit++) {
                for (int i = 0; i < 40; i++) {
                    GenericRow r = TableModel.randomRow(rnd, 20);
                    r = new GenericRow(
                            r.kind(), 0, r.get(1), r.get(2), r.get(3), r.get(4), r.get(5), r.get(6), r.get(7));
                    w.write(r);
                    written.add(r);
                }
                c.commit(commit, w.prepareCommit());
            }
        }
        List<GenericRow> changelog = new ArrayList<>();
        try (CloseableIterator<GenericRow> it = t.newIncrementalRead().read(0, 5)) {
            it.forEachRemaining(changelog::add);
        }
        assertThat(changelog).containsExactlyInAnyOrderElementsOf(written);
        // applying the input rows in order gives the table (deduplicate)
        Map<List<Object>, List<Object>> state = new TreeMap<>(TableModel::compareKeys);
        for (GenericRow r : changelog) {
            List<Object> key = List.of(r.get(0), r.get(1));
            if (r.kind().isRetract()) {
                state.remove(key);
            } else {
                state.put(key, new ArrayList<>(Arrays.asList(r.fields())));
            }
        }
        assertThat(state).isEqualTo(TableModel.toContents(TestTables.scan(t)));
    }
}
