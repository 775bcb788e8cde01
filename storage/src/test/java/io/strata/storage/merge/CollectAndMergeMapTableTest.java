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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * collect, collect with distinct and merge_map through a table: a random stream of rows (nulls,
 * empty arrays and maps, retractions the three fields ignore and a sum field retracts) written
 * in random commits, with flushes and spills forced by a tiny write buffer and compactions of
 * every strategy in between, reads as a model that applies the rows one at a time; and the same
 * rows grouped into other commits give the same table, element and entry order included.
 */
class CollectAndMergeMapTableTest {
    @TempDir
    Path dir;

    private static final int KEYS = 6;

    private static Schema schema(Random rnd, Path spill) {
        return Schema.newBuilder()
                .column("k", "BIGINT NOT NULL")
                .column("tags", "ARRAY<STRING>")
                .column("ids", "ARRAY<INT>")
                .column("attrs", "MAP<STRING NOT NULL, BIGINT>")
                .column("n", "BIGINT")
                .primaryKey("k")
                .option("bucket", "1")
                .option("merge-engine", "aggregation")
                .option("fields.tags.aggregate-function", "collect")
                .option("fields.tags.ignore-retract", "true")
                .option("fields.ids.aggregate-function", "collect")
                .option("fields.ids.distinct", "true")
                .option("fields.ids.ignore-retract", "true")
                .option("fields.attrs.aggregate-function", "merge_map")
                .option("fields.attrs.ignore-retract", "true")
                .option("fields.n.aggregate-function", "sum")
                .option("write-only", "true")
                .option("write-buffer-size", (2 + rnd.nextInt(8)) + " kb")
                .option("write-buffer-spillable", String.valueOf(rnd.nextBoolean()))
                .option("write-buffer-spill.dir", spill.toString())
                .option("num-sorted-run.compaction-trigger", String.valueOf(2 + rnd.nextInt(3)))
                .option("sort-spill-threshold", String.valueOf(2 + rnd.nextInt(4)))
                .build();
    }

    private static GenericRow randomRow(Random rnd) {
        int k = rnd.nextInt(10);
        RowKind kind =
                k < 7 ? RowKind.INSERT : k < 8 ? RowKind.UPDATE_AFTER : k < 9 ? RowKind.UPDATE_BEFORE : RowKind.DELETE;
        List<Object> tags = null;
        List<Object> ids = null;
        Map<Object, Object> attrs = null;
        if (rnd.nextInt(4) != 0) {
            tags = new ArrayList<>();
            for (int i = rnd.nextInt(4); i > 0; i--) {
                tags.add(rnd.nextInt(6) == 0 ? null : "t" + rnd.nextInt(5));
            }
        }
        if (rnd.nextInt(4) != 0) {
            ids = new ArrayList<>();
            for (int i = rnd.nextInt(4); i > 0; i--) {
                ids.add(rnd.nextInt(6) == 0 ? null : rnd.nextInt(6));
            }
        }
        if (rnd.nextInt(4) != 0) {
            attrs = new LinkedHashMap<>();
            for (int i = rnd.nextInt(3); i > 0; i--) {
                attrs.put("a" + rnd.nextInt(5), rnd.nextInt(6) == 0 ? null : (long) rnd.nextInt(100));
            }
        }
        Long n = rnd.nextInt(4) == 0 ? null : (long) rnd.nextInt(10);
        return new GenericRow(kind, (long) rnd.nextInt(KEYS), tags, ids, attrs, n);
    }

    /** The reference semantics, applied one row at a time. */
    private static final class Model implements RandomCommits.KeyedModel {
        private final Map<Long, Object[]> acc = new TreeMap<>();
        private final Map<Long, Boolean> present = new HashMap<>();

        @SuppressWarnings("unchecked")
        @Override
        public void apply(GenericRow r) {
            long key = (Long) r.get(0);
            Object[] a = acc.computeIfAbsent(key, k -> new Object[] {k, null, null, null, null});
            Long n = (Long) r.get(4);
            if (r.kind().isRetract()) {
                if (n != null) {
                    a[4] = a[4] == null ? -n : (Long) a[4] - n;
                }
                return; // collect and merge_map ignore retractions (ignore-retract)
            }
            present.put(key, true);
            if (r.get(1) != null) {
                List<Object> tags = a[1] == null ? new ArrayList<>() : new ArrayList<>((List<Object>) a[1]);
                tags.addAll((List<Object>) r.get(1));
                a[1] = tags;
            }
            if (r.get(2) != null) {
                LinkedHashSet<Object> ids =
                        a[2] == null ? new LinkedHashSet<>() : new LinkedHashSet<>((List<Object>) a[2]);
                ids.addAll((List<Object>) r.get(2));
                a[2] = new ArrayList<>(ids);
            }
            if (r.get(3) != null) {
                Map<Object, Object> attrs =
                        a[3] == null ? new LinkedHashMap<>() : new LinkedHashMap<>((Map<Object, Object>) a[3]);
                attrs.putAll((Map<Object, Object>) r.get(3));
                a[3] = attrs;
            }
            if (n != null) {
                a[4] = a[4] == null ? n : (Long) a[4] + n;
            }
        }

        @Override
        public Map<Long, List<Object>> contents() {
            Map<Long, List<Object>> out = new TreeMap<>();
            acc.forEach((k, a) -> {
                if (present.containsKey(k)) {
                    out.put(k, ordered(a));
                }
            });
            return out;
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

    /** Writes {@code rows} in random commits with random compactions; checks the model after each commit. */
    private FileStoreTable writeInRandomCommits(String name, List<GenericRow> rows, Random rnd, long seed) {
        FileStoreTable t = Catalog.open(dir.resolve("wh").toString())
                .createTable("db", name, schema(rnd, dir.resolve("spill-" + name)));
        RandomCommits.writeAndCheck(t, rows, rnd, new Model(), CollectAndMergeMapTableTest::contents, name, seed);
        return t;
    }

    @ParameterizedTest(name = "seed={0}")
    @ValueSource(longs = {1, 2, 3, 4})
    void theTableIsAFunctionOfTheRowStreamWhateverTheCommitsAndCompactions(long seed) {
        Random rnd = new Random(seed);
        List<GenericRow> rows = new ArrayList<>();
        for (int i = 300 + rnd.nextInt(300); i > 0; i--) {
            rows.add(randomRow(rnd));
        }
        Model model = new Model();
        rows.forEach(model::apply);
        Map<Long, List<Object>> a = contents(writeInRandomCommits("a" + seed, rows, rnd, seed));
        Map<Long, List<Object>> b = contents(writeInRandomCommits("b" + seed, rows, rnd, seed));
        assertThat(a).as("seed %d", seed).isEqualTo(model.contents()).isEqualTo(b);
        assertThat(a.values().stream().anyMatch(r -> r.get(2) != null && ((List<?>) r.get(2)).size() > 1))
                .as("the stream produced accumulated arrays, seed %d", seed)
                .isTrue();
    }
}
