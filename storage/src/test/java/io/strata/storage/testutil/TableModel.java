package io.strata.storage.testutil;

import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;

/**
 * The reference semantics of a primary-key table, written independently of the engine: rows are
 * applied one at a time, in write order, to a map. Used by the model-based tests.
 *
 * <p>Row layout of the model tables ({@link #COLUMNS}): p INT (partition), id INT, a BIGINT,
 * b INT, c STRING, d BIGINT, e DOUBLE, ts BIGINT. Key = (p, id).
 */
public final class TableModel {
    public static final String[] COLUMNS = {"p", "id", "a", "b", "c", "d", "e", "ts"};

    /** Engine configurations the model knows. */
    public enum Mode {
        DEDUPLICATE,
        DEDUPLICATE_SEQUENCE_FIELD,
        FIRST_ROW,
        PARTIAL_UPDATE_REMOVE,
        PARTIAL_UPDATE_IGNORE_DELETE,
        AGGREGATION,
        AGGREGATION_REMOVE,
        /** The functions AGGREGATION does not use, and retraction of last_non_null_value and last_value. */
        AGGREGATION_OTHER_FUNCTIONS,
        // new modes go last: tests derive seeds from ordinals
        FIRST_ROW_SEQUENCE_FIELD,
        /** partial-update, sequence.field=ts, ignore-delete. */
        PARTIAL_UPDATE_SEQUENCE_FIELD,
        /** partial-update, sequence.field=ts, remove-record-on-delete. */
        PARTIAL_UPDATE_SEQUENCE_FIELD_REMOVE,
        /** partial-update, groups ts:(a, c) and d:(b max), e outside groups in arrival order, ignore-delete. */
        PARTIAL_UPDATE_SEQUENCE_GROUPS,
        /** partial-update, sequence.field=ts for a, c, ts; group (d, e):(b sum), ignore-delete. */
        PARTIAL_UPDATE_SEQUENCE_FIELD_GROUPS,
        /** aggregation, sequence.field=ts: a sum, b first_value, c last_value, d count, e last_non_null_value, ts max. */
        AGGREGATION_SEQUENCE_FIELD,
        /**
         * partial-update, one group ordered by (ts, d): a last_non_null_value, b first_non_null_value,
         * c first_value, e last_value; ignore-delete.
         */
        PARTIAL_UPDATE_SEQUENCE_GROUP_FUNCTIONS,
        /**
         * aggregation, sequence.field=ts: a sum, b first_non_null_value, c listagg, d count, e last_value,
         * ts max (b, c and ts ignore retractions).
         */
        AGGREGATION_SEQUENCE_FIELD_LISTAGG,
        /**
         * partial-update, one group ordered by (ts, d): c listagg, a last_non_null_value, b sum, e
         * overwritten; ignore-delete.
         */
        PARTIAL_UPDATE_SEQUENCE_GROUP_LISTAGG;

        /** The modes whose engine orders by sequence.field or sequence groups. */
        public boolean ordered() {
            return ordinal() >= PARTIAL_UPDATE_SEQUENCE_FIELD.ordinal();
        }
    }

    private final Mode mode;
    private final OrderedModel ordered;
    private final Map<List<Object>, State> states = new HashMap<>();
    private long arrival;

    private static final class State {
        Object[] row; // current value (dedupe/first-row/partial-update) or accumulators (aggregation)
        boolean present;
        RowKind winnerKind; // sequence-field dedupe: the winning record's kind
        Long winnerTs;
        long winnerArrival;
    }

    public TableModel(Mode mode) {
        this.mode = mode;
        this.ordered = orderedModel(mode);
    }

