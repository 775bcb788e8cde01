package io.strata.storage.merge;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.data.GenericRow;
import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import io.strata.storage.schema.Schema;
import io.strata.storage.schema.SchemaValidation;
import io.strata.storage.schema.TableSchema;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The aggregation engine's partial results compose, for every function and with retractions:
 * folding a key's records at once gives the same row as folding random groups of them into
 * partial results (as write buffers and compactions do), regrouping those again, and folding the
 * last records with a group's top-level result (a compaction into the top level). Under
 * {@code sequence.field} any subset of a key's records, in any order, may be pre-merged together
 * (late rows), so there the groups are random subsets, shuffled, and the element functions
 * (listagg, collect, merge_map) are also checked against their definition. Seeds are printed on
 * failure.
 */
class AggregateMergeCompositionTest {
    private static final String[] FUNCTIONS = {
        "sum",
        "product",
        "count",
        "min",
        "max",
        "last_value",
        "last_non_null_value",
        "first_value",
        "first_non_null_value",
        "listagg",
        "bool_and",
        "bool_or",
        "collect",
        "collect",
        "merge_map"
    };
    private static final String[] TYPES = {
        "BIGINT",
        "DECIMAL(38, 0)",
        "INT",
        "INT",
        "STRING",
        "STRING",
        "STRING",
        "STRING",
        "STRING",
        "STRING",
        "BOOLEAN",
        "BOOLEAN",
        "ARRAY<STRING>",
        "ARRAY<INT>",
        "MAP<STRING NOT NULL, INT>"
    };
    /** The second collect field keeps each element once. */
    private static final int DISTINCT_FIELD = 13;

    private static TableSchema schema(boolean removeOnDelete) {
        return schema(removeOnDelete, false);
    }

    /** Ordered: a column ts BIGINT after k is the sequence field (its own function is the default). */
    private static TableSchema schema(boolean removeOnDelete, boolean ordered) {
        Schema.Builder b = Schema.newBuilder().column("k", "BIGINT NOT NULL");
        if (ordered) {
            b.column("ts", "BIGINT").option("sequence.field", "ts");
        }
        for (int i = 0; i < FUNCTIONS.length; i++) {
            b.column("f" + i, TYPES[i]);
        }
        b.primaryKey("k").option("bucket", "1").option("merge-engine", "aggregation");
        for (int i = 0; i < FUNCTIONS.length; i++) {
            b.option("fields.f" + i + ".aggregate-function", FUNCTIONS[i]);
            if (!AggregateFunction.fromOption("t", "f" + i, FUNCTIONS[i]).supportsRetract()) {
                b.option("fields.f" + i + ".ignore-retract", "true");
            }
        }
        b.option("fields.f" + DISTINCT_FIELD + ".distinct", "true");
        b.option("aggregation.remove-record-on-delete", String.valueOf(removeOnDelete));
        return SchemaValidation.firstSchema("t", b.build(), 0);
    }

    private static Object value(Random rnd, int field) {
        if (rnd.nextInt(3) == 0) {
            return null;
        }
        int v = rnd.nextInt(5) - 1;
        switch (TYPES[field]) {
            case "BIGINT":
                return (long) v;
            case "DECIMAL(38, 0)":
                return BigDecimal.valueOf(v);
            case "INT":
                return v;
            case "BOOLEAN":
                return v > 1;
            case "ARRAY<STRING>":
            case "ARRAY<INT>": {
                List<Object> out = new ArrayList<>();
                for (int n = rnd.nextInt(4); n > 0; n--) {
                    int e = rnd.nextInt(4);
                    out.add(e == 0 ? null : TYPES[field].equals("ARRAY<INT>") ? (Object) e : "e" + e);
                }
                return out;
            }
            case "MAP<STRING NOT NULL, INT>": {
                Map<Object, Object> out = new LinkedHashMap<>();
                for (int n = rnd.nextInt(4); n > 0; n--) {
                    int e = rnd.nextInt(4);
                    out.put("k" + rnd.nextInt(4), e == 0 ? null : e);
                }
                return out;
            }
            default:
                return "s" + (v + 1);
        }
    }

