package io.strata.storage.merge;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.testutil.RandomCommits;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * ROW, ARRAY and MAP columns in tables ordered by {@code sequence.field} (their data files hold
 * nested columns and the {@code _ORDERINGS} column side by side): a random stream with late rows,
 * ties, null orderings and retractions, written in random commits with flushes, spills and
 * compactions of every strategy, reads as a model defined over each key's whole row list after
 * every commit and compaction, and the same rows grouped into other commits give the same table.
 *
 * <p>Columns: k, ts (the sequence field), pos ROW&lt;x INT, y STRING&gt;, tags ARRAY&lt;STRING&gt;,
 * attrs MAP&lt;STRING, BIGINT&gt;, n BIGINT. partial-update with {@code remove-record-on-delete};
 * aggregation: pos first_non_null_value (ignoring retractions), tags last_value, attrs
 * last_non_null_value, n sum.
 */
class OrderedNestedTypesTableTest {
    @TempDir
    Path dir;

    private static final int KEYS = 8;

    private static Schema schema(boolean aggregation, Random rnd, Path spill) {
        Schema.Builder b = Schema.newBuilder()
                .column("k", "BIGINT NOT NULL")
                .column("ts", "BIGINT")
                .column("pos", "ROW<x INT, y STRING>")
                .column("tags", "ARRAY<STRING>")
                .column("attrs", "MAP<STRING NOT NULL, BIGINT>")
                .column("n", "BIGINT")
                .primaryKey("k")
                .option("bucket", "1")
                .option("sequence.field", "ts")
                .option("write-only", "true")
                .option("write-buffer-size", (2 + rnd.nextInt(8)) + " kb")
                .option("write-buffer-spillable", String.valueOf(rnd.nextBoolean()))
                .option("write-buffer-spill.dir", spill.toString())
                .option("num-sorted-run.compaction-trigger", String.valueOf(2 + rnd.nextInt(3)))
                .option("sort-spill-threshold", String.valueOf(2 + rnd.nextInt(4)));
        if (aggregation) {
            b.option("merge-engine", "aggregation")
                    .option("fields.pos.aggregate-function", "first_non_null_value")
                    .option("fields.pos.ignore-retract", "true")
                    .option("fields.tags.aggregate-function", "last_value")
                    .option("fields.attrs.aggregate-function", "last_non_null_value")
                    .option("fields.n.aggregate-function", "sum")
                    .option("fields.ts.aggregate-function", "max")
                    .option("fields.ts.ignore-retract", "true");
        } else {
            b.option("merge-engine", "partial-update").option("partial-update.remove-record-on-delete", "true");
        }
        return b.build();
    }

    private static GenericRow randomRow(Random rnd) {
        int k = rnd.nextInt(10);
        RowKind kind =
                k < 6 ? RowKind.INSERT : k < 7 ? RowKind.UPDATE_AFTER : k < 8 ? RowKind.UPDATE_BEFORE : RowKind.DELETE;
        Long ts = rnd.nextInt(8) == 0 ? null : (long) rnd.nextInt(20);
        Object[] pos = rnd.nextInt(3) == 0
                ? null
                : new Object[] {
                    rnd.nextInt(4) == 0 ? null : rnd.nextInt(50), rnd.nextInt(4) == 0 ? null : "y" + rnd.nextInt(9)
                };
        List<Object> tags = null;
        if (rnd.nextInt(3) != 0) {
            tags = new ArrayList<>();
            for (int i = rnd.nextInt(4); i > 0; i--) {
                tags.add(rnd.nextInt(6) == 0 ? null : "t" + rnd.nextInt(5));
            }
        }
        Map<Object, Object> attrs = null;
        if (rnd.nextInt(3) != 0) {
            attrs = new LinkedHashMap<>();
            for (int i = rnd.nextInt(3); i > 0; i--) {
                attrs.put("a" + rnd.nextInt(5), rnd.nextInt(6) == 0 ? null : (long) rnd.nextInt(100));
            }
        }
        Long n = rnd.nextInt(4) == 0 ? null : (long) rnd.nextInt(10);
        return new GenericRow(kind, (long) rnd.nextInt(KEYS), ts, pos, tags, attrs, n);
    }

    /** The reference semantics (docs/DESIGN.md, "Ordering"), from each key's whole row list. */
    private static final class Model implements RandomCommits.KeyedModel {
        private final boolean aggregation;
        private final Map<Long, List<GenericRow>> rows = new TreeMap<>();

        Model(boolean aggregation) {
            this.aggregation = aggregation;
        }

        @Override
        public void apply(GenericRow r) {
            rows.computeIfAbsent((Long) r.get(0), x -> new ArrayList<>()).add(r);
        }

        /** Compares rows i and j of a key's list by (ts, nulls first), then arrival (list index). */
        private static int compare(List<GenericRow> list, int i, int j) {
            Long a = (Long) list.get(i).get(1);
            Long b = (Long) list.get(j).get(1);
            int c = a == null ? (b == null ? 0 : -1) : b == null ? 1 : Long.compare(a, b);
            return c != 0 ? c : Integer.compare(i, j);
        }

        private static int highest(List<GenericRow> list, Predicate<GenericRow> which) {
            int best = -1;
            for (int i = 0; i < list.size(); i++) {
                if (which.test(list.get(i)) && (best < 0 || compare(list, i, best) > 0)) {
                    best = i;
                }
            }
            return best;
        }

