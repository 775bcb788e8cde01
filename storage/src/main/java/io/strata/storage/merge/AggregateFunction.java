package io.strata.storage.merge;

import io.strata.storage.data.ValueComparators;
import io.strata.storage.schema.DataType;
import java.math.BigDecimal;
import java.util.Locale;

/**
 * Field aggregate functions of the aggregation engine. Each folds a value into an accumulator
 * of the field's type, where null means "nothing yet". Every function here is associative over
 * values, which is what lets the engine pre-merge versions in a write buffer or a compaction and
 * merge the results again later with the same outcome.
 */
public enum AggregateFunction {
    /** Sum of non-null values. Retract subtracts. */
    SUM(true) {
        @Override
        Object agg(DataType t, Object acc, Object v) {
            return v == null ? acc : acc == null ? v : add(t, acc, v);
        }

        @Override
        Object retract(DataType t, Object acc, Object v) {
            return v == null ? acc : acc == null ? negate(t, v) : add(t, acc, negate(t, v));
        }
    },
    /** Number of rows whose value is non-null (the writer stores 1 per such row; merging sums). Retract subtracts. */
    COUNT(true) {
        @Override
        Object agg(DataType t, Object acc, Object v) {
            return SUM.agg(t, acc, v);
        }

        @Override
        Object retract(DataType t, Object acc, Object v) {
            return SUM.retract(t, acc, v);
        }
    },
    MIN(false) {
        @Override
        Object agg(DataType t, Object acc, Object v) {
            return v == null ? acc : acc == null ? v : compare(t, v, acc) < 0 ? v : acc;
        }
    },
    MAX(false) {
        @Override
        Object agg(DataType t, Object acc, Object v) {
            return v == null ? acc : acc == null ? v : compare(t, v, acc) > 0 ? v : acc;
        }
    },
    /** The last row's value, null included. Retract sets null. */
    LAST_VALUE(true) {
        @Override
        Object agg(DataType t, Object acc, Object v) {
            return v;
        }

        @Override
        Object retract(DataType t, Object acc, Object v) {
            return null;
        }
    },
    /** The last non-null value. */
    LAST_NON_NULL_VALUE(false) {
        @Override
        Object agg(DataType t, Object acc, Object v) {
            return v == null ? acc : v;
        }
    },
    /** The first non-null value (nulls do not count as a value). */
    FIRST_VALUE(false) {
        @Override
        Object agg(DataType t, Object acc, Object v) {
            return acc == null ? v : acc;
        }
    },
    /** Non-null strings joined with ",". */
    LISTAGG(false) {
        @Override
        Object agg(DataType t, Object acc, Object v) {
            return v == null ? acc : acc == null ? v : acc + "," + v;
        }
    },
    BOOL_AND(false) {
        @Override
        Object agg(DataType t, Object acc, Object v) {
            return v == null ? acc : acc == null ? v : (Boolean) acc && (Boolean) v;
        }
    },
    BOOL_OR(false) {
        @Override
        Object agg(DataType t, Object acc, Object v) {
            return v == null ? acc : acc == null ? v : (Boolean) acc || (Boolean) v;
        }
    };

    private final boolean retractable;

    AggregateFunction(boolean retractable) {
        this.retractable = retractable;
    }

    public boolean supportsRetract() {
        return retractable;
    }

    abstract Object agg(DataType t, Object acc, Object v);

    Object retract(DataType t, Object acc, Object v) {
        throw new UnsupportedOperationException(name() + " cannot retract");
    }

    public String optionName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static AggregateFunction fromOption(String owner, String field, String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            StringBuilder known = new StringBuilder();
            for (AggregateFunction f : values()) {
                known.append(known.length() == 0 ? "" : ", ").append(f.optionName());
            }
            throw new IllegalArgumentException(owner + ": option 'fields." + field + ".aggregate-function' has unknown "
                    + "function '" + value + "' (known: " + known + ")");
        }
    }

    /** Null if the function accepts fields of {@code t}, else the reason it does not. */
    public String rejectType(DataType t) {
        switch (this) {
            case SUM:
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
