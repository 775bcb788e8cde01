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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every aggregate function: what each folds to (nulls included), that folding in pieces (a write
 * buffer's pre-merge, a compaction, a read) gives what folding at once gives, what retracting
 * leaves for those that can, that the others refuse a -U or -D at write time unless the field
 * ignores retractions, the types each accepts, and the same through a table that is written,
 * compacted and read. The composition of the engine's partial results, retractions included, is
 * {@link AggregateMergeCompositionTest}.
 */
class AggregateFunctionsTest {
    @TempDir
    Path dir;

    /** Folds positive inputs as the merge function does: the first starts the accumulator. */
    static Object fold(AggregateFunction f, DataType t, List<?> values) {
        Object acc = null;
        boolean started = false;
        for (Object v : values) {
            acc = started ? f.agg(t, acc, v) : f.start(t, acc, v);
            started = true;
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
    void firstValueKeepsTheFirstValueNullIncluded() {
        DataType t = DataType.parse("STRING");
        assertThat(fold(AggregateFunction.FIRST_VALUE, t, Arrays.asList(null, "b", "a", null)))
                .isNull();
        assertThat(fold(AggregateFunction.FIRST_VALUE, t, Arrays.asList("a", null, "b")))
                .isEqualTo("a");
        assertThat(fold(AggregateFunction.FIRST_VALUE, t, Arrays.asList(null, null)))
                .isNull();
        assertThat(AggregateFunction.FIRST_VALUE.rejectType(DataType.parse("BOOLEAN")))
                .isNull();
    }

    @Test
    void firstNonNullValueKeepsTheFirstNonNullValue() {
        DataType t = DataType.parse("STRING");
        assertThat(fold(AggregateFunction.FIRST_NON_NULL_VALUE, t, Arrays.asList(null, "b", "a", null)))
                .isEqualTo("b");
        assertThat(fold(AggregateFunction.FIRST_NON_NULL_VALUE, t, Arrays.asList("a", "b")))
                .isEqualTo("a");
        assertThat(fold(AggregateFunction.FIRST_NON_NULL_VALUE, t, Arrays.asList(null, null)))
                .isNull();
        assertThat(AggregateFunction.FIRST_NON_NULL_VALUE.rejectType(DataType.parse("DECIMAL(5, 2)")))
                .isNull();
    }

    @Test
    void productMultipliesNonNullValuesOfNumericTypes() {
        assertThat(fold(AggregateFunction.PRODUCT, DataType.parse("INT"), Arrays.asList(2, null, -3, 7)))
                .isEqualTo(-42);
        assertThat(fold(AggregateFunction.PRODUCT, DataType.parse("BIGINT"), Arrays.asList(null, 5L, 0L, 9L)))
                .isEqualTo(0L);
        assertThat(fold(AggregateFunction.PRODUCT, DataType.parse("BIGINT"), Arrays.asList(1L << 40, 1L << 30)))
                .as("overflow wraps, as sum's does")
                .isEqualTo((1L << 40) * (1L << 30));
        assertThat(fold(AggregateFunction.PRODUCT, DataType.parse("DOUBLE"), Arrays.asList(1.5, 4.0)))
                .isEqualTo(6.0);
        assertThat(fold(AggregateFunction.PRODUCT, DataType.parse("FLOAT"), Arrays.asList(0.5f, 3f)))
                .isEqualTo(1.5f);
        assertThat(fold(
                        AggregateFunction.PRODUCT,
                        DataType.parse("DECIMAL(20, 0)"),
                        Arrays.asList(new BigDecimal("12"), new BigDecimal("-11"))))
                .isEqualTo(new BigDecimal("-132"));
        assertThat(fold(AggregateFunction.PRODUCT, DataType.parse("INT"), Arrays.asList(null, null)))
                .isNull();
        assertThat(AggregateFunction.PRODUCT.rejectType(DataType.parse("STRING")))
                .contains("numeric");
        assertThat(AggregateFunction.PRODUCT.rejectType(DataType.parse("DECIMAL(10, 2)")))
                .contains("scale 0");
    }

    @Test
    void sumCountLastValueAndLastNonNullValueRetract() {
        DataType bigint = DataType.parse("BIGINT");
        DataType string = DataType.parse("STRING");
        assertThat(AggregateFunction.SUM.retract(bigint, 10L, 3L)).isEqualTo(7L);
        assertThat(AggregateFunction.SUM.retract(bigint, null, 3L)).isEqualTo(-3L);
        assertThat(AggregateFunction.SUM.retract(bigint, 10L, null)).isEqualTo(10L);
        assertThat(AggregateFunction.COUNT.retract(bigint, 2L, 1L)).isEqualTo(1L);
        assertThat(AggregateFunction.LAST_VALUE.retract(string, "b", "b")).isNull();
        assertThat(AggregateFunction.LAST_VALUE.retract(string, "b", null))
                .as("last_value: any retraction leaves null, as any input overwrites")
                .isNull();
        assertThat(AggregateFunction.LAST_NON_NULL_VALUE.retract(string, "b", "a"))
                .as("the value before the retracted one is not kept")
                .isNull();
        assertThat(AggregateFunction.LAST_NON_NULL_VALUE.retract(string, "b", null))
                .as("retracting null changes nothing")
                .isEqualTo("b");
        for (AggregateFunction f : List.of(
                AggregateFunction.SUM,
                AggregateFunction.COUNT,
                AggregateFunction.LAST_VALUE,
                AggregateFunction.LAST_NON_NULL_VALUE)) {
            assertThat(f.supportsRetract()).as(f.optionName()).isTrue();
        }
        assertThat(AggregateFunction.LAST_NON_NULL_VALUE.retractMayEmpty()).isTrue();
        assertThat(AggregateFunction.LAST_VALUE.retractMayEmpty()).isFalse();
    }

    @Test
    void orderSensitiveFunctionsAreTheFirstAndLastValuesAndListagg() {
        List<AggregateFunction> sensitive = new ArrayList<>();
        for (AggregateFunction f : AggregateFunction.values()) {
            if (f.orderSensitive()) {
                sensitive.add(f);
            }
        }
        assertThat(sensitive)
                .containsExactlyInAnyOrder(
                        AggregateFunction.LAST_VALUE,
                        AggregateFunction.LAST_NON_NULL_VALUE,
                        AggregateFunction.FIRST_VALUE,
                        AggregateFunction.FIRST_NON_NULL_VALUE,
                        AggregateFunction.LISTAGG,
                        AggregateFunction.COLLECT,
                        AggregateFunction.COLLECT_DISTINCT,
                        AggregateFunction.MERGE_MAP);
    }

    @Test
    void collectConcatenatesTheArraysInOrder() {
        DataType t = DataType.parse("ARRAY<STRING>");
        assertThat(fold(
                        AggregateFunction.COLLECT,
                        t,
                        Arrays.asList(List.of("a", "b"), null, List.of(), Arrays.asList("b", null), List.of("a"))))
                .isEqualTo(Arrays.asList("a", "b", "b", null, "a"));
        assertThat(fold(AggregateFunction.COLLECT, t, Arrays.asList(null, List.of())))
                .as("an empty array is a value, null is none")
                .isEqualTo(List.of());
        assertThat(fold(AggregateFunction.COLLECT, t, Arrays.asList(null, null)))
                .isNull();
        List<String> input = new ArrayList<>(List.of("x"));
        fold(AggregateFunction.COLLECT, t, Arrays.asList(input, List.of("y")));
        assertThat(input).as("inputs are not changed").containsExactly("x");
        assertThat(AggregateFunction.COLLECT.rejectType(DataType.parse("STRING")))
                .contains("ARRAY");
        assertThat(AggregateFunction.COLLECT.rejectType(DataType.parse("ARRAY<MAP<STRING, INT>>")))
                .isNull();
    }

    @Test
    void collectWithDistinctKeepsEachElementAtItsFirstOccurrence() {
        AggregateFunction f = AggregateFunction.COLLECT.withDistinct();
        assertThat(f).isEqualTo(AggregateFunction.COLLECT_DISTINCT);
        assertThat(f.optionName()).isEqualTo("collect");
        assertThat(fold(
                        f,
                        DataType.parse("ARRAY<INT>"),
                        Arrays.asList(Arrays.asList(3, 1, 3), null, List.of(), Arrays.asList(null, 2, 1, null))))
                .isEqualTo(Arrays.asList(3, 1, null, 2));
        assertThat(fold(f, DataType.parse("ARRAY<INT>"), Arrays.asList(null, Arrays.asList(5, 5))))
                .as("a single input is made distinct too")
                .isEqualTo(List.of(5));
        assertThat(fold(f, DataType.parse("ARRAY<INT>"), Arrays.asList(null, List.of())))
                .isEqualTo(List.of());
        // BYTES and ROW elements are arrays: equal by content, not identity
        List<?> bytes = (List<?>) fold(
                f,
                DataType.parse("ARRAY<BYTES>"),
                Arrays.asList(List.of(new byte[] {1}, new byte[] {2}), List.of(new byte[] {1})));
        assertThat(bytes).hasSize(2);
        List<?> rows = (List<?>) fold(
                f,
                DataType.parse("ARRAY<ROW<a INT, b STRING>>"),
                Arrays.asList(List.of((Object) new Object[] {1, "x"}), List.of((Object) new Object[] {1, "x"})));
        assertThat(rows).hasSize(1);
        assertThat(f.rejectType(DataType.parse("ARRAY<ROW<m MAP<STRING, INT>>>")))
                .contains("MAP");
        assertThat(f.rejectType(DataType.parse("MAP<STRING, INT>"))).contains("ARRAY");
        assertThatThrownBy(() -> AggregateFunction.LISTAGG.withDistinct()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void mergeMapLetsALaterValueOfAKeyWinNullIncluded() {
        DataType t = DataType.parse("MAP<STRING, BIGINT>");
        Map<String, Long> first = new LinkedHashMap<>();
        first.put("a", 1L);
        first.put("b", 2L);
        Map<String, Long> second = new LinkedHashMap<>();
        second.put("c", 3L);
        second.put("a", 10L);
        Map<String, Long> third = new LinkedHashMap<>();
        third.put("b", null);
        Map<?, ?> merged =
                (Map<?, ?>) fold(AggregateFunction.MERGE_MAP, t, Arrays.asList(first, null, Map.of(), second, third));
        assertThat(entries(merged))
                .as("a key keeps the position of its first occurrence")
                .containsExactly(List.of("a", 10L), Arrays.asList("b", null), List.of("c", 3L));
        assertThat(first).as("inputs are not changed").containsOnlyKeys("a", "b");
        assertThat(fold(AggregateFunction.MERGE_MAP, t, Arrays.asList(null, Map.of())))
                .isEqualTo(Map.of());
        assertThat(fold(AggregateFunction.MERGE_MAP, t, Arrays.asList(null, null)))
                .isNull();
        assertThat(AggregateFunction.MERGE_MAP.rejectType(DataType.parse("ARRAY<INT>")))
                .contains("MAP");
    }

    /** A map as its entries in order, as [key, value] lists, so that comparisons see the order. */
    static List<List<Object>> entries(Map<?, ?> map) {
        List<List<Object>> out = new ArrayList<>();
        map.forEach((k, v) -> out.add(Arrays.asList(k, v)));
        return out;
    }

    /** Maps as their ordered entries, lists element by element; other values as they are. */
    static Object ordered(Object value) {
        if (value instanceof Map) {
            return entries((Map<?, ?>) value);
        }
        return value;
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
    @EnumSource(AggregateFunction.class)
    void foldingInPiecesEqualsFoldingAtOnce(AggregateFunction f) {
        for (long seed = 0; seed < 300; seed++) {
            Random rnd = new Random(seed);
            ValueSource source = ValueSource.forFunction(f, rnd.nextInt(3));
            List<Object> values = new ArrayList<>();
            for (int i = rnd.nextInt(12); i > 0; i--) {
                values.add(rnd.nextInt(4) == 0 ? null : source.next(rnd));
            }
            List<Object> pieces = new ArrayList<>();
            for (int from = 0; from < values.size(); ) {
                int to = Math.min(values.size(), from + 1 + rnd.nextInt(4));
                pieces.add(fold(f, source.type, values.subList(from, to)));
                from = to;
            }
            assertThat(ordered(fold(f, source.type, pieces)))
                    .as("%s over %s, seed %d, values %s", f, source.type, seed, values)
                    .isEqualTo(ordered(fold(f, source.type, values)));
        }
    }

    /** Values of a type a function accepts; exact types only, so that folding order cannot round. */
    static final class ValueSource {
        final DataType type;

        private ValueSource(String type) {
            this.type = DataType.parse(type);
        }

        static ValueSource forFunction(AggregateFunction f, int variant) {
            switch (f) {
                case SUM:
                case PRODUCT:
                case COUNT:
                    return new ValueSource(new String[] {"INT", "BIGINT", "DECIMAL(38, 0)"}[variant]);
                case LISTAGG:
                    return new ValueSource("STRING");
                case BOOL_AND:
                case BOOL_OR:
                    return new ValueSource("BOOLEAN");
                case COLLECT:
                case COLLECT_DISTINCT:
                    return new ValueSource(
                            new String[] {"ARRAY<INT>", "ARRAY<STRING>", "ARRAY<DECIMAL(10, 2)>"}[variant]);
                case MERGE_MAP:
                    return new ValueSource(
                            new String[] {"MAP<STRING, INT>", "MAP<INT, STRING>", "MAP<DECIMAL(10, 2), DECIMAL(10, 2)>"}
                                    [variant]);
                default:
                    return new ValueSource(new String[] {"INT", "STRING", "DECIMAL(10, 2)"}[variant]);
            }
        }

        Object next(Random rnd) {
            return value(type, rnd);
        }

        /** Arrays and maps of 0 to 3 entries from few distinct values, so that elements and keys repeat. */
        private static Object value(DataType type, Random rnd) {
            switch (type.root()) {
                case ARRAY: {
                    List<Object> out = new ArrayList<>();
                    for (int n = rnd.nextInt(4); n > 0; n--) {
                        out.add(rnd.nextInt(5) == 0 ? null : value(type.elementType(), rnd));
                    }
                    return out;
                }
                case MAP: {
                    Map<Object, Object> out = new LinkedHashMap<>();
                    for (int n = rnd.nextInt(4); n > 0; n--) {
                        out.put(value(type.keyType(), rnd), rnd.nextInt(5) == 0 ? null : value(type.valueType(), rnd));
                    }
                    return out;
                }
                default:
                    return scalar(type, rnd);
            }
        }

        private static Object scalar(DataType type, Random rnd) {
            int v = rnd.nextInt(7) - 3;
            switch (type.root()) {
                case INT:
                    return v;
                case BIGINT:
                    return (long) v;
                case DECIMAL:
                    return BigDecimal.valueOf(v * 100L + rnd.nextInt(100), type.scale());
                case BOOLEAN:
                    return rnd.nextBoolean();
                default:
                    return "v" + (v + 3);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = AggregateFunction.class,
            names = {
                "PRODUCT",
                "MIN",
                "MAX",
                "FIRST_VALUE",
                "FIRST_NON_NULL_VALUE",
                "LISTAGG",
                "BOOL_AND",
                "BOOL_OR",
                "COLLECT",
                "COLLECT_DISTINCT",
                "MERGE_MAP"
            })
    void cannotRetract(AggregateFunction f) {
        assertThat(f.supportsRetract()).isFalse();
        assertThatThrownBy(() -> f.retract(DataType.parse("STRING"), "a", "a"))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining(f.name());
    }

    // ---- through the engine -------------------------------------------------------------

    private static final String[] FIELDS = {"mn", "fn", "la", "ba", "bo"};
    private static final String[] FUNCTIONS = {"min", "first_non_null_value", "listagg", "bool_and", "bool_or"};

    /** k BIGINT key, then one field per function under test, then s BIGINT sum (which can retract). */
    private static Schema schema(Map<String, String> extra) {
        Schema.Builder b = Schema.newBuilder()
                .column("k", "BIGINT NOT NULL")
                .column("mn", "INT")
                .column("fn", "STRING")
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
            RowKind kind, long k, Integer mn, String fn, String la, Boolean ba, Boolean bo, Long s) {
        return new GenericRow(kind, k, mn, fn, la, ba, bo, s);
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

    private static TableSchema oneField(String type, String function, Map<String, String> extra) {
        return SchemaValidation.firstSchema(
                "t",
                Schema.newBuilder()
                        .column("k", "BIGINT NOT NULL")
                        .column("x", type)
                        .primaryKey("k")
                        .option("bucket", "1")
                        .option("merge-engine", "aggregation")
                        .option("fields.x.aggregate-function", function)
                        .options(extra)
                        .build(),
                0);
    }

    @Test
    void productAndFirstNonNullValueRefuseRetractionsNamingTheFieldAndTheOptionThatSkipsThem() {
        for (String function : List.of("product", "first_non_null_value")) {
            MergeEngines engines = MergeEngines.of("db.t", oneField("BIGINT", function, Map.of()));
            for (RowKind kind : new RowKind[] {RowKind.UPDATE_BEFORE, RowKind.DELETE}) {
                assertThatThrownBy(() -> engines.prepare(new GenericRow(kind, 1L, 2L)))
                        .as("%s %s", function, kind)
                        .hasMessageContaining("db.t")
                        .hasMessageContaining("'x'")
                        .hasMessageContaining(function)
                        .hasMessageContaining("cannot retract")
                        .hasMessageContaining("fields.x.ignore-retract=true");
            }
            MergeEngines ignoring =
                    MergeEngines.of("db.t", oneField("BIGINT", function, Map.of("fields.x.ignore-retract", "true")));
            assertThat(ignoring.prepare(new GenericRow(RowKind.DELETE, 1L, 2L))).isNotNull();
        }
        MergeEngines lastNonNull = MergeEngines.of("db.t", oneField("BIGINT", "last_non_null_value", Map.of()));
        assertThat(lastNonNull.prepare(new GenericRow(RowKind.UPDATE_BEFORE, 1L, 2L)))
                .as("last_non_null_value retracts")
                .isNotNull();
    }

    @Test
    void collectAndMergeMapRefuseRetractionsNamingTheFieldAndTheOptionThatSkipsThem() {
        String[][] cases = {
            {"ARRAY<STRING>", "collect", "false", "[a]"},
            {"ARRAY<STRING>", "collect", "true", "[a]"},
            {"MAP<STRING NOT NULL, INT>", "merge_map", "false", "{a=1}"}
        };
        for (String[] c : cases) {
            Object value = c[1].equals("collect") ? List.of("a") : Map.of("a", 1);
            Map<String, String> distinct = c[2].equals("true") ? Map.of("fields.x.distinct", "true") : Map.of();
            MergeEngines engines = MergeEngines.of("db.t", oneField(c[0], c[1], distinct));
            for (RowKind kind : new RowKind[] {RowKind.UPDATE_BEFORE, RowKind.DELETE}) {
                assertThatThrownBy(() -> engines.prepare(new GenericRow(kind, 1L, value)))
                        .as("%s %s distinct=%s", c[1], kind, c[2])
                        .hasMessageContaining("db.t")
                        .hasMessageContaining("'x'")
                        .hasMessageContaining(c[1])
                        .hasMessageContaining("cannot retract")
                        .hasMessageContaining("fields.x.ignore-retract=true");
            }
            Map<String, String> ignoring = new HashMap<>(distinct);
            ignoring.put("fields.x.ignore-retract", "true");
            assertThat(MergeEngines.of("db.t", oneField(c[0], c[1], ignoring))
                            .prepare(new GenericRow(RowKind.DELETE, 1L, value)))
                    .isNotNull();
        }
    }

    @Test
    void distinctIsAnOptionOfCollectFieldsOnly() {
        assertThatThrownBy(() -> MergeEngines.of(
                        "db.t", oneField("ARRAY<INT>", "last_value", Map.of("fields.x.distinct", "true"))))
                .hasMessageContaining("db.t")
                .hasMessageContaining("fields.x.distinct")
                .hasMessageContaining("fields.x.aggregate-function=collect");
        assertThatThrownBy(() ->
                        MergeEngines.of("db.t", oneField("ARRAY<INT>", "collect", Map.of("fields.x.distinct", "yes"))))
                .hasMessageContaining("db.t")
                .hasMessageContaining("fields.x.distinct")
                .hasMessageContaining("true or false");
        assertThatThrownBy(() -> MergeEngines.of(
                        "db.t",
                        oneField("ARRAY<MAP<STRING NOT NULL, INT>>", "collect", Map.of("fields.x.distinct", "true"))))
                .hasMessageContaining("db.t")
                .hasMessageContaining("'x'")
                .hasMessageContaining("ARRAY<MAP<STRING NOT NULL, INT>>")
                .hasMessageContaining("collect")
                .hasMessageContaining("distinct");
        assertThatThrownBy(() -> MergeEngines.of("db.t", oneField("ARRAY<INT>", "collect_distinct", Map.of())))
                .as("the distinct form is not a function name")
                .hasMessageContaining("unknown function 'collect_distinct'")
                .hasMessageContaining("collect, merge_map");
        assertThat(MergeEngines.of("db.t", oneField("ARRAY<INT>", "collect", Map.of("fields.x.distinct", "false")))
                        .engine())
                .isNotNull();
        assertThatThrownBy(() -> MergeEngines.of(
                        "db.t",
                        SchemaValidation.firstSchema(
                                "t",
                                Schema.newBuilder()
                                        .column("k", "BIGINT NOT NULL")
                                        .column("x", "ARRAY<INT>")
                                        .primaryKey("k")
                                        .option("fields.x.distinct", "true")
                                        .build(),
                                0)))
                .as("a known option, but only under aggregation")
                .hasMessageContaining("merge-engine=aggregation");
    }

    @Test
    void aFunctionOverATypeItDoesNotAcceptIsRejectedNamingTableFieldTypeAndFunction() {
        String[][] cases = {
            {"STRING", "product"},
            {"DECIMAL(10, 2)", "product"},
            {"BOOLEAN", "sum"},
            {"DOUBLE", "count"},
            {"INT", "listagg"},
            {"STRING", "bool_or"},
            {"BOOLEAN", "max"},
            {"BIGINT", "collect"},
            {"MAP<STRING NOT NULL, INT>", "collect"},
            {"ARRAY<INT>", "merge_map"},
            {"STRING", "merge_map"}
        };
        for (String[] c : cases) {
            assertThatThrownBy(() -> MergeEngines.of("db.t", oneField(c[0], c[1], Map.of())))
                    .as("%s over %s", c[1], c[0])
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("db.t")
                    .hasMessageContaining("'x'")
                    .hasMessageContaining(c[0])
                    .hasMessageContaining(c[1]);
        }
        for (String type : List.of("INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL(18, 0)")) {
            assertThat(MergeEngines.of("db.t", oneField(type, "product", Map.of()))
                            .engine())
                    .as("product over %s", type)
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

    private static List<Object> values(Integer mn, String fn, String la, Boolean ba, Boolean bo, Long s) {
        return Arrays.asList(mn, fn, la, ba, bo, s);
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
