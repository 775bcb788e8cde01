package io.strata.compaction.job;

import io.strata.storage.data.ValueComparators;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.schema.DataType;
import io.strata.storage.schema.TableSchema;
import java.io.Serializable;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which partitions a job compacts: a conjunction of comparisons on partition columns, from
 * {@code --partition k=v,k2=v2} (each given list is one alternative, OR-ed) and {@code --where}
 * ({@code dt >= '2026-01-01' AND region = 'eu'}). Literals are parsed per table against the
 * column's type, so one spec can serve several tables; a column that is not a partition column
 * of a table is an error naming both.
 */
public final class PartitionFilterSpec implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final Pattern COMPARISON =
            Pattern.compile("\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*(<=|>=|!=|<>|=|<|>)\\s*('(?:[^']|'')*'|[^\\s']+)\\s*");

    /** One comparison {@code column op literal}. */
    public static final class Condition implements Serializable {
        private static final long serialVersionUID = 1L;
        final String column;
        final String op;
        final String literal;

        Condition(String column, String op, String literal) {
            this.column = column;
            this.op = op.equals("<>") ? "!=" : op;
            this.literal = literal;
        }

        @Override
        public String toString() {
            return column + " " + op + " '" + literal + "'";
        }
    }

    /** Alternatives (OR) of conjunctions (AND); empty: every partition. */
    private final List<List<Condition>> alternatives;

    private PartitionFilterSpec(List<List<Condition>> alternatives) {
        this.alternatives = alternatives;
    }

    public static PartitionFilterSpec all() {
        return new PartitionFilterSpec(List.of());
    }

    /**
     * @param partitions {@code --partition} values, each {@code k=v,k2=v2}
     * @param where      {@code --where}, or null
     */
    public static PartitionFilterSpec parse(List<String> partitions, String where) {
        if (!partitions.isEmpty() && where != null) {
            throw new IllegalArgumentException("give either --partition or --where, not both");
        }
        List<List<Condition>> alts = new ArrayList<>();
        for (String p : partitions) {
            List<Condition> conj = new ArrayList<>();
            for (String kv : p.split(",")) {
                int eq = kv.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("--partition '" + p + "': expected k=v[,k2=v2...]");
                }
                conj.add(new Condition(
                        kv.substring(0, eq).trim(), "=", kv.substring(eq + 1).trim()));
            }
            alts.add(List.copyOf(conj));
        }
        if (where != null) {
            List<Condition> conj = new ArrayList<>();
            for (String part : where.split("(?i)\\s+AND\\s+")) {
                Matcher m = COMPARISON.matcher(part);
                if (!m.matches()) {
                    throw new IllegalArgumentException("--where: cannot parse '" + part.trim() + "'; expected "
                            + "<partition column> <op> <literal> joined by AND, op one of = != < <= > >=");
                }
                String lit = m.group(3);
                if (lit.startsWith("'")) {
                    lit = lit.substring(1, lit.length() - 1).replace("''", "'");
                }
                conj.add(new Condition(m.group(1), m.group(2), lit));
            }
            alts.add(List.copyOf(conj));
        }
        return new PartitionFilterSpec(List.copyOf(alts));
    }

    public boolean isAll() {
        return alternatives.isEmpty();
    }

    /** The filter for one table: literals parsed to its partition column types. */
    public EntryFilter toEntryFilter(String tableName, TableSchema schema) {
        if (alternatives.isEmpty()) {
            return EntryFilter.ALL;
        }
        List<String> keys = schema.partitionKeys();
        List<DataType> types = schema.typesOf(schema.partitionIndexes());
        List<List<Bound>> bound = new ArrayList<>();
        for (List<Condition> conj : alternatives) {
            List<Bound> b = new ArrayList<>();
            for (Condition c : conj) {
                int i = keys.indexOf(c.column);
                if (i < 0) {
                    throw new IllegalArgumentException("table " + tableName + ": '" + c.column + "' is not a partition "
                            + "column (partition columns: " + keys + ")");
                }
                DataType t = types.get(i);
                b.add(new Bound(i, c.op, parseLiteral(tableName, c, t), ValueComparators.forType(t)));
            }
            bound.add(b);
        }
        return new EntryFilter() {
            @Override
            public boolean mayContainPartitions(Object[] min, Object[] max) {
                if (min.length == 0) {
                    return true;
                }
                for (List<Bound> conj : bound) {
                    boolean may = true;
                    for (Bound b : conj) {
                        may &= b.mayMatch(min[b.index], max[b.index]);
                    }
                    if (may) {
                        return true;
                    }
                }
                return false;
            }

            @Override
            public boolean accept(Object[] partition, int bucket) {
                for (List<Bound> conj : bound) {
                    boolean all = true;
                    for (Bound b : conj) {
                        all &= b.test(partition[b.index]);
                    }
                    if (all) {
                        return true;
                    }
                }
                return false;
            }
        };
    }

    private static Object parseLiteral(String table, Condition c, DataType t) {
        String s = c.literal;
        try {
            switch (t.root()) {
                case BOOLEAN:
                    if (!s.equalsIgnoreCase("true") && !s.equalsIgnoreCase("false")) {
                        throw new IllegalArgumentException("not true or false");
                    }
                    return Boolean.parseBoolean(s);
                case INT:
                    return Integer.parseInt(s);
                case BIGINT:
                    return Long.parseLong(s);
                case FLOAT:
                    return Float.parseFloat(s);
                case DOUBLE:
                    return Double.parseDouble(s);
                case DECIMAL:
                    return new BigDecimal(s).setScale(t.scale());
                case STRING:
                    return s;
                case DATE:
                    return (int) LocalDate.parse(s).toEpochDay();
                default:
                    throw new IllegalArgumentException(
                            "partition filters on " + t.typeName() + " columns are not supported");
            }
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "table " + table + ": partition filter " + c + ": '" + s + "' is not a valid "
                            + t.typeName().toLowerCase(Locale.ROOT) + " (" + e.getMessage() + ")",
                    e);
        }
    }

    /** A condition bound to a column position, type-aware. */
    private static final class Bound {
        final int index;
        final String op;
        final Object value;
        final Comparator<Object> cmp;

        Bound(int index, String op, Object value, Comparator<Object> cmp) {
            this.index = index;
            this.op = op;
            this.value = value;
            this.cmp = cmp;
        }

        boolean test(Object v) {
            if (v == null) {
                return false;
            }
            int c = cmp.compare(v, value);
            switch (op) {
                case "=":
                    return c == 0;
                case "!=":
                    return c != 0;
                case "<":
                    return c < 0;
                case "<=":
                    return c <= 0;
                case ">":
                    return c > 0;
                default:
                    return c >= 0;
            }
        }

        /** May some value in [min, max] pass? Conservative: unknown bounds say yes. */
        boolean mayMatch(Object min, Object max) {
            if (min == null || max == null) {
                return true;
            }
            switch (op) {
                case "=":
                    return cmp.compare(value, min) >= 0 && cmp.compare(value, max) <= 0;
                case "!=":
                    return !(cmp.compare(min, value) == 0 && cmp.compare(max, value) == 0);
                case "<":
                    return cmp.compare(min, value) < 0;
                case "<=":
                    return cmp.compare(min, value) <= 0;
                case ">":
                    return cmp.compare(max, value) > 0;
                default:
                    return cmp.compare(max, value) >= 0;
            }
        }
    }

    @Override
    public String toString() {
        return alternatives.isEmpty() ? "all partitions" : alternatives.toString();
    }
}
