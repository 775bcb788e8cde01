package io.strata.storage.data;

import io.strata.storage.schema.DataType;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Orderings of values and rows. Nulls order first. Strings (STRING, CHAR, VARCHAR) order by
 * Unicode code point (the same as their UTF-8 bytes, so the order is independent of the JVM's
 * UTF-16 strings); bytes order unsigned lexicographically; ARRAY values lexicographically by their
 * elements, ROW values field by field. MAP values have no order: asking for MAP's comparator fails.
 */
public final class ValueComparators {
    private ValueComparators() {}

    private static final ConcurrentHashMap<DataType, Comparator<Object>> BY_TYPE = new ConcurrentHashMap<>();

    /** The comparator of a type; one instance per type (callers on per-value paths may call it freely). */
    public static Comparator<Object> forType(DataType type) {
        Comparator<Object> c = BY_TYPE.get(type);
        if (c == null) {
            // not computeIfAbsent: a nested type's comparator asks for its children's
            c = create(type);
            Comparator<Object> raced = BY_TYPE.putIfAbsent(type, c);
            c = raced != null ? raced : c;
        }
        return c;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Comparator<Object> create(DataType type) {
        Comparator<Object> c;
        switch (type.root()) {
            case STRING:
            case CHAR:
            case VARCHAR:
                c = (a, b) -> compareStrings((String) a, (String) b);
                break;
            case ARRAY: {
                Comparator<Object> element = forType(type.elementType());
                c = (a, b) -> compareLists((List<?>) a, (List<?>) b, element);
                break;
            }
            case ROW: {
                List<DataType.Field> fields = type.fields();
                @SuppressWarnings("unchecked")
                Comparator<Object>[] cs = new Comparator[fields.size()];
                for (int i = 0; i < cs.length; i++) {
                    cs[i] = forType(fields.get(i).type());
                }
                c = (a, b) -> compareRows((Object[]) a, (Object[]) b, cs);
                break;
            }
            case MAP:
                throw new IllegalArgumentException(type + " values have no order");
            case BYTES:
                c = (a, b) -> Arrays.compareUnsigned((byte[]) a, (byte[]) b);
                break;
            case DECIMAL:
                c = (a, b) -> ((BigDecimal) a).compareTo((BigDecimal) b);
                break;
            default:
                c = (a, b) -> ((Comparable) a).compareTo(b);
        }
        return Comparator.nullsFirst(c);
    }

    /** Lexicographic, element by element; a proper prefix orders first. */
    private static int compareLists(List<?> a, List<?> b, Comparator<Object> element) {
        int n = Math.min(a.size(), b.size());
        for (int i = 0; i < n; i++) {
            int r = element.compare(a.get(i), b.get(i));
            if (r != 0) {
                return r;
            }
        }
        return Integer.compare(a.size(), b.size());
    }

    private static int compareRows(Object[] a, Object[] b, Comparator<Object>[] fields) {
        for (int i = 0; i < fields.length; i++) {
            int r = fields[i].compare(a[i], b[i]);
            if (r != 0) {
                return r;
            }
        }
        return 0;
    }

    /**
     * The comparator of a type for rows read {@linkplain io.strata.storage.format.DataFileReader.Options#rawStrings()
     * raw}: a STRING value is its UTF-8 bytes ({@code byte[]}), compared unsigned, which is the
     * code-point order of {@link #compareStrings}. A STRING value given as {@link String} is
     * still accepted (and ordered consistently); other types are as {@link #forType}.
     */
    public static Comparator<Object> forType(DataType type, boolean rawStrings) {
        if (!rawStrings || type.root() != DataType.Root.STRING) {
            return forType(type);
        }
        return RAW_STRING;
    }

    private static final Comparator<Object> RAW_STRING = Comparator.nullsFirst((a, b) -> {
        if (a instanceof byte[] && b instanceof byte[]) {
            return Arrays.compareUnsigned((byte[]) a, (byte[]) b);
        }
        return compareStrings(asString(a), asString(b));
    });

    /** A STRING value as a String, whether given as a String or as its UTF-8 bytes. */
    public static String asString(Object v) {
        return v instanceof byte[] ? new String((byte[]) v, StandardCharsets.UTF_8) : (String) v;
    }

    /** Compares by code point. Surrogates (U+D800..DFFF) sort above U+E000..FFFF in UTF-16 but not in UTF-8. */
    public static int compareStrings(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                if (Character.isSurrogate(x) || Character.isSurrogate(y)) {
                    return Integer.compare(a.codePointAt(i), b.codePointAt(i));
                }
                return x - y;
            }
        }
        return a.length() - b.length();
    }

    /** Compares whole tuples (e.g. min/max keys) of the given types. */
    public static Comparator<Object[]> forTuple(List<DataType> types) {
        return forTuple(types, false);
    }

    /** {@link #forTuple(List)} for tuples whose STRING values may be raw (see {@link #forType(DataType, boolean)}). */
    public static Comparator<Object[]> forTuple(List<DataType> types, boolean rawStrings) {
        @SuppressWarnings("unchecked")
        Comparator<Object>[] cs = new Comparator[types.size()];
        for (int i = 0; i < cs.length; i++) {
            cs[i] = forType(types.get(i), rawStrings);
        }
        return (a, b) -> {
            for (int i = 0; i < cs.length; i++) {
                int r = cs[i].compare(a[i], b[i]);
                if (r != 0) {
                    return r;
                }
            }
            return 0;
        };
    }

    /**
     * Compares rows on the fields at {@code indexes}, without copying the key out of the row.
     * A single non-null BIGINT or INT field (the common primary key) compares unboxed values
     * directly: this comparator sorts every write buffer and drives every merge.
     */
    public static Comparator<Object[]> forFields(int[] indexes, List<DataType> types) {
        return forFields(indexes, types, false);
    }

    /** {@link #forFields(int[], List)} for rows whose STRING values may be raw (see {@link #forType(DataType, boolean)}). */
    public static Comparator<Object[]> forFields(int[] indexes, List<DataType> types, boolean rawStrings) {
        @SuppressWarnings("unchecked")
        Comparator<Object>[] cs = new Comparator[indexes.length];
        for (int i = 0; i < cs.length; i++) {
            cs[i] = forType(types.get(i), rawStrings);
        }
        if (indexes.length == 1) {
            int idx = indexes[0];
            DataType t = types.get(0);
            if (!t.isNullable() && t.root() == DataType.Root.BIGINT) {
                return (a, b) -> Long.compare((Long) a[idx], (Long) b[idx]);
            }
            if (!t.isNullable() && t.root() == DataType.Root.INT) {
                return (a, b) -> Integer.compare((Integer) a[idx], (Integer) b[idx]);
            }
            Comparator<Object> c = cs[0];
            return (a, b) -> c.compare(a[idx], b[idx]);
        }
        return (a, b) -> {
            for (int i = 0; i < cs.length; i++) {
                int r = cs[i].compare(a[indexes[i]], b[indexes[i]]);
                if (r != 0) {
                    return r;
                }
            }
            return 0;
        };
    }

    public static Object[] project(Object[] row, int[] indexes) {
        Object[] out = new Object[indexes.length];
        for (int i = 0; i < indexes.length; i++) {
            out[i] = row[indexes[i]];
        }
        return out;
    }
}
