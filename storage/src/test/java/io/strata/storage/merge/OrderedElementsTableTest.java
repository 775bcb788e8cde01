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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * listagg, collect, collect with distinct and merge_map under an ordering, through a table: a
 * random stream with late rows, ties and null orderings (and, under aggregation, retractions the
 * element fields ignore and a sum retracts), written in random commits with flushes and spills
 * forced by a tiny write buffer and compactions of every strategy in between, reads as a model
 * defined over each key's whole row list after every commit and compaction; and the same rows
 * grouped into other commits give the same table, element and entry order included. Seeds are in
 * every failure message.
 *
 * <p>Columns: k, ts BIGINT, s STRING (listagg), tags ARRAY&lt;STRING&gt; (collect), ids
 * ARRAY&lt;INT&gt; (collect, distinct), attrs MAP&lt;STRING, BIGINT&gt; (merge_map), n BIGINT (sum).
 * aggregation: {@code sequence.field=ts}, ts max. partial-update: one sequence group ordered by
 * ts holding every other column, {@code ignore-delete}.
 */
class OrderedElementsTableTest {
    @TempDir
    Path dir;

    private static final int KEYS = 6;
    private static final String[] PIECES = {"p1", "p2", "a,b", "", ",", "\uD83D\uDE00", "é,x", "p3"};

    private static Schema schema(boolean aggregation, Random rnd, Path spill) {
        Schema.Builder b = Schema.newBuilder()
                .column("k", "BIGINT NOT NULL")
                .column("ts", "BIGINT")
                .column("s", "STRING")
                .column("tags", "ARRAY<STRING>")
                .column("ids", "ARRAY<INT>")
                .column("attrs", "MAP<STRING NOT NULL, BIGINT>")
                .column("n", "BIGINT")
                .primaryKey("k")
                .option("bucket", "1")
                .option("fields.s.aggregate-function", "listagg")
                .option("fields.tags.aggregate-function", "collect")
                .option("fields.ids.aggregate-function", "collect")
                .option("fields.ids.distinct", "true")
                .option("fields.attrs.aggregate-function", "merge_map")
                .option("fields.n.aggregate-function", "sum")
                .option("write-only", "true")
                .option("write-buffer-size", (2 + rnd.nextInt(8)) + " kb")
                .option("write-buffer-spillable", String.valueOf(rnd.nextBoolean()))
                .option("write-buffer-spill.dir", spill.toString())
                .option("num-sorted-run.compaction-trigger", String.valueOf(2 + rnd.nextInt(3)))
                .option("sort-spill-threshold", String.valueOf(2 + rnd.nextInt(4)));
        if (aggregation) {
            b.option("merge-engine", "aggregation")
                    .option("sequence.field", "ts")
                    .option("fields.ts.aggregate-function", "max");
            for (String f : new String[] {"ts", "s", "tags", "ids", "attrs"}) {
                b.option("fields." + f + ".ignore-retract", "true");
            }
        } else {
            b.option("merge-engine", "partial-update")
                    .option("fields.ts.sequence-group", "s,tags,ids,attrs,n")
                    .option("ignore-delete", "true");
        }
        return b.build();
    }

