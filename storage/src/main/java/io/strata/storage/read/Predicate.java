package io.strata.storage.read;

import io.strata.storage.data.ValueComparators;
import io.strata.storage.schema.DataType;
import io.strata.storage.schema.TableSchema;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A filter on rows: comparisons of a column with a literal, combined with AND and OR. Used
 * exactly on merged rows, and conservatively ({@link #mayMatch}) on statistics to skip
 * manifests and files.
 */
public abstract class Predicate {

    /** Statistics of a group of rows (a file, a manifest's partitions): min, max, null count per field. */
    public interface Stats {
        /** Minimum of field {@code index}, or null if unknown. */
        Object min(int index);

        Object max(int index);

        /** Null count, or -1 if unknown. */
        long nullCount(int index);

        long rowCount();
    }

    /** Comparison operators. */
    public enum Op {
        EQ,
        NE,
        LT,
        LE,
        GT,
        GE,
        IS_NULL,
        IS_NOT_NULL
    }

    public abstract boolean test(Object[] row);

    /** False only if no row described by {@code stats} can match. */
    public abstract boolean mayMatch(Stats stats);

    /** Indexes (in the table schema) of the fields this predicate reads. */
    public abstract Set<Integer> fields();

    /** The top-level AND parts of this predicate. */
    public List<Predicate> conjuncts() {
        return List.of(this);
    }

    public static Predicate leaf(TableSchema schema, String field, Op op, Object literal) {
        int idx = schema.fieldIndex(field);
        if (idx < 0) {
            throw new IllegalArgumentException(
                    "filter names unknown column '" + field + "' (columns: " + schema.fields() + ")");
        }
        DataType t = schema.fields().get(idx).type();
        if (op != Op.IS_NULL && op != Op.IS_NOT_NULL && !t.copy(true).accepts(literal)) {
            throw new IllegalArgumentException("filter on '" + field + "' needs a " + t.typeName() + " literal, got "
                    + (literal == null ? "null" : literal.getClass().getSimpleName()));
        }
        if (op == Op.IS_NULL || op == Op.IS_NOT_NULL) {
            return new Leaf(idx, op, literal, null); // compares nothing: fine on a MAP, which has no order
        }
        if (t.root() == DataType.Root.MAP) {
            throw new IllegalArgumentException("filter on '" + field + "': " + t.typeName()
                    + " values have no order; only IS NULL and IS NOT NULL apply");
        }
        return new Leaf(idx, op, literal, ValueComparators.forType(t));
    }

    public static Predicate and(Predicate... parts) {
        return new And(List.of(parts));
    }

    public static Predicate or(Predicate... parts) {
        return new Or(List.of(parts));
    }

    static final class Leaf extends Predicate {
        private final int index;
        private final Op op;
        private final Object literal;
        private final Comparator<Object> cmp;

        Leaf(int index, Op op, Object literal, Comparator<Object> cmp) {
            this.index = index;
            this.op = op;
            this.literal = literal;
            this.cmp = cmp;
        }

        @Override
        public boolean test(Object[] row) {
            Object v = row[index];
            switch (op) {
                case IS_NULL:
                    return v == null;
                case IS_NOT_NULL:
                    return v != null;
                default:
                    if (v == null) {
                        return false;
                    }
                    int c = cmp.compare(v, literal);
                    switch (op) {
                        case EQ:
                            return c == 0;
                        case NE:
                            return c != 0;
                        case LT:
                            return c < 0;
                        case LE:
                            return c <= 0;
                        case GT:
                            return c > 0;
                        default:
                            return c >= 0;
                    }
            }
        }

        @Override
        public boolean mayMatch(Stats s) {
            long nulls = s.nullCount(index);
            switch (op) {
                case IS_NULL:
                    return nulls != 0;
                case IS_NOT_NULL:
                    return nulls < 0 || nulls < s.rowCount();
                default:
                    break;
            }
            Object min = s.min(index);
            Object max = s.max(index);
            if (min == null || max == null) {
                return nulls < 0 || nulls < s.rowCount();
            }
            switch (op) {
                case EQ:
                    return cmp.compare(literal, min) >= 0 && cmp.compare(literal, max) <= 0;
                case NE:
                    return !(cmp.compare(min, literal) == 0 && cmp.compare(max, literal) == 0);
                case LT:
                    return cmp.compare(min, literal) < 0;
                case LE:
                    return cmp.compare(min, literal) <= 0;
                case GT:
                    return cmp.compare(max, literal) > 0;
                default:
                    return cmp.compare(max, literal) >= 0;
            }
        }

        @Override
        public Set<Integer> fields() {
            return Set.of(index);
        }

        @Override
        public String toString() {
            return "#" + index + " " + op + " " + literal;
        }
    }

    static final class And extends Predicate {
        private final List<Predicate> parts;

        And(List<Predicate> parts) {
            this.parts = parts;
        }

        @Override
        public boolean test(Object[] row) {
            for (Predicate p : parts) {
                if (!p.test(row)) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public boolean mayMatch(Stats s) {
            for (Predicate p : parts) {
                if (!p.mayMatch(s)) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public Set<Integer> fields() {
            Set<Integer> out = new TreeSet<>();
            parts.forEach(p -> out.addAll(p.fields()));
            return out;
        }

        @Override
        public List<Predicate> conjuncts() {
            List<Predicate> out = new ArrayList<>();
            parts.forEach(p -> out.addAll(p.conjuncts()));
            return out;
        }
    }

    static final class Or extends Predicate {
        private final List<Predicate> parts;

        Or(List<Predicate> parts) {
            this.parts = parts;
        }

        @Override
        public boolean test(Object[] row) {
            for (Predicate p : parts) {
                if (p.test(row)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public boolean mayMatch(Stats s) {
            for (Predicate p : parts) {
                if (p.mayMatch(s)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public Set<Integer> fields() {
            Set<Integer> out = new TreeSet<>();
            parts.forEach(p -> out.addAll(p.fields()));
            return out;
        }
    }
}