    /** Random records of one key, prepared as the writer prepares them (count inputs become 1). */
    private static List<KeyValue> records(Random rnd, MergeEngines engines) {
        List<KeyValue> out = new ArrayList<>();
        for (int seq = 0, n = 1 + rnd.nextInt(14); seq < n; seq++) {
            int k = rnd.nextInt(10);
            RowKind kind = k < 5
                    ? RowKind.INSERT
                    : k < 6 ? RowKind.UPDATE_AFTER : k < 8 ? RowKind.UPDATE_BEFORE : RowKind.DELETE;
            Object[] row = new Object[FUNCTIONS.length + 1];
            row[0] = 1L;
            for (int i = 0; i < FUNCTIONS.length; i++) {
                row[i + 1] = value(rnd, i);
            }
            out.add(new KeyValue(seq, kind, engines.prepare(new GenericRow(kind, row))));
        }
        return out;
    }

    private static List<KeyValue> partial(Supplier<MergeFunction> factory, List<KeyValue> records, boolean top) {
        MergeFunction f = factory.get();
        f.reset();
        records.forEach(f::add);
        return top ? f.topLevelResult() : f.partialResult();
    }

    /** Folds random consecutive groups of {@code records} into partial results; the first may be top level. */
    private static List<KeyValue> regroup(Random rnd, Supplier<MergeFunction> factory, List<KeyValue> records) {
        List<KeyValue> out = new ArrayList<>();
        for (int from = 0; from < records.size(); ) {
            int to = Math.min(records.size(), from + 1 + rnd.nextInt(5));
            out.addAll(partial(factory, records.subList(from, to), from == 0 && rnd.nextBoolean()));
            from = to;
        }
        return out;
    }

    private static Object[] finalRow(Supplier<MergeFunction> factory, List<KeyValue> records) {
        MergeFunction f = factory.get();
        f.reset();
        records.forEach(f::add);
        return f.finalResult();
    }

    @ParameterizedTest(name = "remove-record-on-delete={0}")
    @ValueSource(booleans = {false, true})
    void partialResultsOfAnyGroupingMergeToTheSameRow(boolean removeOnDelete) {
        MergeEngines engines = MergeEngines.of("db.t", schema(removeOnDelete));
        Supplier<MergeFunction> factory = engines.functionFactory();
        for (long seed = 0; seed < 3000; seed++) {
            Random rnd = new Random(seed);
            List<KeyValue> records = records(rnd, engines);
            Object[] expected = finalRow(factory, records);
            List<KeyValue> grouped = records;
            for (int round = 1 + rnd.nextInt(3); round > 0; round--) {
                grouped = regroup(rnd, factory, grouped);
            }
            assertThat(ordered(finalRow(factory, grouped)))
                    .as(
                            "seed %d, remove-record-on-delete=%s, records %s, regrouped %s",
                            seed, removeOnDelete, records, grouped)
                    .isEqualTo(ordered(expected));
        }
    }

    /** The row with maps as their ordered entries, so that the comparison sees entry order too. */
    private static List<Object> ordered(Object[] row) {
        if (row == null) {
            return null;
        }
        List<Object> out = new ArrayList<>();
        for (Object v : row) {
            out.add(AggregateFunctionsTest.ordered(v));
        }
        return out;
    }

    private static MergeFunction lastNonNull() {
        TableSchema schema = SchemaValidation.firstSchema(
                "t",
                Schema.newBuilder()
                        .column("k", "BIGINT NOT NULL")
                        .column("x", "STRING")
                        .primaryKey("k")
                        .option("bucket", "1")
                        .option("merge-engine", "aggregation")
                        .build(),
                0);
        return MergeEngines.of("db.t", schema).functionFactory().get();
    }

    private static KeyValue kv(long seq, RowKind kind, String x) {
        return new KeyValue(seq, kind, new Object[] {1L, x});
    }