    private static GenericRow randomRow(Random rnd, boolean aggregation) {
        int k = rnd.nextInt(10);
        RowKind kind = !aggregation || k < 6
                ? RowKind.INSERT
                : k < 7 ? RowKind.UPDATE_AFTER : k < 9 ? RowKind.UPDATE_BEFORE : RowKind.DELETE;
        Long ts = rnd.nextInt(7) == 0 ? null : (long) rnd.nextInt(12);
        String s = rnd.nextInt(3) == 0 ? null : PIECES[rnd.nextInt(PIECES.length)];
        List<Object> tags = null;
        if (rnd.nextInt(3) != 0) {
            tags = new ArrayList<>();
            for (int i = rnd.nextInt(4); i > 0; i--) {
                tags.add(rnd.nextInt(6) == 0 ? null : "t" + rnd.nextInt(5));
            }
        }
        List<Object> ids = null;
        if (rnd.nextInt(3) != 0) {
            ids = new ArrayList<>();
            for (int i = rnd.nextInt(4); i > 0; i--) {
                ids.add(rnd.nextInt(6) == 0 ? null : rnd.nextInt(6));
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
        return new GenericRow(kind, (long) rnd.nextInt(KEYS), ts, s, tags, ids, attrs, n);
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

        @Override
        public Map<Long, List<Object>> contents() {
            Map<Long, List<Object>> out = new TreeMap<>();
            rows.forEach((k, list) -> {
                Object[] row = row(list);
                if (row != null) {
                    out.put(k, ordered(row));
                }
            });
            return out;
        }

        /**
         * The rows the element fields fold, in ascending (ts nulls first, arrival): every +I/+U
         * (aggregation), or every row carrying the group's sequence, ts (partial-update).
         */
        private List<GenericRow> folded(List<GenericRow> list) {
            List<Integer> idx = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                GenericRow r = list.get(i);
                if (!r.kind().isRetract() && (aggregation || r.get(1) != null)) {
                    idx.add(i);
                }
            }
            idx.sort((i, j) -> {
                Long a = (Long) list.get(i).get(1);
                Long b = (Long) list.get(j).get(1);
                int c = a == null ? (b == null ? 0 : -1) : b == null ? 1 : Long.compare(a, b);
                return c != 0 ? c : Integer.compare(i, j);
            });
            List<GenericRow> out = new ArrayList<>();
            idx.forEach(i -> out.add(list.get(i)));
            return out;
        }

        @SuppressWarnings("unchecked")
        private Object[] row(List<GenericRow> list) {
            if (list.stream().allMatch(r -> r.kind().isRetract())) {
                return null;
            }
            List<GenericRow> folded = folded(list);
            Object[] row = new Object[7];
            row[0] = list.get(0).get(0);
            Long sum = null;
            for (GenericRow r : aggregation ? list : folded) {
                if (r.get(6) != null) {
                    long v = (Long) r.get(6);
                    sum = (sum == null ? 0 : sum) + (r.kind().isRetract() ? -v : v);
                }
            }
            row[6] = sum;
            String joined = null;
            List<Object> tags = null;
            List<Object> ids = null;
            Map<Object, Integer> winner = new HashMap<>();
            for (int i = 0; i < folded.size(); i++) {
                GenericRow r = folded.get(i);
                row[1] = r.get(1) == null ? row[1] : r.get(1); // max ts: the highest non-null
                if (r.get(2) != null) {
                    joined = joined == null ? (String) r.get(2) : joined + "," + r.get(2);
                }
                if (r.get(3) != null) {
                    tags = tags == null ? new ArrayList<>() : tags;
                    tags.addAll((List<Object>) r.get(3));
                }
                if (r.get(4) != null) {
                    ids = ids == null ? new ArrayList<>() : ids;
                    for (Object e : (List<Object>) r.get(4)) {
                        if (!ids.contains(e)) {
                            ids.add(e);
                        }
                    }
                }
                if (r.get(5) != null) {
                    for (Object key : ((Map<Object, Object>) r.get(5)).keySet()) {
                        winner.put(key, i);
                    }
                }
            }
            row[2] = joined;
            row[3] = tags;
            row[4] = ids;
            Map<Object, Object> attrs = null;
            for (int i = 0; i < folded.size(); i++) {
                Map<Object, Object> m = (Map<Object, Object>) folded.get(i).get(5);
                if (m != null) {
                    attrs = attrs == null ? new LinkedHashMap<>() : attrs;
                    for (Map.Entry<Object, Object> e : m.entrySet()) {
                        if (winner.get(e.getKey()) == i) {
                            attrs.put(e.getKey(), e.getValue());
                        }
                    }
                }
            }
            row[5] = attrs;
            return row;
        }
    }

    private static List<Object> ordered(Object[] row) {
        List<Object> out = new ArrayList<>();
        for (Object v : row) {
            out.add(AggregateFunctionsTest.ordered(v));
        }
        return out;
    }

    private static Map<Long, List<Object>> contents(FileStoreTable t) {
        Map<Long, List<Object>> out = new TreeMap<>();
        for (GenericRow r : TestTables.scan(t)) {
            assertThat(out.put((Long) r.get(0), ordered(r.fields()))).isNull();
        }
        return out;
    }

    private FileStoreTable writeInRandomCommits(
            boolean aggregation, String name, List<GenericRow> rows, Random rnd, long seed) {
        FileStoreTable t = Catalog.open(dir.resolve("wh").toString())
                .createTable("db", name, schema(aggregation, rnd, dir.resolve("spill-" + name)));
        RandomCommits.writeAndCheck(
                t, rows, rnd, new Model(aggregation), OrderedElementsTableTest::contents, name, seed);
        return t;
    }

    @ParameterizedTest(name = "aggregation={0} seed={1}")
    @CsvSource({"true, 1", "true, 2", "true, 3", "false, 4", "false, 5", "false, 6"})
    void theTableIsAFunctionOfTheRowStreamWhateverTheCommitsAndCompactions(boolean aggregation, long seed) {
        Random rnd = new Random(seed);
        List<GenericRow> rows = new ArrayList<>();
        for (int i = 250 + rnd.nextInt(200); i > 0; i--) {
            rows.add(randomRow(rnd, aggregation));
        }
        Model model = new Model(aggregation);
        rows.forEach(model::apply);
        Map<Long, List<Object>> a = contents(writeInRandomCommits(aggregation, "a" + seed, rows, rnd, seed));
        Map<Long, List<Object>> b = contents(writeInRandomCommits(aggregation, "b" + seed, rows, rnd, seed));
        assertThat(a).as("seed %d", seed).isEqualTo(model.contents()).isEqualTo(b);
        assertThat(a.values().stream()
                        .anyMatch(r -> r.get(2) != null
                                && ((String) r.get(2)).contains(",,")
                                && r.get(5) != null
                                && ((List<?>) r.get(5)).size() > 1))
                .as("rows with a listagg of empty pieces and a merged map, seed %d", seed)
                .isTrue();
    }
}