    private static OrderedModel orderedModel(Mode mode) {
        int a = OrderedModel.A, b = OrderedModel.B, c = OrderedModel.C, d = OrderedModel.D, e = OrderedModel.E;
        int ts = OrderedModel.TS;
        switch (mode) {
            case PARTIAL_UPDATE_SEQUENCE_FIELD:
            case PARTIAL_UPDATE_SEQUENCE_FIELD_REMOVE:
                return new OrderedModel(
                        OrderedModel.Kind.PARTIAL_UPDATE,
                        true,
                        mode == Mode.PARTIAL_UPDATE_SEQUENCE_FIELD_REMOVE,
                        List.of(),
                        new int[] {a, b, c, d, e, ts});
            case PARTIAL_UPDATE_SEQUENCE_GROUPS:
                return new OrderedModel(
                        OrderedModel.Kind.PARTIAL_UPDATE,
                        false,
                        false,
                        List.of(
                                new OrderedModel.Group(new int[] {ts}, new int[] {a, c}, -1, false),
                                new OrderedModel.Group(new int[] {d}, new int[0], b, false)),
                        new int[] {e});
            case PARTIAL_UPDATE_SEQUENCE_FIELD_GROUPS:
                return new OrderedModel(
                        OrderedModel.Kind.PARTIAL_UPDATE,
                        true,
                        false,
                        List.of(new OrderedModel.Group(new int[] {d, e}, new int[0], b, true)),
                        new int[] {a, c, ts});
            case AGGREGATION_SEQUENCE_FIELD:
                return OrderedModel.aggregation(Map.of(
                        a, OrderedModel.Fn.SUM,
                        b, OrderedModel.Fn.FIRST,
                        c, OrderedModel.Fn.LAST,
                        d, OrderedModel.Fn.COUNT,
                        e, OrderedModel.Fn.LAST_NON_NULL,
                        ts, OrderedModel.Fn.MAX));
            case AGGREGATION_SEQUENCE_FIELD_LISTAGG:
                return OrderedModel.aggregation(Map.of(
                        a, OrderedModel.Fn.SUM,
                        b, OrderedModel.Fn.FIRST_NON_NULL,
                        c, OrderedModel.Fn.LISTAGG,
                        d, OrderedModel.Fn.COUNT,
                        e, OrderedModel.Fn.LAST,
                        ts, OrderedModel.Fn.MAX));
            case PARTIAL_UPDATE_SEQUENCE_GROUP_LISTAGG:
                return new OrderedModel(
                        OrderedModel.Kind.PARTIAL_UPDATE,
                        false,
                        false,
                        List.of(new OrderedModel.Group(
                                new int[] {ts, d},
                                new int[] {e},
                                b,
                                true,
                                Map.of(a, OrderedModel.Pick.LAST_NON_NULL),
                                new int[] {c})),
                        new int[0]);
            case PARTIAL_UPDATE_SEQUENCE_GROUP_FUNCTIONS:
                return new OrderedModel(
                        OrderedModel.Kind.PARTIAL_UPDATE,
                        false,
                        false,
                        List.of(new OrderedModel.Group(
                                new int[] {ts, d},
                                new int[] {e},
                                -1,
                                false,
                                Map.of(
                                        a, OrderedModel.Pick.LAST_NON_NULL,
                                        b, OrderedModel.Pick.FIRST_NON_NULL,
                                        c, OrderedModel.Pick.FIRST))),
                        new int[0]);
            default:
                return null;
        }
    }

    public Mode mode() {
        return mode;
    }