    /**
     * A group where a retraction empties last_non_null_value and only nulls follow: its
     * accumulated row would hold null, which merged onto an older value would keep that value.
     * The group's records are kept instead, and merged again they empty the field.
     */
    @Test
    void aRetractionThatEmptiesLastNonNullValueSurvivesPreMerging() {
        MergeFunction f = lastNonNull();
        f.reset();
        f.add(kv(2, RowKind.INSERT, "new"));
        f.add(kv(3, RowKind.UPDATE_BEFORE, "new"));
        f.add(kv(4, RowKind.UPDATE_AFTER, null));
        List<KeyValue> partial = f.partialResult();
        assertThat(partial).hasSize(3);
        assertThat(f.finalResult()).containsExactly(1L, null);

        MergeFunction merged = lastNonNull();
        merged.reset();
        merged.add(kv(1, RowKind.INSERT, "old"));
        partial.forEach(merged::add);
        assertThat(merged.finalResult())
                .as("the retracted value leaves, and the older one is not recovered")
                .containsExactly(1L, null);
        assertThat(f.topLevelResult())
                .as("with nothing older, the accumulated row is exact")
                .hasSize(1);
        assertThat(f.topLevelResult().get(0).row()).containsExactly(1L, null);

        // a value after the retraction makes the accumulated row exact again
        f.add(kv(5, RowKind.INSERT, "later"));
        assertThat(f.partialResult()).hasSize(1);
        assertThat(Arrays.asList(f.partialResult().get(0).row())).containsExactly(1L, "later");
    }

    // ---------------------------------------------------------------- under sequence.field

    private static final int LISTAGG_FIELD = 9;
    private static final int COLLECT_FIELD = 12;
    private static final int MAP_FIELD = 14;
    /** Pieces a listagg value must split back into: delimiters inside, empty, beyond the BMP. */
    private static final String[] PIECES = {"s1", "a,b", "", ",", "\uD83D\uDE00x", "é,"};

    /** Random records of one key under sequence.field ts (row: k, ts, f0...): nulls and ties in ts. */
    private static List<KeyValue> orderedRecords(Random rnd, MergeEngines engines) {
        List<KeyValue> out = new ArrayList<>();
        for (int seq = 0, n = 1 + rnd.nextInt(14); seq < n; seq++) {
            int k = rnd.nextInt(10);
            RowKind kind = k < 6
                    ? RowKind.INSERT
                    : k < 7 ? RowKind.UPDATE_AFTER : k < 9 ? RowKind.UPDATE_BEFORE : RowKind.DELETE;
            Object[] row = new Object[FUNCTIONS.length + 2];
            row[0] = 1L;
            row[1] = rnd.nextInt(6) == 0 ? null : (long) rnd.nextInt(4);
            for (int i = 0; i < FUNCTIONS.length; i++) {
                row[i + 2] =
                        i == LISTAGG_FIELD && rnd.nextBoolean() ? PIECES[rnd.nextInt(PIECES.length)] : value(rnd, i);
            }
            out.add(new KeyValue(seq, kind, engines.prepare(new GenericRow(kind, row))));
        }
        return out;
    }

