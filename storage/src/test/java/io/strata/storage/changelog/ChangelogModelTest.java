package io.strata.storage.changelog;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactResult;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.compact.TableCompactor;
import io.strata.storage.data.BucketHasher;
import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.ChangelogReplay;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TableModel.Mode;
import io.strata.storage.testutil.TestTables;
import io.strata.storage.util.CloseableIterator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The changelog of every compaction, per key and in order, is what a model of the changes says
 * (docs/DESIGN.md, "Changelog"): at each changelog point of a bucket (lookup: a compaction that
 * takes its level-0 files; full-compaction: a compaction of all its files into the top level),
 * for each key of the bucket, from its state at the bucket's previous point to its state now:
 * {@code +I new} when it appeared, {@code -D old} when it disappeared, and when it exists on both
 * sides, {@code -U old, +U new} if any of its rows since then took effect (unless the rows are
 * equal and {@code row-deduplicate}), else nothing. Replaying the end state is checked too, but a
 * spurious equal pair does not break a replay; this test catches it.
 */
class ChangelogModelTest {
    @TempDir
    Path dir;

    private int tables;

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (String producer : List.of("lookup", "full-compaction")) {
            for (Mode m : List.of(
                    Mode.DEDUPLICATE,
                    Mode.DEDUPLICATE_SEQUENCE_FIELD,
                    Mode.FIRST_ROW,
                    Mode.FIRST_ROW_SEQUENCE_FIELD,
                    Mode.PARTIAL_UPDATE_REMOVE,
                    Mode.PARTIAL_UPDATE_IGNORE_DELETE,
                    Mode.AGGREGATION,
                    Mode.AGGREGATION_REMOVE,
                    Mode.AGGREGATION_OTHER_FUNCTIONS)) {
                for (boolean dedup : List.of(false, true)) {
                    out.add(Arguments.of(producer, m, dedup, 1300L + out.size()));
                }
            }
        }
        // the ordered engines once per producer, row-deduplicate alternating (keeps the class short)
        List<Mode> ordered = List.of(
                Mode.PARTIAL_UPDATE_SEQUENCE_FIELD,
                Mode.PARTIAL_UPDATE_SEQUENCE_FIELD_REMOVE,
                Mode.PARTIAL_UPDATE_SEQUENCE_GROUPS,
                Mode.PARTIAL_UPDATE_SEQUENCE_FIELD_GROUPS,
                Mode.AGGREGATION_SEQUENCE_FIELD);
        for (String producer : List.of("lookup", "full-compaction")) {
            for (int i = 0; i < ordered.size(); i++) {
                out.add(Arguments.of(producer, ordered.get(i), (i + producer.length()) % 2 == 0, 1300L + out.size()));
            }
        }
        for (String producer : List.of("lookup", "full-compaction")) {
            out.add(Arguments.of(
                    producer,
                    Mode.PARTIAL_UPDATE_SEQUENCE_GROUP_FUNCTIONS,
                    producer.equals("lookup"),
                    1300L + out.size()));
        }
        for (String producer : List.of("lookup", "full-compaction")) {
            for (Mode m :
                    List.of(Mode.AGGREGATION_SEQUENCE_FIELD_LISTAGG, Mode.PARTIAL_UPDATE_SEQUENCE_GROUP_LISTAGG)) {
                out.add(Arguments.of(producer, m, (m.ordinal() + producer.length()) % 2 == 0, 1300L + out.size()));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} row-deduplicate={2} seed={3}")
    @MethodSource("cases")
    void everyCompactionEmitsTheModelsChanges(String producer, Mode mode, boolean rowDedup, long seed) {
        for (int i = 0; i < TestTables.iterations(); i++) {
            run(producer, mode, rowDedup, seed + 1000L * i);
        }
    }

    private void run(String producer, Mode mode, boolean rowDedup, long seed) {
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
        ChangesModel model = new ChangesModel(
                new TableModel(mode),
                rowDedup,
                new BucketHasher(
                        t.schema().indexesOf(t.schema().bucketKeys()),
                        t.schema().numBuckets()));
        TableCompactor compactor = t.newCompactor();
        ChangelogProducer producerOf = new ChangelogProducer(t.context(), null);
        CompactStrategy changelogStrategy = producer.equals("lookup") ? CompactStrategy.LOOKUP : CompactStrategy.FULL;
        long compactions = 0;
        int points = 0;
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            for (int commit = 1; commit <= 25; commit++) {
                // few keys and small commits, so that keys get rows that change nothing as well as rows that do
                for (int i = 0, n = rnd.nextInt(40); i < n; i++) {
                    GenericRow r = TableModel.randomRow(rnd, 12);
                    w.write(r);
                    model.apply(r);
                }
                c.commit(commit, w.prepareCommit());
                int dice = rnd.nextInt(3);
                if (dice == 0) {
                    continue;
                }
                // a minor compaction may be a changelog point too (lookup: when it takes level 0;
                // full-compaction: when size amplification takes every run to the top level)
                CompactStrategy strategy = dice == 1 ? CompactStrategy.MINOR : changelogStrategy;
                long before = t.snapshotManager().latestId().orElse(0);
                List<CompactResult> results = compactor.compact(strategy, "compactor", ++compactions);
                Map<List<Object>, List<String>> expected = new TreeMap<>(TableModel::compareKeys);
                for (CompactResult r : results) {
                    if (producerOf.applies(
                            r.plan().levels(), r.plan().inputFiles(), r.plan().outputLevel())) {
                        expected.putAll(
                                model.point(r.plan().partition()[0], r.plan().bucket()));
                        points++;
                    }
                }
                assertThat(emitted(t, before))
                        .as("seed %d, commit %d, %s compaction %d", seed, commit, strategy, compactions)
                        .isEqualTo(expected);
            }
        }
        assertThat(points).as("seed %d: changelog points", seed).isGreaterThan(3);
        compactor.compact(changelogStrategy, "compactor", ++compactions);
        assertThat(ChangelogReplay.replay(t)).as("seed %d", seed).isEqualTo(model.table.contents());
    }