    /** Table options that configure the engine for this mode. */
    public static Map<String, String> options(Mode mode) {
        Map<String, String> o = new TreeMap<>();
        switch (mode) {
            case DEDUPLICATE:
                break;
            case DEDUPLICATE_SEQUENCE_FIELD:
                o.put("sequence.field", "ts");
                break;
            case FIRST_ROW:
                o.put("merge-engine", "first-row");
                o.put("ignore-delete", "true");
                break;
            case FIRST_ROW_SEQUENCE_FIELD:
                o.put("merge-engine", "first-row");
                o.put("ignore-delete", "true");
                o.put("sequence.field", "ts");
                break;
            case PARTIAL_UPDATE_REMOVE:
                o.put("merge-engine", "partial-update");
                o.put("partial-update.remove-record-on-delete", "true");
                break;
            case PARTIAL_UPDATE_IGNORE_DELETE:
                o.put("merge-engine", "partial-update");
                o.put("ignore-delete", "true");
                break;
            case AGGREGATION_REMOVE:
                o.put("aggregation.remove-record-on-delete", "true");
            // fall through: same functions
            case AGGREGATION:
                o.put("merge-engine", "aggregation");
                o.put("fields.a.aggregate-function", "sum");
                aggregationFunctions(o);
                break;
            case PARTIAL_UPDATE_SEQUENCE_FIELD:
                o.put("merge-engine", "partial-update");
                o.put("sequence.field", "ts");
                o.put("ignore-delete", "true");
                break;
            case PARTIAL_UPDATE_SEQUENCE_FIELD_REMOVE:
                o.put("merge-engine", "partial-update");
                o.put("sequence.field", "ts");
                o.put("partial-update.remove-record-on-delete", "true");
                break;
            case PARTIAL_UPDATE_SEQUENCE_GROUPS:
                o.put("merge-engine", "partial-update");
                o.put("fields.ts.sequence-group", "a,c");
                o.put("fields.d.sequence-group", "b");
                o.put("fields.b.aggregate-function", "max");
                o.put("ignore-delete", "true");
                break;
            case PARTIAL_UPDATE_SEQUENCE_FIELD_GROUPS:
                o.put("merge-engine", "partial-update");
                o.put("sequence.field", "ts");
                o.put("fields.d,e.sequence-group", "b");
                o.put("fields.b.aggregate-function", "sum");
                o.put("ignore-delete", "true");
                break;
            case AGGREGATION_SEQUENCE_FIELD:
                o.put("merge-engine", "aggregation");
                o.put("sequence.field", "ts");
                o.put("fields.a.aggregate-function", "sum");
                o.put("fields.b.aggregate-function", "first_value");
                o.put("fields.b.ignore-retract", "true");
                o.put("fields.c.aggregate-function", "last_value");
                o.put("fields.d.aggregate-function", "count");
                o.put("fields.e.aggregate-function", "last_non_null_value");
                o.put("fields.e.ignore-retract", "true");
                o.put("fields.ts.aggregate-function", "max");
                o.put("fields.ts.ignore-retract", "true");
                break;
            case PARTIAL_UPDATE_SEQUENCE_GROUP_FUNCTIONS:
                o.put("merge-engine", "partial-update");
                o.put("fields.ts,d.sequence-group", "a,b,c,e");
                o.put("fields.a.aggregate-function", "last_non_null_value");
                o.put("fields.b.aggregate-function", "first_non_null_value");
                o.put("fields.c.aggregate-function", "first_value");
                o.put("fields.e.aggregate-function", "last_value");
                o.put("ignore-delete", "true");
                break;
            case AGGREGATION_SEQUENCE_FIELD_LISTAGG:
                o.put("merge-engine", "aggregation");
                o.put("sequence.field", "ts");
                o.put("fields.a.aggregate-function", "sum");
                o.put("fields.b.aggregate-function", "first_non_null_value");
                o.put("fields.b.ignore-retract", "true");
                o.put("fields.c.aggregate-function", "listagg");
                o.put("fields.c.ignore-retract", "true");
                o.put("fields.d.aggregate-function", "count");
                o.put("fields.e.aggregate-function", "last_value");
                o.put("fields.ts.aggregate-function", "max");
                o.put("fields.ts.ignore-retract", "true");
                break;
            case PARTIAL_UPDATE_SEQUENCE_GROUP_LISTAGG:
                o.put("merge-engine", "partial-update");
                o.put("fields.ts,d.sequence-group", "a,b,c,e");
                o.put("fields.a.aggregate-function", "last_non_null_value");
                o.put("fields.b.aggregate-function", "sum");
                o.put("fields.c.aggregate-function", "listagg");
                o.put("ignore-delete", "true");
                break;
            case AGGREGATION_OTHER_FUNCTIONS:
                o.put("merge-engine", "aggregation");
                o.put("fields.a.aggregate-function", "product");
                o.put("fields.a.ignore-retract", "true");
                o.put("fields.b.aggregate-function", "first_non_null_value");
                o.put("fields.b.ignore-retract", "true");
                o.put("fields.c.aggregate-function", "first_value");
                o.put("fields.c.ignore-retract", "true");
                o.put("fields.d.aggregate-function", "sum");
                o.put("fields.e.aggregate-function", "last_non_null_value");
                o.put("fields.ts.aggregate-function", "last_value");
                break;
            default:
                throw new IllegalStateException();
        }
        return o;
    }

    private static void aggregationFunctions(Map<String, String> o) {
        o.put("fields.b.aggregate-function", "max");
        o.put("fields.b.ignore-retract", "true");
        o.put("fields.c.aggregate-function", "last_value");
        o.put("fields.d.aggregate-function", "count");
        o.put("fields.e.aggregate-function", "last_non_null_value");
        o.put("fields.e.ignore-retract", "true");
        o.put("fields.ts.aggregate-function", "max");
        o.put("fields.ts.ignore-retract", "true");
    }

