package io.strata.storage.schema;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A column type. Java value classes: BOOLEAN {@link Boolean}, INT {@link Integer}, BIGINT
 * {@link Long}, FLOAT {@link Float}, DOUBLE {@link Double}, DECIMAL {@link BigDecimal} (with the
 * declared scale), STRING {@link String}, BYTES {@code byte[]}, DATE {@link Integer} (days since
 * 1970-01-01), TIMESTAMP(3) {@link Long} epoch milliseconds, TIMESTAMP(6) {@link Long} epoch
 * microseconds (both without time zone).
 *
 * <p>The textual form ({@code BIGINT NOT NULL}, {@code DECIMAL(10, 2)}, {@code TIMESTAMP(6)}) is
 * what schema files and the persisted schema use.
 */
public final class DataType {

    /** The type families. */
    public enum Root {
        BOOLEAN(Boolean.class),
        INT(Integer.class),
        BIGINT(Long.class),
        FLOAT(Float.class),
        DOUBLE(Double.class),
        DECIMAL(BigDecimal.class),
        STRING(String.class),
        BYTES(byte[].class),
        DATE(Integer.class),
        TIMESTAMP(Long.class);

        private final Class<?> javaClass;

        Root(Class<?> javaClass) {
            this.javaClass = javaClass;
        }

        public Class<?> javaClass() {
            return javaClass;
        }
    }

    private static final Pattern TEXT = Pattern.compile(
            "\\s*([A-Za-z]+)\\s*(?:\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\))?\\s*(NOT\\s+NULL|NULL)?\\s*",
            Pattern.CASE_INSENSITIVE);

    private final Root root;
    private final int precision;
    private final int scale;
    private final boolean nullable;

    private DataType(Root root, int precision, int scale, boolean nullable) {
        this.root = root;
        this.precision = precision;
        this.scale = scale;
        this.nullable = nullable;
    }

    public static DataType of(Root root) {
        switch (root) {
            case DECIMAL:
                return decimal(10, 0);
            case TIMESTAMP:
                return timestamp(6);
            default:
                return new DataType(root, 0, 0, true);
        }
    }

    public static DataType bool() {
        return of(Root.BOOLEAN);
    }

    public static DataType intType() {
        return of(Root.INT);
    }

    public static DataType bigint() {
        return of(Root.BIGINT);
    }

    public static DataType floatType() {
        return of(Root.FLOAT);
    }

    public static DataType doubleType() {
        return of(Root.DOUBLE);
    }

    public static DataType string() {
        return of(Root.STRING);
    }

    public static DataType bytes() {
        return of(Root.BYTES);
    }

    public static DataType date() {
        return of(Root.DATE);
    }

    public static DataType decimal(int precision, int scale) {
        if (precision < 1 || precision > 38 || scale < 0 || scale > precision) {
            throw new IllegalArgumentException("DECIMAL(" + precision + ", " + scale
                    + ") is invalid: need 1 <= precision <= 38 and 0 <= scale <= precision");
        }
        return new DataType(Root.DECIMAL, precision, scale, true);
    }

    public static DataType timestamp(int precision) {
        if (precision != 3 && precision != 6) {
            throw new IllegalArgumentException(
                    "TIMESTAMP(" + precision + ") is not supported: precision must be 3 or 6");
        }
        return new DataType(Root.TIMESTAMP, precision, 0, true);
    }

    /** Parses the textual form; the message of the exception names the text. */
    public static DataType parse(String text) {
        Matcher m = TEXT.matcher(text == null ? "" : text);
        if (!m.matches()) {
            throw new IllegalArgumentException("cannot parse type '" + text + "'");
        }
        Root root;
        String name = m.group(1).toUpperCase(Locale.ROOT);
        switch (name) {
            case "BOOL":
            case "BOOLEAN":
                root = Root.BOOLEAN;
                break;
            case "INT":
            case "INTEGER":
                root = Root.INT;
                break;
            case "BIGINT":
            case "LONG":
                root = Root.BIGINT;
                break;
            case "FLOAT":
                root = Root.FLOAT;
                break;
            case "DOUBLE":
                root = Root.DOUBLE;
                break;
            case "DECIMAL":
                root = Root.DECIMAL;
                break;
            case "STRING":
            case "VARCHAR":
                root = Root.STRING;
                break;
            case "BYTES":
            case "VARBINARY":
                root = Root.BYTES;
                break;
            case "DATE":
                root = Root.DATE;
                break;
            case "TIMESTAMP":
                root = Root.TIMESTAMP;
                break;
            default:
                throw new IllegalArgumentException(
                        "unknown type '" + text.trim()
                                + "' (known: BOOLEAN, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(p,s), STRING, BYTES, DATE, TIMESTAMP(3), TIMESTAMP(6))");
        }
        DataType t;
        if (root == Root.DECIMAL) {
            int p = m.group(2) == null ? 10 : Integer.parseInt(m.group(2));
            int s = m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
            t = decimal(p, s);
        } else if (root == Root.TIMESTAMP) {
            if (m.group(3) != null) {
                throw new IllegalArgumentException("cannot parse type '" + text + "': TIMESTAMP takes one precision");
            }
            t = timestamp(m.group(2) == null ? 6 : Integer.parseInt(m.group(2)));
        } else {
            if (m.group(2) != null && root != Root.STRING && root != Root.BYTES) {
                throw new IllegalArgumentException(
                        "cannot parse type '" + text + "': " + root + " takes no parameters");
            }
            t = of(root);
        }
        boolean notNull =
                m.group(4) != null && m.group(4).toUpperCase(Locale.ROOT).startsWith("NOT");
        return t.copy(!notNull);
    }

    public DataType copy(boolean isNullable) {
        return new DataType(root, precision, scale, isNullable);
    }

    public Root root() {
        return root;
    }

    public int precision() {
        return precision;
    }

    public int scale() {
        return scale;
    }

    public boolean isNullable() {
        return nullable;
    }

    /** Whether {@code value} is an acceptable Java value for this type (null allowed if nullable). */
    public boolean accepts(Object value) {
        if (value == null) {
            return nullable;
        }
        return root.javaClass.isInstance(value);
    }

    /** The type without nullability, e.g. {@code DECIMAL(10, 2)}. */
    public String typeName() {
        switch (root) {
            case DECIMAL:
                return "DECIMAL(" + precision + ", " + scale + ")";
            case TIMESTAMP:
                return "TIMESTAMP(" + precision + ")";
            default:
                return root.name();
        }
    }

    @Override
    public String toString() {
        return nullable ? typeName() : typeName() + " NOT NULL";
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof DataType)) {
            return false;
        }
        DataType t = (DataType) o;
        return root == t.root && precision == t.precision && scale == t.scale && nullable == t.nullable;
    }

    @Override
    public int hashCode() {
        return Objects.hash(root, precision, scale, nullable);
    }
}
