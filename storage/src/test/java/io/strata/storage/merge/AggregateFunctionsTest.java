package io.strata.storage.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.GenericRow;
import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import io.strata.storage.schema.DataType;
import io.strata.storage.schema.Schema;
import io.strata.storage.schema.SchemaValidation;
import io.strata.storage.schema.TableSchema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.TestTables;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * min, first_value, listagg, bool_and and bool_or: what each folds to (nulls included), that
 * folding in pieces (a write buffer's pre-merge, a compaction, a read) gives what folding at once
 * gives, that none of them retracts (a -U or -D is refused at write time unless the field ignores
 * retractions), and the same through a table that is written, compacted and read.
 */
class AggregateFunctionsTest {
    @TempDir
    Path dir;

    private static Object fold(AggregateFunction f, DataType t, List<?> values) {
        Object acc = null;
        for (Object v : values) {
            acc = f.agg(t, acc, v);
        }
        return acc;
    }

    @Test
    void minKeepsTheSmallestNonNullValueOfAnOrderedType() {
        assertThat(fold(AggregateFunction.MIN, DataType.parse("INT"), Arrays.asList(5, null, 3, 7, -1, null)))
                .isEqualTo(-1);
        assertThat(fold(AggregateFunction.MIN, DataType.parse("STRING"), Arrays.asList("pear", "apple", null, "fig")))
                .isEqualTo("apple");
        assertThat(fold(
                        AggregateFunction.MIN,
                        DataType.parse("DECIMAL(10, 2)"),
                        Arrays.asList(new BigDecimal("2.50"), new BigDecimal("-0.75"), new BigDecimal("10.00"))))
                .isEqualTo(new BigDecimal("-0.75"));
        assertThat(fold(AggregateFunction.MIN, DataType.parse("BIGINT"), Arrays.asList(null, null)))
                .isNull();
        assertThat(AggregateFunction.MIN.rejectType(DataType.parse("BOOLEAN"))).isNotNull();
        assertThat(AggregateFunction.MIN.rejectType(DataType.parse("DOUBLE"))).isNull();
    }

    @Test
    void firstValueKeepsTheFirstNonNullValue() {
        DataType t = DataType.parse("STRING");
        assertThat(fold(AggregateFunction.FIRST_VALUE, t, Arrays.asList(null, "b", "a", null)))
                .isEqualTo("b");
        assertThat(fold(AggregateFunction.FIRST_VALUE, t, Arrays.asList("a", "b")))
                .isEqualTo("a");
        assertThat(fold(AggregateFunction.FIRST_VALUE, t, Arrays.asList(null, null)))
                .isNull();
        assertThat(AggregateFunction.FIRST_VALUE.rejectType(DataType.parse("BOOLEAN")))
                .isNull();
    }

    @Test
    void listaggJoinsNonNullStringsInOrder() {
        DataType t = DataType.parse("STRING");
        assertThat(fold(AggregateFunction.LISTAGG, t, Arrays.asList("a", null, "b", "", "c")))
                .isEqualTo("a,b,,c");
        assertThat(fold(AggregateFunction.LISTAGG, t, Arrays.asList(null, "only")))
                .isEqualTo("only");
        assertThat(fold(AggregateFunction.LISTAGG, t, Arrays.asList((Object) null)))
                .isNull();
        assertThat(AggregateFunction.LISTAGG.rejectType(DataType.parse("INT"))).contains("STRING");
    }

    @Test
    void boolAndAndBoolOrIgnoreNulls() {
        DataType t = DataType.parse("BOOLEAN");
        assertThat(fold(AggregateFunction.BOOL_AND, t, Arrays.asList(true, null, true)))
                .isEqualTo(true);
        assertThat(fold(AggregateFunction.BOOL_AND, t, Arrays.asList(true, false, null, true)))
                .isEqualTo(false);
        assertThat(fold(AggregateFunction.BOOL_AND, t, Arrays.asList(null, null)))
                .isNull();
        assertThat(fold(AggregateFunction.BOOL_OR, t, Arrays.asList(false, null, false)))
                .isEqualTo(false);
        assertThat(fold(AggregateFunction.BOOL_OR, t, Arrays.asList(false, true, null, false)))
                .isEqualTo(true);
        assertThat(fold(AggregateFunction.BOOL_OR, t, Arrays.asList((Object) null)))
                .isNull();
        assertThat(AggregateFunction.BOOL_AND.rejectType(DataType.parse("INT"))).contains("BOOLEAN");
        assertThat(AggregateFunction.BOOL_OR.rejectType(DataType.parse("STRING")))
                .contains("BOOLEAN");
    }

    /** Folding pieces and then the pieces' results equals folding all values: what pre-merging relies on. */
    @ParameterizedTest
    @EnumSource(
            value = AggregateFunction.class,
            names = {"MIN", "FIRST_VALUE", "LISTAGG", "BOOL_AND", "BOOL_OR"})
    void foldingInPiecesEqualsFoldingAtOnce(AggregateFunction f) {
        boolean bool = f == AggregateFunction.BOOL_AND || f == AggregateFunction.BOOL_OR;
        DataType t = DataType.parse(bool ? "BOOLEAN" : "STRING");
        for (long seed = 0; seed < 200; seed++) {
            Random rnd = new Random(seed);
            List<Object> values = new ArrayList<>();
            for (int i = rnd.nextInt(12); i > 0; i--) {
                values.add(rnd.nextInt(4) == 0 ? null : bool ? (Object) rnd.nextBoolean() : "v" + rnd.nextInt(5));
            }
            List<Object> pieces = new ArrayList<>();
            for (int from = 0; from < values.size(); ) {
                int to = Math.min(values.size(), from + 1 + rnd.nextInt(4));
                pieces.add(fold(f, t, values.subList(from, to)));
                from = to;
            }
            assertThat(fold(f, t, pieces))
                    .as("%s, seed %d, values %s", f, seed, values)
                    .isEqualTo(fold(f, t, values));
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = AggregateFunction.class,
            names = {"MIN", "FIRST_VALUE", "LISTAGG", "BOOL_AND", "BOOL_OR"})
    void cannotRetract(AggregateFunction f) {
        assertThat(f.supportsRetract()).isFalse();
        assertThatThrownBy(() -> f.retract(DataType.parse("STRING"), "a", "a"))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining(f.name());
    }

    // ---- through the engine -------------------------------------------------------------

    private static final String[] FIELDS = {"mn", "fv", "la", "ba", "bo"};
    private static final String[] FUNCTIONS = {"min", "first_value", "listagg", "bool_and", "bool_or"};

    /** k BIGINT key, then one field per function under test, then s BIGINT sum (which can retract). */
    private static Schema schema(Map<String, String> extra) {
        Schema.Builder b = Schema.newBuilder()
                .column("k", "BIGINT NOT NULL")
                .column("mn", "INT")
                .column("fv", "STRING")
                .column("la", "STRING")
                .column("ba", "BOOLEAN")
                .column("bo", "BOOLEAN")
                .column("s", "BIGINT")
                .primaryKey("k")
                .option("bucket", "1")
                .option("merge-engine", "aggregation")
                .option("fields.s.aggregate-function", "sum");
        for (int i = 0; i < FIELDS.length; i++) {
            b.option("fields." + FIELDS[i] + ".aggregate-function", FUNCTIONS[i]);
        }
        return b.options(extra).build();
    }

    private static GenericRow row(
            RowKind kind, long k, Integer mn, String fv, String la, Boolean ba, Boolean bo, Long s) {
        return new GenericRow(kind, k, mn, fv, la, ba, bo, s);
    }

    @Test
    void retractionsAreRefusedAtWriteTimeNamingTheFieldUnlessItIgnoresThem() {
        for (int i = 0; i < FIELDS.length; i++) {
            Map<String, String> ignoreOthers = new HashMap<>();
            for (int j = 0; j < FIELDS.length; j++) {
                if (j != i) {
                    ignoreOthers.put("fields." + FIELDS[j] + ".ignore-retract", "true");
                }
            }
            TableSchema schema = SchemaValidation.firstSchema("t", schema(ignoreOthers), 0);
            MergeEngines engines = MergeEngines.of("db.t", schema);
            for (RowKind kind : new RowKind[] {RowKind.UPDATE_BEFORE, RowKind.DELETE}) {
                String field = FIELDS[i];
                assertThatThrownBy(() -> engines.prepare(row(kind, 1, 1, "a", "a", true, true, 1L)))
                        .as("%s of %s", kind, field)
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("db.t")
                        .hasMessageContaining("'" + field + "'")
                        .hasMessageContaining(FUNCTIONS[i])
                        .hasMessageContaining("cannot retract")
                        .hasMessageContaining("fields." + field + ".ignore-retract=true");
            }
            ignoreOthers.put("fields." + FIELDS[i] + ".ignore-retract", "true");
            MergeEngines ignoring = MergeEngines.of("db.t", SchemaValidation.firstSchema("t", schema(ignoreOthers), 0));
            assertThat(ignoring.prepare(row(RowKind.UPDATE_BEFORE, 1, 1, "a", "a", true, true, 1L)))
                    .isNotNull();
        }
    }

    @Test
    void removeRecordOnDeleteAcceptsDeletesButNotUpdateBefore() {
        MergeEngines engines = MergeEngines.of(
                "db.t",
                SchemaValidation.firstSchema("t", schema(Map.of("aggregation.remove-record-on-delete", "true")), 0));
        assertThat(engines.prepare(row(RowKind.DELETE, 1, 1, "a", "a", true, true, 1L)))
                .isNotNull();
        assertThatThrownBy(() -> engines.prepare(row(RowKind.UPDATE_BEFORE, 1, 1, "a", "a", true, true, 1L)))
                .hasMessageContaining("'mn'")
                .hasMessageContaining("cannot retract");
    }

    /** A retraction that reaches the merge function of a field that cannot retract fails, naming the function. */
    @Test
    void theMergeFunctionFailsOnARetractionThatWriteTimeWouldHaveRefused() {
        TableSchema schema = SchemaValidation.firstSchema("t", schema(Map.of()), 0);
        MergeFunction f = MergeEngines.of("db.t", schema).functionFactory().get();
        f.reset();
        f.add(new KeyValue(0, RowKind.INSERT, new Object[] {1L, 5, "a", "a", true, true, 1L}));
        assertThatThrownBy(() ->
                        f.add(new KeyValue(1, RowKind.UPDATE_BEFORE, new Object[] {1L, 5, "a", "a", true, true, 1L})))
                .hasMessageContaining("MIN cannot retract");
    }

    private FileStoreTable table(String name, Map<String, String> extra) {
        Map<String, String> o = new HashMap<>(extra);
        o.put("write-only", "true");
        return Catalog.open(dir.toString()).createTable("db", name, schema(o));
    }

    private static void commit(FileStoreTable t, long id, GenericRow... rows) {
        try (TableWrite w = t.newWrite("u");
                TableCommit c = t.newCommit("u")) {
            for (GenericRow r : rows) {
                w.write(r);
            }
            c.commit(id, w.prepareCommit());
        }
    }

    private static Map<Long, List<Object>> contents(FileStoreTable t) {
        Map<Long, List<Object>> out = new TreeMap<>();
        for (GenericRow r : TestTables.scan(t)) {
            assertThat(r.kind()).isEqualTo(RowKind.INSERT);
            out.put((Long) r.get(0), Arrays.asList(r.fields()).subList(1, r.arity()));
        }
        return out;
    }

    private static List<Object> values(Integer mn, String fv, String la, Boolean ba, Boolean bo, Long s) {
        return Arrays.asList(mn, fv, la, ba, bo, s);
    }

    @Test
    void aTableAggregatesAcrossCommitsCompactionsAndReads() {
        FileStoreTable t = table("agg", Map.of());
        // commit 1: two rows of key 1 pre-merge in the write buffer; key 2 is all nulls
        commit(
                t,
                1,
                row(RowKind.INSERT, 1, 5, null, "a", true, false, 10L),
                row(RowKind.INSERT, 1, 3, "x", null, null, null, 1L),
                row(RowKind.INSERT, 2, null, null, null, null, null, null));
        commit(
                t,
                2,
                row(RowKind.UPDATE_AFTER, 1, null, "y", "b", true, false, 100L),
                row(RowKind.INSERT, 3, -4, "only", "solo", true, false, 5L));
        Map<Long, List<Object>> afterTwo = Map.of(
                1L, values(3, "x", "a,b", true, false, 111L),
                2L, values(null, null, null, null, null, null),
                3L, values(-4, "only", "solo", true, false, 5L));
        assertThat(contents(t)).as("merged at read, two level-0 files").isEqualTo(afterTwo);
        t.newCompactor().compact(CompactStrategy.FULL, "compactor", 1);
        assertThat(contents(t)).as("after a full compaction").isEqualTo(afterTwo);

        commit(
                t,
                3,
                row(RowKind.INSERT, 1, 7, "z", "c", false, true, 1000L),
                row(RowKind.INSERT, 3, 2, null, null, null, true, null),
                row(RowKind.INSERT, 2, null, null, null, false, null, null));
        Map<Long, List<Object>> expected = Map.of(
                1L, values(3, "x", "a,b,c", false, true, 1111L),
                2L, values(null, null, null, false, null, null),
                3L, values(-4, "only", "solo", true, true, 5L));
        assertThat(contents(t))
                .as("a compacted accumulator merged with a new level-0 file at read")
                .isEqualTo(expected);
        t.newCompactor().compact(CompactStrategy.FULL, "compactor", 2);
        assertThat(contents(t)).as("after the second full compaction").isEqualTo(expected);
    }

    @Test
    void aTableWhoseFieldsIgnoreRetractionsSkipsThemForThoseFieldsOnly() {
        Map<String, String> ignore = new HashMap<>();
        for (String f : FIELDS) {
            ignore.put("fields." + f + ".ignore-retract", "true");
        }
        FileStoreTable t = table("agg_ignore", ignore);
        commit(
                t,
                1,
                row(RowKind.INSERT, 1, 5, "x", "a", true, false, 10L),
                row(RowKind.INSERT, 2, 8, "p", "q", false, true, 7L));
        commit(
                t,
                2,
                row(RowKind.UPDATE_BEFORE, 1, 1, "q", "zz", false, true, 10L),
                row(RowKind.UPDATE_AFTER, 1, 4, "w", "b", true, false, 20L),
                row(RowKind.DELETE, 2, -100, "gone", "gone", true, false, 7L));
        Map<Long, List<Object>> expected = Map.of(
                1L, values(4, "x", "a,b", true, false, 20L),
                2L, values(8, "p", "q", false, true, 0L));
        assertThat(contents(t)).as("merged at read").isEqualTo(expected);
        t.newCompactor().compact(CompactStrategy.FULL, "compactor", 1);
        assertThat(contents(t)).as("after a full compaction").isEqualTo(expected);

        // a retraction alone in a commit (nothing to fold it into until the compaction or the read)
        commit(t, 3, row(RowKind.UPDATE_BEFORE, 1, -5, "r", "r", false, true, 20L));
        Map<Long, List<Object>> retracted = Map.of(
                1L, values(4, "x", "a,b", true, false, 0L),
                2L, values(8, "p", "q", false, true, 0L));
        assertThat(contents(t)).isEqualTo(retracted);
        t.newCompactor().compact(CompactStrategy.FULL, "compactor", 2);
        assertThat(contents(t)).isEqualTo(retracted);
    }
}
