package io.strata.storage.data;

import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Equality, hash codes and debug text of row values by content, at any depth: {@code byte[]}
 * (BYTES) and {@code Object[]} (ROW) by their elements, {@link List} (ARRAY) element by element,
 * {@link Map} (MAP) by entries, each element compared the same way. Java's own {@code equals} of
 * a list of {@code byte[]} compares the arrays by identity.
 */
public final class ValueEquality {
    private ValueEquality() {}

    public static boolean equals(Object a, Object b) {
        if (a == b) {
            return true;
        }
        if (a == null || b == null) {
            return false;
        }
        if (a instanceof byte[] && b instanceof byte[]) {
            return Arrays.equals((byte[]) a, (byte[]) b);
        }
        if (a instanceof Object[] && b instanceof Object[]) {
            Object[] x = (Object[]) a;
            Object[] y = (Object[]) b;
            if (x.length != y.length) {
                return false;
            }
            for (int i = 0; i < x.length; i++) {
                if (!equals(x[i], y[i])) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof List && b instanceof List) {
            List<?> x = (List<?>) a;
            List<?> y = (List<?>) b;
            if (x.size() != y.size()) {
                return false;
            }
            Iterator<?> i = x.iterator();
            Iterator<?> j = y.iterator();
            while (i.hasNext()) {
                if (!equals(i.next(), j.next())) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof Map && b instanceof Map) {
            Map<?, ?> x = (Map<?, ?>) a;
            Map<?, ?> y = (Map<?, ?>) b;
            if (x.size() != y.size()) {
                return false;
            }
            // MAP keys are scalars other than BYTES (DataType.map), so Map lookup is by content
            for (Map.Entry<?, ?> e : x.entrySet()) {
                if (!y.containsKey(e.getKey()) || !equals(e.getValue(), y.get(e.getKey()))) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }

    /** A hash code consistent with {@link #equals}. */
    public static int hashCode(Object v) {
        if (v == null) {
            return 0;
        }
        if (v instanceof byte[]) {
            return Arrays.hashCode((byte[]) v);
        }
        if (v instanceof Object[]) {
            int h = 1;
            for (Object e : (Object[]) v) {
                h = 31 * h + hashCode(e);
            }
            return h;
        }
        if (v instanceof List) {
            int h = 1;
            for (Object e : (List<?>) v) {
                h = 31 * h + hashCode(e);
            }
            return h;
        }
        if (v instanceof Map) {
            int h = 0;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                h += hashCode(e.getKey()) ^ hashCode(e.getValue());
            }
            return h;
        }
        return v.hashCode();
    }

    /** Debug text: arrays and rows in brackets, maps in braces, BYTES as its byte values. */
    public static String toString(Object v) {
        if (v instanceof byte[]) {
            return Arrays.toString((byte[]) v);
        }
        if (v instanceof Object[]) {
            return join((Object[]) v, "(", ")");
        }
        if (v instanceof List) {
            return join(((List<?>) v).toArray(), "[", "]");
        }
        if (v instanceof Map) {
            StringBuilder sb = new StringBuilder("{");
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                sb.append(sb.length() > 1 ? ", " : "")
                        .append(toString(e.getKey()))
                        .append('=');
                sb.append(toString(e.getValue()));
            }
            return sb.append('}').toString();
        }
        return String.valueOf(v);
    }

    private static String join(Object[] values, String open, String close) {
        StringBuilder sb = new StringBuilder(open);
        for (int i = 0; i < values.length; i++) {
            sb.append(i > 0 ? ", " : "").append(toString(values[i]));
        }
        return sb.append(close).toString();
    }
}
