package io.strata.storage.merge;

import io.strata.storage.data.ValueComparators;
import io.strata.storage.schema.DataType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Field aggregate functions of the aggregation engine. Each folds a value into an accumulator
 * of the field's type, where null means "nothing yet". Every function here is associative over
 * values, which is what lets the engine pre-merge versions in a write buffer or a compaction and
 * merge the results again later with the same outcome.
 *
 * <p>The merge function starts a key's accumulator with {@link #start} at its first positive
 * input (since the key's last removal) and folds later inputs with {@link #agg}; retractions go
 * to {@link #retract}, only for functions that {@link #supportsRetract()}. The table of what each
 * function folds and retracts to is in docs/DESIGN.md, "Merge engines".
 */
public enum AggregateFunction {
    /** Sum of non-null values. Retract subtracts. */
    SUM(Retract.EXACT) {
        @Override
        Object agg(DataType t, Object acc, Object v) {
            return v == null ? acc : acc == null ? v : add(t, acc, v);
        }

        @Override
        Object retract(DataType t, Object acc, Object v) {
            return v == null ? acc : acc == null ? negate(t, v) : add(t, acc, negate(t, v));
        }
    },
    /**
     * Product of non-null values. Cannot retract: dividing is not exact (a group of versions that
     * starts with a retraction of 3 would need 1/3 in an INT accumulator; a retracted 0 cannot be
     * divided out; FLOAT and DOUBLE division does not undo multiplication), and an inexact
     * retraction would make the table depend on how rows were grouped into commits.
     */
    PRODUCT(Retract.NO) {
        @Override
        Object agg(DataType t, Object acc, Object v) {
            return v == null ? acc : acc == null ? v : multiply(t, acc, v);
        }
    },
    /** Number of rows whose value is non-null (the writer stores 1 per such row; merging sums). Retract subtracts. */
    COUNT(Retract.EXACT) {
        @Override
        Object agg(DataType t, Object acc, Object v) {
            return SUM.agg(t, acc, v);
        }

        @Override
        Object retract(DataType t, Object acc, Object v) {
            return SUM.retract(t, acc, v);
        }
    },
    MIN(Retract.NO) {
        @Override
        Object agg(DataType t, Object acc, Object v) {
            return v == null ? acc : acc == null ? v : compare(t, v, acc) < 0 ? v : acc;
        }
    },
    MAX(Retract.NO) {
        @Override
        Object agg(DataType t, Object acc, Object v) {
            return v == null ? acc : acc == null ? v : compare(t, v, acc) > 0 ? v : acc;
        }
    },
    /** The last row's value, null included. Retract sets null (the value before it is not kept). */
    LAST_VALUE(Retract.EXACT) {
        @Override
        Object agg(DataType t, Object acc, Object v) {
            return v;
        }

        @Override
        Object retract(DataType t, Object acc, Object v) {
            return null;
        }
    },
    /**
     * The last non-null value. Retracting a non-null value sets null (the value before it is not
     * kept); retracting null changes nothing.
     */
    LAST_NON_NULL_VALUE(Retract.EMPTIES) {
        @Override
        Object agg(DataType t, Object acc, Object v) {
            return v == null ? acc : v;
        }

        @Override
        Object retract(DataType t, Object acc, Object v) {
            return v == null ? acc : null;
        }
    },
    /** The first row's value, null included (as Paimon's first_value). */
    FIRST_VALUE(Retract.NO) {
        @Override
        Object start(DataType t, Object acc, Object v) {
            return v;
        }

        @Override
        Object agg(DataType t, Object acc, Object v) {
            return acc;
        }
    },
    /** The first non-null value (nulls do not count as a value). */
    FIRST_NON_NULL_VALUE(Retract.NO) {
        @Override
        Object agg(DataType t, Object acc, Object v) {
            return acc == null ? v : acc;
        }
    },
    /** Non-null strings joined with ",". */
    LISTAGG(Retract.NO) {
        @Override
        Object agg(DataType t, Object acc, Object v) {
            return v == null ? acc : acc == null ? v : acc + "," + v;
        }
    },
    /**
     * ARRAY: the arrays of the inputs concatenated in order (a null input adds nothing; an empty
     * array is a value). Cannot retract: removing a retracted element needs the accumulator that
     * holds it, and a group of versions that starts with a retraction has none, nor can an array
     * hold "minus x" to carry it to the older versions, so the result would depend on how rows
     * were grouped into commits.
     */
    COLLECT(Retract.NO) {
        @Override
        Object agg(DataType t, Object acc, Object v) {
            return v == null ? acc : acc == null ? v : concat((List<?>) acc, (List<?>) v);
        }
    },
    /**
     * collect with {@code fields.<f>.distinct=true}: each element once, its first occurrence
     * kept, in order. Not a function name of its own: {@link MergeEngines} selects it for a
     * collect field with that option ({@link #withDistinct()}).
     */
    COLLECT_DISTINCT(Retract.NO) {
        @Override
        Object agg(DataType t, Object acc, Object v) {
            if (v == null) {
                return acc;
            }
            return distinct(t.elementType(), acc == null ? List.of() : (List<?>) acc, (List<?>) v);
        }

        @Override
        public String optionName() {
            return COLLECT.optionName();
        }
    },
    /**
     * MAP: the maps of the inputs merged, a later input's value for a key winning (a null value
     * included); entries keep the position of their key's first occurrence. Cannot retract:
     * removing a retracted key from a group of versions that starts with the retraction would
     * have to carry "key removed" to the older versions, which a map cannot hold (a null value is
     * a value), so the result would depend on how rows were grouped into commits.
     */
    MERGE_MAP(Retract.NO) {
        @Override
        Object agg(DataType t, Object acc, Object v) {
            if (v == null || acc == null) {
                return v == null ? acc : v;
            }
            Map<Object, Object> merged = new LinkedHashMap<>((Map<?, ?>) acc);
            merged.putAll((Map<?, ?>) v);
            return merged;
        }
    },
    BOOL_AND(Retract.NO) {
        @Override
        Object agg(DataType t, Object acc, Object v) {
            return v == null ? acc : acc == null ? v : (Boolean) acc && (Boolean) v;
        }
    },
    BOOL_OR(Retract.NO) {
        @Override
        Object agg(DataType t, Object acc, Object v) {
            return v == null ? acc : acc == null ? v : (Boolean) acc || (Boolean) v;
        }
    };

    /** What a function does with a retraction. */
    private enum Retract {
        /** Rejected at write time unless the field has {@code ignore-retract}. */
        NO,
        /** Folded; the accumulator afterwards says everything a later merge needs. */
        EXACT,
        /** Folded, but it may leave the accumulator empty where it held a value; see {@link #retractMayEmpty()}. */
        EMPTIES
    }

    private final Retract retract;

    AggregateFunction(Retract retract) {
        this.retract = retract;
    }

    public boolean supportsRetract() {
        return retract != Retract.NO;
    }

    /**
     * Whether a retraction may leave the accumulator null where it held a value, while
     * {@link #agg} treats a null input as "no value" (last_non_null_value). A pre-merged row
     * holding that null would then let an older value through when merged again, so until a
     * later input sets a value again the merge function keeps the records themselves.
     */
    boolean retractMayEmpty() {
        return retract == Retract.EMPTIES;
    }

    /**
     * Whether the result depends on the order of the inputs (last and first values, listagg), so
     * that under {@code sequence.field} the inputs must be folded in ordering-field order.
     * Order-insensitive functions (sum, product, count, min, max, bool_and, bool_or) give the same
     * result in any order.
     */
    public boolean orderSensitive() {
        switch (this) {
            case LAST_VALUE:
            case LAST_NON_NULL_VALUE:
            case FIRST_VALUE:
            case FIRST_NON_NULL_VALUE:
            case LISTAGG:
            case COLLECT:
            case COLLECT_DISTINCT:
            case MERGE_MAP:
                return true;
            default:
                return false;
        }
    }

    /** The function of a field configured with {@code fields.<f>.distinct=true}; only collect has one. */
    AggregateFunction withDistinct() {
        if (this != COLLECT) {
            throw new IllegalStateException(name() + " has no distinct form");
        }
        return COLLECT_DISTINCT;
    }

    /**
     * The accumulator after a key's first positive input {@code v}, given {@code acc}, what
     * retractions before it left (null if none): {@link #agg} for every function but first_value,
     * whose accumulator cannot otherwise tell "the first value was null" from "nothing yet".
     */
    Object start(DataType t, Object acc, Object v) {
        return agg(t, acc, v);
    }

    /** The accumulator after folding positive input {@code v} (null included) into {@code acc}. */
    abstract Object agg(DataType t, Object acc, Object v);

    /** The accumulator after retracting {@code v}; only for functions that {@link #supportsRetract()}. */
    Object retract(DataType t, Object acc, Object v) {
        throw new UnsupportedOperationException(name() + " cannot retract");
    }

    public String optionName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static AggregateFunction fromOption(String owner, String field, String value) {
        String name = value.trim().toLowerCase(Locale.ROOT);
        StringBuilder known = new StringBuilder();
        for (AggregateFunction f : values()) {
            if (f == COLLECT_DISTINCT) {
                continue; // selected by fields.<f>.distinct, not by name
            }
            if (f.optionName().equals(name)) {
                return f;
            }
            known.append(known.length() == 0 ? "" : ", ").append(f.optionName());
        }
        throw new IllegalArgumentException(owner + ": option 'fields." + field + ".aggregate-function' has unknown "
                + "function '" + value + "' (known: " + known + ")");
    }

    /** Null if the function accepts fields of {@code t}, else the reason it does not. */
    public String rejectType(DataType t) {
        switch (this) {
            case SUM:
                return numeric(t) ? null : "needs a numeric type";
            case PRODUCT:
                if (t.root() == DataType.Root.DECIMAL && t.scale() != 0) {
                    return "needs a numeric type, DECIMAL only with scale 0 (rounding every product to the "
                            + "scale would make the result depend on how rows were grouped)";
                }
                return numeric(t) ? null : "needs a numeric type";
            case COUNT:
                return t.root() == DataType.Root.INT || t.root() == DataType.Root.BIGINT ? null : "needs INT or BIGINT";
            case LISTAGG:
                return t.root() == DataType.Root.STRING ? null : "needs STRING";
            case BOOL_AND:
            case BOOL_OR:
                return t.root() == DataType.Root.BOOLEAN ? null : "needs BOOLEAN";
            case MIN:
            case MAX:
                return t.root() == DataType.Root.BOOLEAN ? "needs an ordered type" : null;
            case COLLECT:
                return t.root() == DataType.Root.ARRAY ? null : "needs ARRAY";
            case COLLECT_DISTINCT:
                if (t.root() != DataType.Root.ARRAY) {
                    return "needs ARRAY";
                }
                return containsMap(t.elementType())
                        ? "with fields.<f>.distinct needs elements that can be compared (MAP values have no order)"
                        : null;
            case MERGE_MAP:
                return t.root() == DataType.Root.MAP ? null : "needs MAP";
            default:
                return null;
        }
    }

    private static boolean numeric(DataType t) {
        switch (t.root()) {
            case INT:
            case BIGINT:
            case FLOAT:
            case DOUBLE:
            case DECIMAL:
                return true;
            default:
                return false;
        }
    }

    private static boolean containsMap(DataType t) {
        switch (t.root()) {
            case MAP:
                return true;
            case ARRAY:
                return containsMap(t.elementType());
            case ROW:
                for (DataType.Field f : t.fields()) {
                    if (containsMap(f.type())) {
                        return true;
                    }
                }
                return false;
            default:
                return false;
        }
    }

    /** A new list; inputs are values other records may still hold, so they are never changed. */
    private static List<Object> concat(List<?> a, List<?> b) {
        List<Object> out = new ArrayList<>(a.size() + b.size());
        out.addAll(a);
        out.addAll(b);
        return out;
    }

    /**
     * {@code a ++ b} with each element kept at its first occurrence only. Elements are equal when
     * the element type's comparator says so (BYTES and ROW values are arrays, whose equals is
     * identity). Associative: an element's first occurrence in {@code a ++ b ++ c} is its first
     * occurrence in either grouping.
     */
    private static List<Object> distinct(DataType element, List<?> a, List<?> b) {
        Set<Object> seen = new TreeSet<>(ValueComparators.forType(element));
        List<Object> out = new ArrayList<>(a.size() + b.size());
        for (List<?> part : List.of(a, b)) {
            for (Object e : part) {
                if (seen.add(e)) {
                    out.add(e);
                }
            }
        }
        return out;
    }

    static Object add(DataType t, Object a, Object b) {
        switch (t.root()) {
            case INT:
                return (Integer) a + (Integer) b;
            case BIGINT:
                return (Long) a + (Long) b;
            case FLOAT:
                return (Float) a + (Float) b;
            case DOUBLE:
                return (Double) a + (Double) b;
            case DECIMAL:
                return ((BigDecimal) a).add((BigDecimal) b);
            default:
                throw new IllegalStateException("sum over " + t);
        }
    }

    /** INT and BIGINT overflow wraps, as in {@link #add}: still associative and commutative. */
    static Object multiply(DataType t, Object a, Object b) {
        switch (t.root()) {
            case INT:
                return (Integer) a * (Integer) b;
            case BIGINT:
                return (Long) a * (Long) b;
            case FLOAT:
                return (Float) a * (Float) b;
            case DOUBLE:
                return (Double) a * (Double) b;
            case DECIMAL:
                return ((BigDecimal) a).multiply((BigDecimal) b); // scale 0 (rejectType): exact
            default:
                throw new IllegalStateException("product over " + t);
        }
    }

    static Object negate(DataType t, Object v) {
        switch (t.root()) {
            case INT:
                return -(Integer) v;
            case BIGINT:
                return -(Long) v;
            case FLOAT:
                return -(Float) v;
            case DOUBLE:
                return -(Double) v;
            case DECIMAL:
                return ((BigDecimal) v).negate();
            default:
                throw new IllegalStateException("sum over " + t);
        }
    }

    static int compare(DataType t, Object a, Object b) {
        return ValueComparators.forType(t).compare(a, b);
    }
}