    /**
     * Applies one row; returns whether it took effect: false for a row the engine ignores (a
     * later row under first-row, a row losing against the sequence field, a partial-update -U, a
     * dropped retraction). A changelog model reports a key only when one of its rows took effect.
     */
    public boolean apply(GenericRow r) {
        arrival++;
        Object[] v = r.fields();
        if (ordered != null) {
            if (r.kind().isRetract() && "true".equals(options(mode).get("ignore-delete"))) {
                return false; // dropped at write time
            }
            return ordered.apply(r.kind(), v, arrival);
        }
        List<Object> key = List.of(v[0], v[1]);
        State s = states.computeIfAbsent(key, k -> new State());
        RowKind kind = r.kind();
        switch (mode) {
            case DEDUPLICATE:
                s.present = !kind.isRetract();
                s.row = v.clone();
                return true;
            case DEDUPLICATE_SEQUENCE_FIELD: {
                Long ts = (Long) v[7];
                boolean wins = s.winnerKind == null || compareNullsFirst(ts, s.winnerTs) >= 0;
                if (wins) {
                    s.winnerKind = kind;
                    s.winnerTs = ts;
                    s.winnerArrival = arrival;
                    s.present = !kind.isRetract();
                    s.row = v.clone();
                }
                return wins;
            }
            case FIRST_ROW:
                if (kind.isRetract() || s.present) {
                    return false;
                }
                s.present = true;
                s.row = v.clone();
                return true;
            case FIRST_ROW_SEQUENCE_FIELD: {
                // the lowest ordering value wins (nulls first), ties the earliest arrival
                Long ts = (Long) v[7];
                boolean wins = !kind.isRetract() && (!s.present || compareNullsFirst(ts, s.winnerTs) < 0);
                if (wins) {
                    s.present = true;
                    s.winnerTs = ts;
                    s.row = v.clone();
                }
                return wins;
            }
            case PARTIAL_UPDATE_IGNORE_DELETE:
            case PARTIAL_UPDATE_REMOVE:
                if (kind == RowKind.DELETE) {
                    if (mode == Mode.PARTIAL_UPDATE_REMOVE) {
                        s.present = false;
                        s.row = null;
                        return true;
                    }
                    return false;
                }
                if (kind == RowKind.UPDATE_BEFORE) {
                    return false;
                }
                if (!s.present) {
                    s.present = true;
                    s.row = v.clone();
                } else {
                    for (int i = 0; i < v.length; i++) {
                        if (v[i] != null) {
                            s.row[i] = v[i];
                        }
                    }
                }
                return true;
            case AGGREGATION:
            case AGGREGATION_REMOVE:
                aggregate(s, kind, v);
                return true;
            case AGGREGATION_OTHER_FUNCTIONS:
                aggregateOthers(s, kind, v);
                return true;
            default:
                throw new IllegalStateException();
        }
    }

    private void aggregate(State s, RowKind kind, Object[] v) {
        if (mode == Mode.AGGREGATION_REMOVE && kind == RowKind.DELETE) {
            s.present = false;
            s.row = null;
            return;
        }
        if (s.row == null) {
            s.row = new Object[v.length];
            s.row[0] = v[0];
            s.row[1] = v[1];
        }
        Object[] acc = s.row;
        if (!kind.isRetract()) {
            s.present = true;
            if (v[2] != null) {
                acc[2] = acc[2] == null ? v[2] : (Long) acc[2] + (Long) v[2];
            }
            if (v[3] != null) {
                acc[3] = acc[3] == null ? v[3] : Math.max((Integer) acc[3], (Integer) v[3]);
            }
            acc[4] = v[4];
            if (v[5] != null) {
                acc[5] = acc[5] == null ? 1L : (Long) acc[5] + 1;
            }
            if (v[6] != null) {
                acc[6] = v[6];
            }
            if (v[7] != null) {
                acc[7] = acc[7] == null ? v[7] : Math.max((Long) acc[7], (Long) v[7]);
            }
        } else {
            if (v[2] != null) {
                acc[2] = acc[2] == null ? -(Long) v[2] : (Long) acc[2] - (Long) v[2];
            }
            acc[4] = null;
            if (v[5] != null) {
                acc[5] = acc[5] == null ? -1L : (Long) acc[5] - 1;
            }
        }
    }

