package io.strata.storage.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import io.strata.storage.data.ValueCodec;
import io.strata.storage.data.ValueEquality;
import io.strata.storage.options.FileOptions;
import io.strata.storage.schema.DataField;
import io.strata.storage.schema.TableSchema;
import io.strata.storage.testutil.LsmInvariants;
import io.strata.storage.testutil.TestTables;
import io.strata.storage.testutil.TypedValues;
import io.strata.storage.util.CloseableIterator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every type of issue 17 (TINYINT, SMALLINT, CHAR, VARCHAR, TIME, TIMESTAMP_LTZ, ARRAY, MAP, ROW,
 * nested in each other and around the older types; {@link TypedValues#COLUMNS}) round-trips
 * through write, commit and scan, against a model, under deduplicate, partial-update and an append
 * table: with nulls at every depth, empty arrays and maps, spills of the write buffer, small pages
 * and row groups, every codec, random compactions between commits and a full compaction at the
 * end; and through projections that read only flat columns (the hand-written decoder alone) or a
 * mix (decoder and parquet-mr's record assembly side by side). Fixed seeds; a failure names its
 * engine and seed.
 */
class TypesRoundTripTest {
    @TempDir
    Path dir;

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (String engine : new String[] {"deduplicate", "partial-update", "append"}) {
            for (long seed = 1; seed <= 3; seed++) {
                out.add(Arguments.of(engine, seed));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("cases")
    void everyTypeRoundTripsThroughWriteCommitCompactAndScan(String engine, long seed) {
        try {
            run(engine, seed);
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("engine " + engine + " seed " + seed + ": " + e.getMessage(), e);
        }
    }

    private void run(String engine, long seed) {
        Random rnd = new Random(seed * 0x9E3779B97F4A7C15L);
        boolean append = engine.equals("append");
        Map<String, String> options = new HashMap<>();
        options.put("bucket", String.valueOf(1 + rnd.nextInt(3)));
        options.put("write-only", "true");
        options.put("write-buffer-size", (8 + rnd.nextInt(40)) + " kb");
        options.put("write-buffer-spill.dir", dir.resolve("spill").toString());
        // spilling on (the default): an append table's full buffer is flushed instead
        options.put("write-buffer-spillable", "true");
        options.put("target-file-size", (8 + rnd.nextInt(60)) + " kb");
        options.put(
                "file.compression",
                FileOptions.Compression.values()[rnd.nextInt(FileOptions.Compression.values().length)]
                        .name()
                        .toLowerCase(Locale.ROOT));
        if (rnd.nextBoolean()) {
            options.put("file.block-size", (2 + rnd.nextInt(16)) + " kb");
            options.put("file.page-size", (128 + rnd.nextInt(2048)) + " b");
        }
        if (!append) {
            options.put("merge-engine", engine);
        }
        FileStoreTable table =
                Catalog.open(dir.resolve("wh").toString()).createTable("db", "t", TypedValues.schema(append, options));
        TableSchema schema = table.schema();
        Model model = new Model(engine, schema);
        String user = "writer-" + seed;
        long compactions = 0;
        try (TableWrite write = table.newWrite(user);
                TableCommit commit = table.newCommit(user)) {
            int commits = 3 + rnd.nextInt(3);
            for (int c = 1; c <= commits; c++) {
                int rows = 20 + rnd.nextInt(250);
                for (int i = 0; i < rows; i++) {
                    GenericRow r = randomRow(schema, rnd, engine);
                    write.write(r);
                    model.apply(r);
                }
                commit.commit(c, write.prepareCommit());
                assertThat(scan(table)).as("after commit %d", c).isEqualTo(model.rows());
                if (!append && rnd.nextBoolean()) {
                    CompactStrategy s = rnd.nextBoolean() ? CompactStrategy.MINOR : CompactStrategy.FULL;
                    table.newCompactor().compact(s, "compactor-" + seed, ++compactions);
                    assertThat(scan(table))
                            .as("after %s compaction %d", s, compactions)
                            .isEqualTo(model.rows());
                }
            }
        }
        if (!append) {
            table.newCompactor().compact(CompactStrategy.FULL, "compactor-" + seed, ++compactions);
            assertThat(scan(table)).as("after the final full compaction").isEqualTo(model.rows());
            LsmInvariants.check(table);
        }
        for (String[] projection : new String[][] {{"k", "ti", "vc", "lz6", "v"}, {"r", "k", "tm", "mi", "dd"}}) {
            assertThat(TestTables.scan(table.newReadBuilder().withProjection(projection)).stream()
                            .map(r -> Arrays.asList(r.fields()))
                            .map(ValueKey::new)
                            .sorted()
                            .toList())
                    .as("projection %s", List.of(projection))
                    .isEqualTo(model.projected(schema.indexesOf(List.of(projection))));
        }
    }

    /**
     * The lookup and full-compaction changelog producers carry nested values: an update emits the
     * old and the new row as written, and with {@code changelog-producer.row-deduplicate} a write of
     * an equal row (equal by content: lists of byte arrays, rows in arrays, a fresh copy) emits
     * nothing.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"lookup", "full-compaction"})
    void changelogProducersCarryNestedValues(String producer) throws IOException {
        CompactStrategy strategy = producer.equals("lookup") ? CompactStrategy.LOOKUP : CompactStrategy.FULL;
        FileStoreTable table = Catalog.open(dir.resolve("wh").toString())
                .createTable(
                        "db",
                        "c",
                        TypedValues.schema(
                                false,
                                Map.of(
                                        "bucket", "1",
                                        "write-only", "true",
                                        "changelog-producer", producer,
                                        "changelog-producer.row-deduplicate", "true")));
        Random rnd = new Random(7);
        GenericRow first = randomRow(table.schema(), rnd, "partial-update");
        first.fields()[0] = 1L;
        // an array of rows holding a map to bytes: Java's own equals compares these elements by identity
        first.fields()[table.schema().fieldIndex("r")] =
                new Object[] {1, "b", List.of((Object) new Object[] {0.5, Map.of("k", new byte[] {1, 2})})};
        GenericRow second = randomRow(table.schema(), rnd, "partial-update");
        second.fields()[0] = 1L;
        // the same values in new objects: the deduplication compares content, not identity
        GenericRow copy = GenericRow.insert(ValueCodec.decodeTuple(ValueCodec.encodeTuple(first.fields())));
        try (TableWrite w = table.newWrite("w");
                TableCommit c = table.newCommit("w")) {
            assertThat(commitAndCompact(table, w, c, 1, strategy, first)).containsExactly(first);
            assertThat(commitAndCompact(table, w, c, 2, strategy, copy))
                    .as("an equal row")
                    .isEmpty();
            assertThat(commitAndCompact(table, w, c, 3, strategy, second))
                    .containsExactly(
                            new GenericRow(RowKind.UPDATE_BEFORE, first.fields()),
                            new GenericRow(RowKind.UPDATE_AFTER, second.fields()));
        }
    }

    private static List<GenericRow> commitAndCompact(
            FileStoreTable t, TableWrite w, TableCommit c, long id, CompactStrategy strategy, GenericRow row) {
        long before = t.snapshotManager().latestId().orElse(0);
        w.write(row);
        c.commit(id, w.prepareCommit());
        t.newCompactor().compact(strategy, "compactor", id);
        List<GenericRow> out = new ArrayList<>();
        try (CloseableIterator<GenericRow> it = t.newIncrementalRead()
                .read(before, t.snapshotManager().latestId().orElse(0))) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    private static GenericRow randomRow(TableSchema schema, Random rnd, String engine) {
        List<DataField> fields = schema.fields();
        Object[] row = new Object[fields.size()];
        row[0] = (long) rnd.nextInt(60);
        for (int i = 1; i < row.length; i++) {
            row[i] = TypedValues.value(fields.get(i).type(), rnd);
        }
        // partial-update: the model folds inserts only (its delete semantics are the engine tests' concern)
        RowKind kind = engine.equals("deduplicate") && rnd.nextInt(8) == 0 ? RowKind.DELETE : RowKind.INSERT;
        return new GenericRow(kind, row);
    }

    /** The table's rows, sorted by key then content, as comparable lists. */
    private static List<ValueKey> scan(FileStoreTable table) {
        return TestTables.scan(table).stream()
                .peek(r -> assertThat(r.kind()).isEqualTo(RowKind.INSERT))
                .map(r -> new ValueKey(Arrays.asList(r.fields())))
                .sorted()
                .toList();
    }

    /** A row's values with content equality ({@link ValueEquality}), ordered by the BIGINT key if any, then by text. */
    private record ValueKey(List<Object> values) implements Comparable<ValueKey> {
        @Override
        public boolean equals(Object o) {
            return o instanceof ValueKey && ValueEquality.equals(values.toArray(), ((ValueKey) o).values.toArray());
        }

        @Override
        public int hashCode() {
            return ValueEquality.hashCode(values.toArray());
        }

        @Override
        public int compareTo(ValueKey o) {
            return ValueEquality.toString(values.toArray()).compareTo(ValueEquality.toString(o.values.toArray()));
        }

        @Override
        public String toString() {
            return ValueEquality.toString(values.toArray());
        }
    }

    /** What the table holds: per key the engine's fold of its rows; an append table every row. */
    private static final class Model {
        private final String engine;
        private final int arity;
        private final Map<Long, Object[]> byKey = new TreeMap<>();
        private final List<Object[]> appended = new ArrayList<>();

        Model(String engine, TableSchema schema) {
            this.engine = engine;
            this.arity = schema.fields().size();
        }

        void apply(GenericRow r) {
            Object[] v = r.fields();
            long key = (Long) v[0];
            switch (engine) {
                case "append":
                    appended.add(v);
                    break;
                case "deduplicate":
                    if (r.kind().isRetract()) {
                        byKey.remove(key);
                    } else {
                        byKey.put(key, v);
                    }
                    break;
                default: {
                    Object[] merged = byKey.computeIfAbsent(key, k -> {
                        Object[] empty = new Object[arity];
                        empty[0] = k;
                        return empty;
                    });
                    for (int i = 1; i < arity; i++) {
                        if (v[i] != null) {
                            merged[i] = v[i];
                        }
                    }
                }
            }
        }

        private List<Object[]> all() {
            return engine.equals("append") ? appended : new ArrayList<>(byKey.values());
        }

        List<ValueKey> rows() {
            return all().stream()
                    .map(v -> new ValueKey(Arrays.asList(v)))
                    .sorted()
                    .toList();
        }

        List<ValueKey> projected(int[] indexes) {
            return all().stream()
                    .map(v -> {
                        List<Object> p = new ArrayList<>();
                        for (int i : indexes) {
                            p.add(v[i]);
                        }
                        return new ValueKey(p);
                    })
                    .sorted()
                    .toList();
        }
    }
}
