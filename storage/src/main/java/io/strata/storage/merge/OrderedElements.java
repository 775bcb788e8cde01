package io.strata.storage.merge;

import io.strata.storage.data.ValueComparators;
import io.strata.storage.merge.OrderingState.ElementRun;
import io.strata.storage.schema.DataType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The value of one {@code listagg}, {@code collect} or {@code merge_map} field under an ordering
 * ({@code sequence.field}, or a sequence group's tuple), kept as pieces: the non-null value of
 * each record folded in, with that record's ordering and sequence number. The value is a function
 * of the set of pieces alone, so records and pre-merged values fold to the same value in any
 * grouping and any order:
 * <ul>
 *   <li>listagg: the pieces joined with {@code ,} in ascending (ordering, sequence number);</li>
 *   <li>collect: the pieces' arrays concatenated in that order;</li>
 *   <li>collect with distinct: each element once, placed with the lowest piece holding it (within
 *       that piece at its first occurrence);</li>
 *   <li>merge_map: for each key the value of the highest piece holding it; entries ordered by the
 *       piece their value came from, a piece's entries in its own order.</li>
 * </ul>
 * Null when no piece was added; an empty array or map is a value, as without an ordering.
 *
 * <p>A pre-merged value is stored with its {@link ElementRun runs}: per piece that shows in the
 * value, in value order, its ordering and how many units of the value it produced (code points
 * of a listagg piece, array elements, map entries), which is what splits it back into pieces
 * ({@link #addPreMerged}). A piece that shows nothing (an empty array; an element or key that a
 * lower or higher piece holds) needs no run: it cannot change the value of any later merge.
 * Not thread-safe; {@link #reset()} starts the next key.
 */
final class OrderedElements {
    private final AggregateFunction function;
    private final Comparator<Object[]> ordering;
    private final Comparator<Object> elementEquality;
    private final String field;

    private final List<Piece> pieces = new ArrayList<>();
    private boolean present;
    private boolean composed;
    private Object value;
    private List<ElementRun> runs;

    private static final class Piece {
        final Object[] ordering;
        final long seq;
        final Object part;

        Piece(Object[] ordering, long seq, Object part) {
            this.ordering = ordering;
            this.seq = seq;
            this.part = part;
        }
    }

    /**
     * @param function listagg, collect, collect distinct or merge_map ({@link #handles})
     * @param type the field's type
     * @param ordering compares the ordering tuples of two pieces (nulls first)
     * @param field the field's name, for errors
     */
    OrderedElements(AggregateFunction function, DataType type, Comparator<Object[]> ordering, String field) {
        if (!handles(function)) {
            throw new IllegalArgumentException(function + " keeps no elements");
        }
        this.function = function;
        this.ordering = ordering;
        this.elementEquality =
                function == AggregateFunction.COLLECT_DISTINCT ? ValueComparators.forType(type.elementType()) : null;
        this.field = field;
    }

    /** Whether {@code f} keeps every input's elements, so that an ordering must be kept per piece. */
    static boolean handles(AggregateFunction f) {
        switch (f) {
            case LISTAGG:
            case COLLECT:
            case COLLECT_DISTINCT:
            case MERGE_MAP:
                return true;
            default:
                return false;
        }
    }

    void reset() {
        pieces.clear();
        present = false;
        composed = false;
        value = null;
        runs = null;
    }

    /** Adds a record's value at its ordering; a null value adds nothing. */
    void add(Object[] ordering, long seq, Object v) {
        if (v != null) {
            pieces.add(new Piece(ordering, seq, v));
            present = true;
            composed = false;
        }
    }

    /**
     * Adds a pre-merged value: its pieces, split by {@code runs} (the ones stored with it). Fails,
     * naming the field, when the runs do not describe the value.
     */
    void addPreMerged(Object v, List<ElementRun> stored) {
        if (v == null) {
            if (!stored.isEmpty()) {
                throw mismatch("a null value has " + stored.size() + " pieces");
            }
            return;
        }
        present = true;
        composed = false;
        switch (function) {
            case LISTAGG:
                splitString(ValueComparators.asString(v), stored);
                break;
            case MERGE_MAP:
                splitMap((Map<?, ?>) v, stored);
                break;
            default:
                splitList((List<?>) v, stored);
        }
    }

    private void splitString(String s, List<ElementRun> stored) {
        int pos = 0;
        for (int i = 0; i < stored.size(); i++) {
            ElementRun run = stored.get(i);
            if (i > 0) {
                if (pos >= s.length() || s.charAt(pos) != ',') {
                    throw mismatch("no delimiter after piece " + i);
                }
                pos++;
            }
            int end;
            try {
                end = s.offsetByCodePoints(pos, run.units);
            } catch (IndexOutOfBoundsException e) {
                throw mismatch("piece " + (i + 1) + " of " + run.units + " code points runs past the value");
            }
            pieces.add(new Piece(run.ordering, run.seq, s.substring(pos, end)));
            pos = end;
        }
        if (pos != s.length() || stored.isEmpty()) {
            throw mismatch("the pieces cover " + pos + " of " + s.length() + " chars");
        }
    }

    private void splitList(List<?> list, List<ElementRun> stored) {
        int pos = 0;
        for (ElementRun run : stored) {
            if (run.units > list.size() - pos) {
                throw mismatch("the pieces hold more than the array's " + list.size() + " elements");
            }
            pieces.add(new Piece(run.ordering, run.seq, list.subList(pos, pos + run.units)));
            pos += run.units;
        }
        if (pos != list.size()) {
            throw mismatch("the pieces cover " + pos + " of the array's " + list.size() + " elements");
        }
    }

    private void splitMap(Map<?, ?> map, List<ElementRun> stored) {
        Iterator<? extends Map.Entry<?, ?>> it = map.entrySet().iterator();
        int covered = 0;
        for (ElementRun run : stored) {
            Map<Object, Object> part = new LinkedHashMap<>();
            for (int n = 0; n < run.units; n++) {
                if (!it.hasNext()) {
                    throw mismatch("the pieces hold more than the map's " + map.size() + " entries");
                }
                Map.Entry<?, ?> e = it.next();
                part.put(e.getKey(), e.getValue());
            }
            covered += run.units;
            pieces.add(new Piece(run.ordering, run.seq, part));
        }
        if (covered != map.size()) {
            throw mismatch("the pieces cover " + covered + " of the map's " + map.size() + " entries");
        }
    }

    private IllegalStateException mismatch(String what) {
        return new IllegalStateException("ordering state of field '" + field + "' does not match its "
                + function.optionName() + " value: " + what);
    }

    /** The field's value, null when nothing was added. */
    Object value() {
        compose();
        return value;
    }

    /** The runs to store with {@link #value()}, in value order (empty for null, [] or {}). */
    List<ElementRun> runs() {
        compose();
        return runs;
    }

    private void compose() {
        if (composed) {
            return;
        }
        composed = true;
        pieces.sort((a, b) -> {
            int c = ordering.compare(a.ordering, b.ordering);
            return c != 0 ? c : Long.compare(a.seq, b.seq);
        });
        runs = new ArrayList<>(pieces.size());
        if (!present) {
            value = null;
            return;
        }
        switch (function) {
            case LISTAGG:
                value = joined();
                break;
            case COLLECT:
                value = concatenated();
                break;
            case COLLECT_DISTINCT:
                value = distinct();
                break;
            default:
                value = merged();
        }
    }

    private String joined() {
        StringBuilder out = new StringBuilder();
        for (Piece p : pieces) {
            String s = ValueComparators.asString(p.part);
            if (!runs.isEmpty()) {
                out.append(',');
            }
            out.append(s);
            // an empty piece is a run too: it adds a delimiter
            runs.add(new ElementRun(p.ordering, p.seq, s.codePointCount(0, s.length())));
        }
        return out.toString();
    }

    private List<Object> concatenated() {
        List<Object> out = new ArrayList<>();
        for (Piece p : pieces) {
            List<?> part = (List<?>) p.part;
            out.addAll(part);
            addRun(p, part.size());
        }
        return out;
    }

    private List<Object> distinct() {
        Set<Object> seen = new TreeSet<>(elementEquality);
        List<Object> out = new ArrayList<>();
        for (Piece p : pieces) {
            int kept = 0;
            for (Object e : (List<?>) p.part) {
                if (seen.add(e)) {
                    out.add(e);
                    kept++;
                }
            }
            addRun(p, kept);
        }
        return out;
    }

    private Map<Object, Object> merged() {
        Map<Object, Piece> winner = new HashMap<>();
        for (Piece p : pieces) {
            for (Object key : ((Map<?, ?>) p.part).keySet()) {
                winner.put(key, p); // pieces ascend: the highest holding the key is put last
            }
        }
        Map<Object, Object> out = new LinkedHashMap<>();
        for (Piece p : pieces) {
            int kept = 0;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) p.part).entrySet()) {
                if (winner.get(e.getKey()) == p) {
                    out.put(e.getKey(), e.getValue());
                    kept++;
                }
            }
            addRun(p, kept);
        }
        return out;
    }

    private void addRun(Piece p, int units) {
        if (units > 0) {
            runs.add(new ElementRun(p.ordering, p.seq, units));
        }
    }
}