        private static int lowest(List<GenericRow> list, Predicate<GenericRow> which) {
            int best = -1;
            for (int i = 0; i < list.size(); i++) {
                if (which.test(list.get(i)) && (best < 0 || compare(list, i, best) < 0)) {
                    best = i;
                }
            }
            return best;
        }

        private static boolean positive(GenericRow r) {
            return !r.kind().isRetract();
        }

        @Override
        public Map<Long, List<Object>> contents() {
            Map<Long, List<Object>> out = new TreeMap<>();
            rows.forEach((k, list) -> {
                Object[] row = aggregation ? aggregate(list) : partialUpdate(list);
                if (row != null) {
                    out.put(k, normalized(row));
                }
            });
            return out;
        }

        private static Object[] partialUpdate(List<GenericRow> list) {
            int del = highest(list, r -> r.kind() == RowKind.DELETE);
            int top = highest(list, Model::positive);
            if (top < 0 || (del >= 0 && compare(list, top, del) < 0)) {
                return null;
            }
            Object[] row = new Object[6];
            row[0] = list.get(top).get(0);
            for (int f = 1; f < 6; f++) {
                int field = f;
                int w = highest(list, r -> positive(r) && r.get(field) != null);
                if (w >= 0 && (del < 0 || compare(list, w, del) > 0)) {
                    row[f] = list.get(w).get(f);
                }
            }
            return row;
        }

        private static Object[] aggregate(List<GenericRow> list) {
            if (highest(list, Model::positive) < 0) {
                return null;
            }
            Object[] row = new Object[6];
            row[0] = list.get(0).get(0);
            Long max = null;
            Long sum = null;
            for (GenericRow r : list) {
                if (positive(r) && r.get(1) != null) {
                    max = max == null ? (Long) r.get(1) : Math.max(max, (Long) r.get(1));
                }
                if (r.get(5) != null) {
                    long v = (Long) r.get(5);
                    sum = (sum == null ? 0 : sum) + (positive(r) ? v : -v);
                }
            }
            row[1] = max;
            int first = lowest(list, r -> positive(r) && r.get(2) != null);
            row[2] = first < 0 ? null : list.get(first).get(2);
            int last = highest(list, r -> true); // last_value: a retraction sets null
            row[3] = positive(list.get(last)) ? list.get(last).get(3) : null;
            int lastNonNull = highest(list, r -> r.get(4) != null); // a retracted value sets null
            row[4] = lastNonNull < 0 || !positive(list.get(lastNonNull))
                    ? null
                    : list.get(lastNonNull).get(4);
            row[5] = sum;
            return row;
        }
    }

    /** Values comparable with equals: a ROW as a list, a MAP as its entries in order. */
    private static List<Object> normalized(Object[] row) {
        List<Object> out = new ArrayList<>();
        for (Object v : row) {
            out.add(normalized(v));
        }
        return out;
    }

    private static Object normalized(Object v) {
        if (v instanceof Object[]) {
            return normalized((Object[]) v);
        }
        if (v instanceof Map) {
            List<Object> entries = new ArrayList<>();
            ((Map<?, ?>) v).forEach((a, b) -> entries.add(Arrays.asList(a, b)));
            return entries;
        }
        return v;
    }

    private static Map<Long, List<Object>> contents(FileStoreTable t) {
        Map<Long, List<Object>> out = new TreeMap<>();
        for (GenericRow r : TestTables.scan(t)) {
            assertThat(out.put((Long) r.get(0), normalized(r.fields()))).isNull();
        }
        return out;
    }

    private FileStoreTable writeInRandomCommits(
            boolean aggregation, String name, List<GenericRow> rows, Random rnd, long seed) {
        FileStoreTable t = Catalog.open(dir.resolve("wh").toString())
                .createTable("db", name, schema(aggregation, rnd, dir.resolve("spill-" + name)));
        RandomCommits.writeAndCheck(
                t, rows, rnd, new Model(aggregation), OrderedNestedTypesTableTest::contents, name, seed);
        return t;
    }

    @ParameterizedTest(name = "aggregation={0} seed={1}")
    @CsvSource({"false, 1", "false, 2", "true, 4", "true, 5"})
    void theTableIsAFunctionOfTheRowStreamWhateverTheCommitsAndCompactions(boolean aggregation, long seed) {
        Random rnd = new Random(seed);
        List<GenericRow> rows = new ArrayList<>();
        for (int i = 200 + rnd.nextInt(150); i > 0; i--) {
            rows.add(randomRow(rnd));
        }
        Model model = new Model(aggregation);
        rows.forEach(model::apply);
        Map<Long, List<Object>> a = contents(writeInRandomCommits(aggregation, "a" + seed, rows, rnd, seed));
        Map<Long, List<Object>> b = contents(writeInRandomCommits(aggregation, "b" + seed, rows, rnd, seed));
        assertThat(a).as("seed %d", seed).isEqualTo(model.contents()).isEqualTo(b);
        assertThat(a.values().stream().anyMatch(r -> r.get(2) != null && r.get(3) != null && r.get(4) != null))
                .as("rows with every nested column set, seed %d", seed)
                .isTrue();
    }
}