    /** The changelog of snapshots after {@code fromExclusive}, per key (p, id), in read order. */
    private static Map<List<Object>, List<String>> emitted(FileStoreTable t, long fromExclusive) {
        Map<List<Object>, List<String>> out = new TreeMap<>(TableModel::compareKeys);
        try (CloseableIterator<GenericRow> it = t.newIncrementalRead()
                .read(fromExclusive, t.snapshotManager().latestId().orElse(0))) {
            while (it.hasNext()) {
                GenericRow r = it.next();
                out.computeIfAbsent(List.of(r.get(0), r.get(1)), k -> new ArrayList<>())
                        .add(r.toString());
            }
        }
        return out;
    }

    /**
     * The model of the changes: the table model, each key's state at its bucket's last changelog
     * point, and the keys one of whose rows took effect since.
     */
    private static final class ChangesModel {
        final TableModel table;
        private final boolean rowDedup;
        private final BucketHasher hasher;
        private final Map<List<Object>, List<Object>> atLastPoint = new HashMap<>();
        private final Set<List<Object>> touched = new HashSet<>();
        private final Set<List<Object>> tookEffect = new HashSet<>();

        ChangesModel(TableModel table, boolean rowDedup, BucketHasher hasher) {
            this.table = table;
            this.rowDedup = rowDedup;
            this.hasher = hasher;
        }

        void apply(GenericRow r) {
            List<Object> key = List.of(r.get(0), r.get(1));
            touched.add(key);
            if (table.apply(r)) {
                tookEffect.add(key);
            }
        }

        /** The changelog expected at a changelog point of (p, bucket), per key; resets the point. */
        Map<List<Object>, List<String>> point(Object p, int bucket) {
            Map<List<Object>, List<Object>> now = table.contents();
            Map<List<Object>, List<String>> out = new HashMap<>();
            for (List<Object> key : new ArrayList<>(touched)) {
                if (!key.get(0).equals(p) || hasher.bucket(keyRow(key)) != bucket) {
                    continue;
                }
                List<String> changes = diff(atLastPoint.get(key), now.get(key), tookEffect.contains(key));
                if (!changes.isEmpty()) {
                    out.put(key, changes);
                }
                if (now.containsKey(key)) {
                    atLastPoint.put(key, now.get(key));
                } else {
                    atLastPoint.remove(key);
                }
                touched.remove(key);
                tookEffect.remove(key);
            }
            return out;
        }

        private List<String> diff(List<Object> before, List<Object> after, boolean effect) {
            List<String> out = new ArrayList<>();
            if (before == null) {
                if (after != null) {
                    out.add(row(RowKind.INSERT, after));
                }
            } else if (after == null) {
                out.add(row(RowKind.DELETE, before));
            } else if (effect && !(rowDedup && TableModel.rowsEqual(before, after))) {
                out.add(row(RowKind.UPDATE_BEFORE, before));
                out.add(row(RowKind.UPDATE_AFTER, after));
            }
            return out;
        }

        private static String row(RowKind kind, List<Object> values) {
            return new GenericRow(kind, values.toArray()).toString();
        }

        /** A row of the model schema holding only the key, for the bucket function (bucket key = id). */
        private static Object[] keyRow(List<Object> key) {
            return new Object[] {key.get(0), key.get(1), null, null, null, null, null, null};
        }
    }
}