    /** product, first_non_null_value, first_value (ignoring retractions); sum, last_non_null_value, last_value. */
    private static void aggregateOthers(State s, RowKind kind, Object[] v) {
        if (s.row == null) {
            s.row = new Object[v.length];
            s.row[0] = v[0];
            s.row[1] = v[1];
        }
        Object[] acc = s.row;
        if (!kind.isRetract()) {
            if (v[2] != null) {
                acc[2] = acc[2] == null ? v[2] : (Long) acc[2] * (Long) v[2];
            }
            if (acc[3] == null) {
                acc[3] = v[3];
            }
            if (!s.present) {
                acc[4] = v[4]; // the first row's value, null included
            }
            if (v[5] != null) {
                acc[5] = acc[5] == null ? v[5] : (Long) acc[5] + (Long) v[5];
            }
            if (v[6] != null) {
                acc[6] = v[6];
            }
            acc[7] = v[7];
            s.present = true;
        } else {
            if (v[5] != null) {
                acc[5] = acc[5] == null ? -(Long) v[5] : (Long) acc[5] - (Long) v[5];
            }
            if (v[6] != null) {
                acc[6] = null; // the retracted value leaves; the one before it is not kept
            }
            acc[7] = null;
        }
    }

    private static int compareNullsFirst(Long a, Long b) {
        if (a == null) {
            return b == null ? 0 : -1;
        }
        return b == null ? 1 : Long.compare(a, b);
    }

    /** The table as a reader should see it: key (p, id) -> row. */
    public Map<List<Object>, List<Object>> contents() {
        Map<List<Object>, List<Object>> out = new TreeMap<>(TableModel::compareKeys);
        if (ordered != null) {
            out.putAll(ordered.contents());
            return out;
        }
        for (Map.Entry<List<Object>, State> e : states.entrySet()) {
            if (e.getValue().present) {
                out.put(e.getKey(), Arrays.asList(e.getValue().row.clone()));
            }
        }
        return out;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    public static int compareKeys(List<Object> a, List<Object> b) {
        for (int i = 0; i < a.size(); i++) {
            int c = ((Comparable) a.get(i)).compareTo(b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /** Turns scanned rows into the same shape as {@link #contents()}; fails on a duplicate key. */
    public static Map<List<Object>, List<Object>> toContents(List<GenericRow> rows) {
        Map<List<Object>, List<Object>> out = new TreeMap<>(TableModel::compareKeys);
        for (GenericRow r : rows) {
            List<Object> key = List.of(r.get(0), r.get(1));
            List<Object> prev = out.put(key, new ArrayList<>(Arrays.asList(r.fields())));
            if (prev != null) {
                throw new AssertionError("key " + key + " returned twice: " + prev + " and " + r);
            }
        }
        return out;
    }

    public static boolean rowsEqual(List<Object> a, List<Object> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!Objects.equals(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** A random row of the model schema: keys in two partitions x {@code keys} ids, every row kind, some nulls. */
    public static GenericRow randomRow(Random rnd, int keys) {
        int p = rnd.nextInt(2);
        int id = rnd.nextInt(keys);
        int k = rnd.nextInt(10);
        RowKind kind =
                k < 6 ? RowKind.INSERT : k < 7 ? RowKind.UPDATE_AFTER : k < 8 ? RowKind.UPDATE_BEFORE : RowKind.DELETE;
        Long a = rnd.nextInt(5) == 0 ? null : (long) rnd.nextInt(100);
        Integer b = rnd.nextInt(5) == 0 ? null : rnd.nextInt(1000);
        String c = rnd.nextInt(5) == 0 ? null : "s" + rnd.nextInt(50);
        Long d = rnd.nextInt(3) == 0 ? null : (long) rnd.nextInt(10);
        Double e = rnd.nextInt(4) == 0 ? null : rnd.nextInt(100) / 4.0;
        Long ts = rnd.nextInt(8) == 0 ? null : (long) rnd.nextInt(200);
        return new GenericRow(kind, p, id, a, b, c, d, e, ts);
    }
}
