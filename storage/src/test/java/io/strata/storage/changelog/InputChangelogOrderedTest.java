package io.strata.storage.changelog;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.GenericRow;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TableModel.Mode;
import io.strata.storage.testutil.TestTables;
import io.strata.storage.util.CloseableIterator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The input changelog of the ordered engines (every engine under {@code sequence.field}, and
 * sequence groups) against a model of the changes: per commit and key, the commit's rows that
 * reached the table (retractions dropped by {@code ignore-delete} do not; {@code count} inputs
 * are 1), ordered by {@code sequence.field} (nulls first, when the table has one) and then by
 * arrival, whatever spills, flushes and compactions happened (docs/DESIGN.md, "Changelog",
 * {@code input}). And a consumer that merges the changelog, in the order read, as the engine does
 * (the table model fed the changelog rows) ends in the table's state.
 */
class InputChangelogOrderedTest {
    @TempDir
    Path dir;

    private int tables;

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (Mode m : Mode.values()) {
            if (m.ordered() || TableModel.options(m).containsKey("sequence.field")) {
                out.add(Arguments.of(m, 1700L + m.ordinal()));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} seed={1}")
    @MethodSource("cases")
    void eachCommitsChangelogIsItsRowsInTheEnginesOrder(Mode mode, long seed) {
        for (int i = 0; i < TestTables.iterations(); i++) {
            run(mode, seed + 1000L * i);
        }
    }

    private void run(Mode mode, long seed) {
        Random rnd = new Random(seed);
        Map<String, String> options = new HashMap<>(TableModel.options(mode));
        boolean sequenceField = options.containsKey("sequence.field");
        boolean dropsRetractions = "true".equals(options.get("ignore-delete"));
        options.put("changelog-producer", "input");
        options.put("write-only", "true");
        options.put("write-buffer-size", (1 + rnd.nextInt(6)) + " kb");
        options.put("write-buffer-spillable", String.valueOf(rnd.nextBoolean()));
        options.put("write-buffer-spill.dir", dir.resolve("spill").toString());
        options.put("num-sorted-run.compaction-trigger", "3");
        options.put("sort-spill-threshold", "3");
        FileStoreTable t = Catalog.open(dir.toString())
                .createTable("db", "t" + (tables++), TestTables.modelSchema(rnd.nextBoolean(), 2, options));
        TableModel consumer = new TableModel(mode);
        long compactions = 0;
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            for (int commit = 1; commit <= 15; commit++) {
                List<GenericRow> written = new ArrayList<>();
                for (int i = 0, n = rnd.nextInt(4) == 0 ? rnd.nextInt(150) : rnd.nextInt(40); i < n; i++) {
                    GenericRow r = withFewOrderings(TableModel.randomRow(rnd, 12), rnd);
                    w.write(r);
                    if (!(dropsRetractions && r.kind().isRetract())) {
                        written.add(prepared(r, options));
                    }
                }
                long before = t.snapshotManager().latestId().orElse(0);
                c.commit(commit, w.prepareCommit());
                List<GenericRow> changelog = read(t, before);
                assertThat(byKey(changelog))
                        .as("seed %d, commit %d", seed, commit)
                        .isEqualTo(byKey(engineOrder(written, sequenceField)));
                changelog.forEach(consumer::apply);
                assertThat(consumer.contents())
                        .as("seed %d, commit %d: the changelog merged as the engine does", seed, commit)
                        .isEqualTo(TableModel.toContents(TestTables.scan(t)));
                if (rnd.nextInt(3) == 0) {
                    CompactStrategy s = rnd.nextBoolean() ? CompactStrategy.MINOR : CompactStrategy.FULL;
                    t.newCompactor().compact(s, "compactor", ++compactions);
                }
            }
        }
    }

    /** Orderings from a small range, so that a key's rows often tie on it. */
    private static GenericRow withFewOrderings(GenericRow r, Random rnd) {
        Object[] v = r.fields().clone();
        v[7] = v[7] == null ? null : (Object) (long) rnd.nextInt(6);
        return new GenericRow(r.kind(), v);
    }

    /** The row as the writer stores it: a {@code count} input is 1. */
    private static GenericRow prepared(GenericRow r, Map<String, String> options) {
        Object[] v = r.fields().clone();
        for (int i = 0; i < v.length; i++) {
            if ("count".equals(options.get("fields." + TableModel.COLUMNS[i] + ".aggregate-function"))
                    && v[i] != null) {
                v[i] = 1L;
            }
        }
        return new GenericRow(r.kind(), v);
    }

    /** A stable sort by sequence field (nulls first) when the table has one: arrival breaks ties. */
    private static List<GenericRow> engineOrder(List<GenericRow> rows, boolean sequenceField) {
        List<GenericRow> out = new ArrayList<>(rows);
        if (sequenceField) {
            out.sort(Comparator.comparing(r -> (Long) r.get(7), Comparator.nullsFirst(Comparator.naturalOrder())));
        }
        return out;
    }

    private static Map<List<Object>, List<String>> byKey(List<GenericRow> rows) {
        Map<List<Object>, List<String>> out = new TreeMap<>(TableModel::compareKeys);
        for (GenericRow r : rows) {
            out.computeIfAbsent(List.of(r.get(0), r.get(1)), k -> new ArrayList<>())
                    .add(r.toString());
        }
        return out;
    }

    private static List<GenericRow> read(FileStoreTable t, long fromExclusive) {
        List<GenericRow> out = new ArrayList<>();
        try (CloseableIterator<GenericRow> it = t.newIncrementalRead()
                .read(fromExclusive, t.snapshotManager().latestId().orElse(0))) {
            it.forEachRemaining(out::add);
        }
        return out;
    }
}
