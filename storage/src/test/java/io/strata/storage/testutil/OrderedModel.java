package io.strata.storage.testutil;

import io.strata.storage.data.RowKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The reference semantics of the ordered engines (docs/DESIGN.md, "Merge engines"): partial-update
 * with {@code sequence.field} and/or sequence groups, aggregation with {@code sequence.field}.
 * Written as definitions over all the rows of a key, with no folding at all: every answer is
 * computed from the key's whole row list (kind, values, arrival), so it cannot depend on how rows
 * were grouped. Layout of {@link TableModel}: p, id, a BIGINT, b INT, c STRING, d BIGINT, e DOUBLE,
 * ts BIGINT.
 */
final class OrderedModel {
    static final int A = 2;
    static final int B = 3;
    static final int C = 4;
    static final int D = 5;
    static final int E = 6;
    static final int TS = 7;

    /** How a group member with an order-sensitive function picks its row by the group's ordering. */
    enum Pick {
        LAST_NON_NULL,
        FIRST,
        FIRST_NON_NULL
    }

    /** Aggregate functions of the aggregation engine under {@code sequence.field}, as the modes configure them. */
    enum Fn {
        /** Retractions subtract. */
        SUM,
        /** Non-null inputs, retractions subtract one. */
        COUNT,
        /** Retractions ignored. */
        MAX,
        /** The lowest +I/+U row's value, null included. */
        FIRST,
        /** The lowest +I/+U row's non-null value. */
        FIRST_NON_NULL,
        /** The highest row's value; a retraction sets null. */
        LAST,
        /** The highest +I/+U row's non-null value (retractions ignored). */
        LAST_NON_NULL,
        /** The non-null values of the +I/+U rows in ascending order, joined with ',' (retractions ignored). */
        LISTAGG
    }

    /**
     * One sequence group: its sequence fields, the members it overwrites, the member it aggregates
     * (with max or sum, -1 for none), members that pick a row by the group's ordering, and members
     * with listagg (the non-null values of the rows carrying the group's sequence, in its ordering).
     */
    static final class Group {
        final int[] sequence;
        final int[] overwritten;
        final int aggregated;
        final boolean sum;
        final Map<Integer, Pick> picked;
        final int[] joined;

        Group(int[] sequence, int[] overwritten, int aggregated, boolean sum) {
            this(sequence, overwritten, aggregated, sum, Map.of(), new int[0]);
        }

        Group(int[] sequence, int[] overwritten, int aggregated, boolean sum, Map<Integer, Pick> picked) {
            this(sequence, overwritten, aggregated, sum, picked, new int[0]);
        }

        Group(int[] sequence, int[] overwritten, int aggregated, boolean sum, Map<Integer, Pick> picked, int[] joined) {
            this.sequence = sequence;
            this.overwritten = overwritten;
            this.aggregated = aggregated;
            this.sum = sum;
            this.picked = picked;
            this.joined = joined;
        }
    }

    enum Kind {
        PARTIAL_UPDATE,
        AGGREGATION
    }

    private static final class Rec {
        final RowKind kind;
        final Object[] v;
        final long arrival;

        Rec(RowKind kind, Object[] v, long arrival) {
            this.kind = kind;
            this.v = v;
            this.arrival = arrival;
        }
    }

    private final Kind kind;
    private final boolean sequenceField;
    private final boolean removeOnDelete;
    private final List<Group> groups;
    private final int[] plain;
    private final Map<Integer, Fn> functions;
    private final Map<List<Object>, List<Rec>> rows = new HashMap<>();

    OrderedModel(Kind kind, boolean sequenceField, boolean removeOnDelete, List<Group> groups, int[] plain) {
        this(kind, sequenceField, removeOnDelete, groups, plain, Map.of());
    }

    private OrderedModel(
            Kind kind,
            boolean sequenceField,
            boolean removeOnDelete,
            List<Group> groups,
            int[] plain,
            Map<Integer, Fn> functions) {
        this.kind = kind;
        this.sequenceField = sequenceField;
        this.removeOnDelete = removeOnDelete;
        this.groups = groups;
        this.plain = plain;
        this.functions = functions;
    }

    /** aggregation with {@code sequence.field} ts: every value field's function. */
    static OrderedModel aggregation(Map<Integer, Fn> functions) {
        return new OrderedModel(Kind.AGGREGATION, true, false, List.of(), new int[0], functions);
    }