    /** Splits {@code records} into random subsets (not runs), each shuffled and folded into its partial result. */
    private static List<KeyValue> regroupAnyhow(Random rnd, Supplier<MergeFunction> factory, List<KeyValue> records) {
        int groups = 1 + rnd.nextInt(4);
        List<List<KeyValue>> parts = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            parts.add(new ArrayList<>());
        }
        for (KeyValue kv : records) {
            parts.get(rnd.nextInt(groups)).add(kv);
        }
        List<KeyValue> out = new ArrayList<>();
        for (List<KeyValue> part : parts) {
            if (!part.isEmpty()) {
                Collections.shuffle(part, rnd);
                out.addAll(partial(factory, part, rnd.nextBoolean()));
            }
        }
        Collections.shuffle(out, rnd);
        return out;
    }

    @Test
    void underSequenceFieldPartialResultsOfAnySubsetsInAnyOrderMergeToTheDefinedRow() {
        MergeEngines engines = MergeEngines.of("db.t", schema(false, true));
        Supplier<MergeFunction> factory = engines.functionFactory();
        for (long seed = 0; seed < 3000; seed++) {
            Random rnd = new Random(seed);
            List<KeyValue> records = orderedRecords(rnd, engines);
            Object[] expected = finalRow(factory, records);
            if (expected != null) {
                assertThat(ordered(new Object[] {
                            expected[LISTAGG_FIELD + 2],
                            expected[COLLECT_FIELD + 2],
                            expected[DISTINCT_FIELD + 2],
                            expected[MAP_FIELD + 2]
                        }))
                        .as("seed %d: the element functions' definition, records %s", seed, records)
                        .isEqualTo(ordered(ElementsDefinition.of(records, 1, 2)));
            }
            List<KeyValue> grouped = records;
            for (int round = 1 + rnd.nextInt(3); round > 0; round--) {
                grouped = regroupAnyhow(rnd, factory, grouped);
            }
            assertThat(ordered(finalRow(factory, grouped)))
                    .as("seed %d, records %s, regrouped %s", seed, records, grouped)
                    .isEqualTo(ordered(expected));
        }
    }

    /**
     * listagg, collect, collect distinct and merge_map under an ordering, defined over a key's
     * whole record list (never folded): the +I/+U records with a non-null value, in ascending
     * (ordering value, nulls first; sequence number).
     */
    static final class ElementsDefinition {
        @SuppressWarnings({"unchecked", "rawtypes"})
        static Object[] of(List<KeyValue> records, int orderingField, int firstField) {
            List<KeyValue> sorted = new ArrayList<>();
            for (KeyValue kv : records) {
                if (!kv.kind().isRetract()) {
                    sorted.add(kv);
                }
            }
            sorted.sort((x, y) -> {
                Comparable a = (Comparable) x.row()[orderingField];
                Comparable b = (Comparable) y.row()[orderingField];
                int c = a == null ? (b == null ? 0 : -1) : b == null ? 1 : a.compareTo(b);
                return c != 0 ? c : Long.compare(x.sequence(), y.sequence());
            });
            String joined = null;
            List<Object> all = null;
            List<Object> distinct = null;
            Map<Object, Object> map = null;
            Map<Object, Integer> winner = new java.util.HashMap<>();
            for (int i = 0; i < sorted.size(); i++) {
                Object[] row = sorted.get(i).row();
                String s = (String) row[firstField + LISTAGG_FIELD];
                if (s != null) {
                    joined = joined == null ? s : joined + "," + s;
                }
                List<Object> list = (List<Object>) row[firstField + COLLECT_FIELD];
                if (list != null) {
                    all = all == null ? new ArrayList<>() : all;
                    all.addAll(list);
                }
                List<Object> ids = (List<Object>) row[firstField + DISTINCT_FIELD];
                if (ids != null) {
                    distinct = distinct == null ? new ArrayList<>() : distinct;
                    for (Object e : ids) {
                        if (!distinct.contains(e)) {
                            distinct.add(e);
                        }
                    }
                }
                Map<Object, Object> m = (Map<Object, Object>) row[firstField + MAP_FIELD];
                if (m != null) {
                    map = new LinkedHashMap<>();
                    for (Object key : m.keySet()) {
                        winner.put(key, i);
                    }
                }
            }
            if (map != null) {
                // each key's value from the highest record holding it, in that record's place
                for (int i = 0; i < sorted.size(); i++) {
                    Map<Object, Object> m = (Map<Object, Object>) sorted.get(i).row()[firstField + MAP_FIELD];
                    if (m != null) {
                        for (Map.Entry<Object, Object> e : m.entrySet()) {
                            if (winner.get(e.getKey()) == i) {
                                map.put(e.getKey(), e.getValue());
                            }
                        }
                    }
                }
            }
            return new Object[] {joined, all, distinct, map};
        }
    }
}