    /** Applies one row as written (rows dropped at write time must not be passed); returns whether it took effect. */
    boolean apply(RowKind k, Object[] v, long arrival) {
        List<Rec> list = rows.computeIfAbsent(List.of(v[0], v[1]), x -> new ArrayList<>());
        list.add(new Rec(k, v.clone(), arrival));
        if (kind == Kind.AGGREGATION) {
            return true; // every row folds into the sum and count fields at least
        }
        return winners(list).contains(arrival);
    }

    Map<List<Object>, List<Object>> contents() {
        Map<List<Object>, List<Object>> out = new HashMap<>();
        for (Map.Entry<List<Object>, List<Rec>> e : rows.entrySet()) {
            Object[] row = kind == Kind.AGGREGATION ? aggregate(e.getValue()) : partialUpdate(e.getValue());
            if (row != null) {
                out.put(e.getKey(), java.util.Arrays.asList(row));
            }
        }
        return out;
    }

    private int compare(Rec x, Rec y) {
        if (sequenceField) {
            int c = compareNullsFirst(x.v[TS], y.v[TS]);
            if (c != 0) {
                return c;
            }
        }
        return Long.compare(x.arrival, y.arrival);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compareNullsFirst(Object a, Object b) {
        if (a == null) {
            return b == null ? 0 : -1;
        }
        return b == null ? 1 : ((Comparable) a).compareTo(b);
    }

    private static boolean positive(Rec r) {
        return !r.kind.isRetract();
    }

    private Rec highest(List<Rec> list, java.util.function.Predicate<Rec> which) {
        Rec best = null;
        for (Rec r : list) {
            if (which.test(r) && (best == null || compare(r, best) > 0)) {
                best = r;
            }
        }
        return best;
    }

    private Rec lowest(List<Rec> list, java.util.function.Predicate<Rec> which) {
        Rec best = null;
        for (Rec r : list) {
            if (which.test(r) && (best == null || compare(r, best) < 0)) {
                best = r;
            }
        }
        return best;
    }

    private Rec removal(List<Rec> list) {
        return removeOnDelete ? highest(list, r -> r.kind == RowKind.DELETE) : null;
    }

    private static boolean hasSequence(Group g, Rec r) {
        for (int s : g.sequence) {
            if (r.v[s] != null) {
                return true;
            }
        }
        return false;
    }

    private static int compareTuples(Group g, Rec x, Rec y) {
        for (int s : g.sequence) {
            int c = compareNullsFirst(x.v[s], y.v[s]);
            if (c != 0) {
                return c;
            }
        }
        return Long.compare(x.arrival, y.arrival);
    }

    /** The row member {@code f} of {@code g} takes its value from, or null. */
    private static Rec picked(Group g, int f, List<Rec> list) {
        Pick pick = g.picked.get(f);
        Rec best = null;
        for (Rec r : list) {
            if (!positive(r) || !hasSequence(g, r) || (pick != Pick.FIRST && r.v[f] == null)) {
                continue;
            }
            int c = best == null ? 0 : compareTuples(g, r, best);
            if (best == null || (pick == Pick.LAST_NON_NULL ? c > 0 : c < 0)) {
                best = r;
            }
        }
        return best;
    }

    private static Rec groupWinner(Group g, List<Rec> list) {
        Rec best = null;
        for (Rec r : list) {
            if (positive(r) && hasSequence(g, r) && (best == null || compareTuples(g, r, best) > 0)) {
                best = r;
            }
        }
        return best;
    }

    /** The arrivals of the rows the key's state comes from. */
    private Set<Long> winners(List<Rec> list) {
        Set<Long> out = new HashSet<>();
        Rec del = removal(list);
        Rec top = highest(list, OrderedModel::positive);
        if (del != null) {
            out.add(del.arrival);
        }
        if (top != null && (del == null || compare(top, del) > 0)) {
            out.add(top.arrival);
        }
        for (int f : plain) {
            Rec w = highest(list, r -> positive(r) && r.v[f] != null);
            if (w != null && (del == null || compare(w, del) > 0)) {
                out.add(w.arrival);
            }
        }
        for (Group g : groups) {
            Rec w = groupWinner(g, list);
            if (w != null) {
                out.add(w.arrival);
            }
            for (int f : g.picked.keySet()) {
                Rec p = picked(g, f, list);
                if (p != null) {
                    out.add(p.arrival);
                }
            }
            if (g.aggregated >= 0 || g.joined.length > 0) {
                for (Rec r : list) {
                    if (positive(r) && hasSequence(g, r)) {
                        out.add(r.arrival); // every such row changes the group's aggregate
                    }
                }
            }
        }
        return out;
    }

    private Object[] partialUpdate(List<Rec> list) {
        Rec del = removal(list);
        Rec top = highest(list, OrderedModel::positive);
        if (top == null || (del != null && compare(top, del) < 0)) {
            return null;
        }
        Object[] row = new Object[8];
        row[0] = top.v[0];
        row[1] = top.v[1];
        for (int f : plain) {
            Rec w = highest(list, r -> positive(r) && r.v[f] != null);
            if (w != null && (del == null || compare(w, del) > 0)) {
                row[f] = w.v[f];
            }
        }
        for (Group g : groups) {
            Rec w = groupWinner(g, list);
            if (w != null) {
                for (int s : g.sequence) {
                    row[s] = w.v[s];
                }
                for (int f : g.overwritten) {
                    row[f] = w.v[f];
                }
            }
            for (int f : g.picked.keySet()) {
                Rec p = picked(g, f, list);
                row[f] = p == null ? null : p.v[f];
            }
            if (g.aggregated >= 0) {
                Long acc = null;
                for (Rec r : list) {
                    Object x = r.v[g.aggregated];
                    if (positive(r) && hasSequence(g, r) && x != null) {
                        long val = ((Number) x).longValue();
                        acc = acc == null ? val : g.sum ? acc + val : Math.max(acc, val);
                    }
                }
                row[g.aggregated] = acc == null ? null : (Object) acc.intValue(); // b is INT
            }
            for (int f : g.joined) {
                List<Rec> sorted = new ArrayList<>();
                for (Rec r : list) {
                    if (positive(r) && hasSequence(g, r) && r.v[f] != null) {
                        sorted.add(r);
                    }
                }
                sorted.sort((x, y) -> compareTuples(g, x, y));
                row[f] = joined(sorted, f);
            }
        }
        return row;
    }

    private static String joined(List<Rec> ascending, int f) {
        StringBuilder out = null;
        for (Rec r : ascending) {
            out = out == null ? new StringBuilder() : out.append(',');
            out.append((String) r.v[f]);
        }
        return out == null ? null : out.toString();
    }

    private Object[] aggregate(List<Rec> list) {
        Rec anyPositive = highest(list, OrderedModel::positive);
        if (anyPositive == null) {
            return null;
        }
        Object[] row = new Object[8];
        row[0] = anyPositive.v[0];
        row[1] = anyPositive.v[1];
        functions.forEach((f, fn) -> row[f] = aggregate(fn, f, list));
        return row;
    }

    private Object aggregate(Fn fn, int f, List<Rec> list) {
        switch (fn) {
            case SUM:
            case COUNT: {
                Long acc = null;
                for (Rec r : list) {
                    if (r.v[f] != null) {
                        long v = fn == Fn.COUNT ? 1 : (Long) r.v[f];
                        acc = (acc == null ? 0 : acc) + (positive(r) ? v : -v);
                    }
                }
                return acc;
            }
            case MAX: {
                Long max = null;
                for (Rec r : list) {
                    if (positive(r) && r.v[f] != null) {
                        max = max == null ? (Long) r.v[f] : Math.max(max, (Long) r.v[f]);
                    }
                }
                return max;
            }
            case FIRST:
                return lowest(list, OrderedModel::positive).v[f]; // null included
            case FIRST_NON_NULL:
                return valueOf(lowest(list, r -> positive(r) && r.v[f] != null), f);
            case LAST: {
                Rec last = highest(list, r -> true); // a retraction sets null
                return positive(last) ? last.v[f] : null;
            }
            case LAST_NON_NULL:
                return valueOf(highest(list, r -> positive(r) && r.v[f] != null), f);
            case LISTAGG: {
                List<Rec> sorted = new ArrayList<>();
                for (Rec r : list) {
                    if (positive(r) && r.v[f] != null) {
                        sorted.add(r);
                    }
                }
                sorted.sort(this::compare);
                return joined(sorted, f);
            }
            default:
                throw new IllegalStateException(fn.toString());
        }
    }

    private static Object valueOf(Rec r, int f) {
        return r == null ? null : r.v[f];
    }
}
