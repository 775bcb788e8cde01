package io.strata.storage.schema;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A column type. Java value classes:
 *
 * <ul>
 *   <li>BOOLEAN {@link Boolean}, TINYINT {@link Byte}, SMALLINT {@link Short}, INT {@link Integer},
 *       BIGINT {@link Long}, FLOAT {@link Float}, DOUBLE {@link Double}, DECIMAL {@link BigDecimal}
 *       (with the declared scale);
 *   <li>CHAR(n), VARCHAR(n), STRING {@link String}. CHAR(n) and VARCHAR(n) hold at most n
 *       characters (Unicode code points), checked when a row is written; CHAR values are stored as
 *       given, not padded;
 *   <li>BYTES {@code byte[]};
 *   <li>DATE {@link Integer} (days since 1970-01-01); TIME(p), 0 &lt;= p &lt;= 3, {@link Integer}
 *       milliseconds of the day in [0, 86 400 000), a multiple of 10^(3-p);
 *   <li>TIMESTAMP(3) / TIMESTAMP(6) {@link Long} epoch milliseconds / microseconds without time zone
 *       (a local date-time); TIMESTAMP_LTZ(3) / TIMESTAMP_LTZ(6) {@link Long} epoch milliseconds /
 *       microseconds of an instant (UTC);
 *   <li>ARRAY&lt;T&gt; {@link List} of T values (nulls allowed where T is nullable);
 *   <li>MAP&lt;K, V&gt; {@link Map} from K to V values. K is a scalar type other than BYTES (Java
 *       maps need keys with value equality) and is NOT NULL; iteration order is kept
 *       through writing and reading;
 *   <li>ROW&lt;f1 T1, f2 T2, ...&gt; {@code Object[]}, one value per field in order.
 * </ul>
 *
 * <p>Nested types nest arbitrarily. The textual form ({@code BIGINT NOT NULL}, {@code DECIMAL(10, 2)},
 * {@code ARRAY<ROW<a INT, b STRING NOT NULL>>}, {@code MAP<STRING NOT NULL, BIGINT>}) is what schema
 * files and the persisted schema use; {@link #parse} reads what {@link #toString} writes.
 */
public final class DataType {

    /**
     * The type families. Constants are never reordered (new ones are added at the end); the
     * {@linkplain #sinceSchemaVersion() schema version} of each is the first that may hold it.
     */
    public enum Root {
        BOOLEAN(Boolean.class, 1),
        INT(Integer.class, 1),
        BIGINT(Long.class, 1),
        FLOAT(Float.class, 1),
        DOUBLE(Double.class, 1),
        DECIMAL(BigDecimal.class, 1),
        STRING(String.class, 1),
        BYTES(byte[].class, 1),
        DATE(Integer.class, 1),
        TIMESTAMP(Long.class, 1),
        TINYINT(Byte.class, 2),
        SMALLINT(Short.class, 2),
        CHAR(String.class, 2),
        VARCHAR(String.class, 2),
        TIME(Integer.class, 2),
        TIMESTAMP_LTZ(Long.class, 2),
        ARRAY(List.class, 2),
        MAP(Map.class, 2),
        ROW(Object[].class, 2);

        private final Class<?> javaClass;
        private final int sinceSchemaVersion;

        Root(Class<?> javaClass, int sinceSchemaVersion) {
            this.javaClass = javaClass;
            this.sinceSchemaVersion = sinceSchemaVersion;
        }

        public Class<?> javaClass() {
            return javaClass;
        }

        /** The first schema file version that may contain this type. */
        public int sinceSchemaVersion() {
            return sinceSchemaVersion;
        }
    }

    /** A named field of a ROW type. */
    public record Field(String name, DataType type) {
        public Field {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
            if (name.isEmpty()) {
                throw new IllegalArgumentException("a ROW field needs a name");
            }
        }

        @Override
        public String toString() {
            return TypeParser.quoteName(name) + " " + type;
        }
    }

    static final int MILLIS_PER_DAY = 86_400_000;

    private final Root root;
    /** DECIMAL, TIMESTAMP, TIMESTAMP_LTZ, TIME: the precision; CHAR, VARCHAR: the length. */
    private final int precision;

    private final int scale;
    private final boolean nullable;
    /** ARRAY: the element; MAP: key then value; ROW: its fields. Empty otherwise. */
    private final List<Field> children;

    private DataType(Root root, int precision, int scale, boolean nullable, List<Field> children) {
        this.root = root;
        this.precision = precision;
        this.scale = scale;
        this.nullable = nullable;
        this.children = children;
    }

    private DataType(Root root, int precision, int scale, boolean nullable) {
        this(root, precision, scale, nullable, List.of());
    }

    /** The type of a family that takes no parameters, or with the default ones (DECIMAL(10, 0), TIMESTAMP(6), TIME(0), CHAR(1)). */
    public static DataType of(Root root) {
        switch (root) {
            case DECIMAL:
                return decimal(10, 0);
            case TIMESTAMP:
                return timestamp(6);
            case TIMESTAMP_LTZ:
                return timestampLtz(6);
            case TIME:
                return time(0);
            case CHAR:
                return charType(1);
            case VARCHAR:
            case ARRAY:
            case MAP:
            case ROW:
                throw new IllegalArgumentException(root + " needs parameters");
            default:
                return new DataType(root, 0, 0, true);
        }
    }

    public static DataType bool() {
        return of(Root.BOOLEAN);
    }

    public static DataType tinyint() {
        return of(Root.TINYINT);
    }

    public static DataType smallint() {
        return of(Root.SMALLINT);
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

    /** An instant, epoch milliseconds (precision 3) or microseconds (6). */
    public static DataType timestampLtz(int precision) {
        if (precision != 3 && precision != 6) {
            throw new IllegalArgumentException(
                    "TIMESTAMP_LTZ(" + precision + ") is not supported: precision must be 3 or 6");
        }
        return new DataType(Root.TIMESTAMP_LTZ, precision, 0, true);
    }

    /** A time of day with {@code precision} fraction digits (0 to 3), held as milliseconds of the day. */
    public static DataType time(int precision) {
        if (precision < 0 || precision > 3) {
            throw new IllegalArgumentException("TIME(" + precision + ") is not supported: precision must be 0 to 3");
        }
        return new DataType(Root.TIME, precision, 0, true);
    }

    public static DataType charType(int length) {
        return new DataType(Root.CHAR, checkLength("CHAR", length), 0, true);
    }

    public static DataType varchar(int length) {
        return new DataType(Root.VARCHAR, checkLength("VARCHAR", length), 0, true);
    }

    private static int checkLength(String name, int length) {
        if (length < 1) {
            throw new IllegalArgumentException(name + "(" + length + ") is invalid: the length must be at least 1");
        }
        return length;
    }

    public static DataType array(DataType element) {
        return new DataType(Root.ARRAY, 0, 0, true, List.of(new Field("element", element)));
    }

    /**
     * A map; the key type is made NOT NULL (Parquet map keys are required).
     *
     * @throws IllegalArgumentException if the key type is BYTES or nested
     */
    public static DataType map(DataType key, DataType value) {
        if (key.isNested() || key.root == Root.BYTES) {
            throw new IllegalArgumentException(
                    "MAP keys cannot be " + key.typeName() + ": a key must be a scalar type other than BYTES");
        }
        return new DataType(
                Root.MAP, 0, 0, true, List.of(new Field("key", key.copy(false)), new Field("value", value)));
    }

    /** A row of the given fields (at least one, names unique). */
    public static DataType row(List<Field> fields) {
        if (fields.isEmpty()) {
            throw new IllegalArgumentException("a ROW needs at least one field");
        }
        List<String> names = new ArrayList<>();
        for (Field f : fields) {
            if (names.contains(f.name())) {
                throw new IllegalArgumentException("ROW field '" + f.name() + "' is declared twice");
            }
            names.add(f.name());
        }
        return new DataType(Root.ROW, 0, 0, true, List.copyOf(fields));
    }

    /** Parses the textual form; the message of the exception names the text. */
    public static DataType parse(String text) {
        return TypeParser.parse(text);
    }

    public DataType copy(boolean isNullable) {
        return new DataType(root, precision, scale, isNullable, children);
    }

    public Root root() {
        return root;
    }

    /** DECIMAL, TIMESTAMP, TIMESTAMP_LTZ and TIME: the precision; CHAR and VARCHAR: the length; else 0. */
    public int precision() {
        return precision;
    }

    public int scale() {
        return scale;
    }

    public boolean isNullable() {
        return nullable;
    }

    /** ARRAY, MAP and ROW: types whose values hold other values. */
    public boolean isNested() {
        return root == Root.ARRAY || root == Root.MAP || root == Root.ROW;
    }

    /** CHAR, VARCHAR and STRING: values are {@link String}s. */
    public boolean isCharacterString() {
        return root == Root.STRING || root == Root.CHAR || root == Root.VARCHAR;
    }

    /** The element type of an ARRAY. */
    public DataType elementType() {
        requireRoot(Root.ARRAY);
        return children.get(0).type();
    }

    /** The key type of a MAP (NOT NULL). */
    public DataType keyType() {
        requireRoot(Root.MAP);
        return children.get(0).type();
    }

    /** The value type of a MAP. */
    public DataType valueType() {
        requireRoot(Root.MAP);
        return children.get(1).type();
    }

    /** The fields of a ROW, in order. */
    public List<Field> fields() {
        requireRoot(Root.ROW);
        return children;
    }

    /** The highest {@link Root#sinceSchemaVersion()} of this type and the types nested in it. */
    public int schemaVersionNeeded() {
        int v = root.sinceSchemaVersion();
        for (Field f : children) {
            v = Math.max(v, f.type().schemaVersionNeeded());
        }
        return v;
    }

    private void requireRoot(Root r) {
        if (root != r) {
            throw new IllegalStateException(typeName() + " is not " + r);
        }
    }

    /** Whether {@code value} is an acceptable Java value for this type (see {@link #problemWith}). */
    public boolean accepts(Object value) {
        return problemWith(value) == null;
    }

    /**
     * Why {@code value} is not a value of this type, or null when it is: a null where the type is
     * NOT NULL, a Java class other than the type's (at any depth), a CHAR/VARCHAR value longer than
     * its length, a TIME outside the day or finer than its precision, a null map key. The phrase
     * completes "field 'f' ...", e.g. {@code "expects VARCHAR(5) (String), got a value of 7
     * characters"}; nested values are named by their path ({@code "element 3"}, {@code "field b"}).
     */
    public String problemWith(Object value) {
        if (value == null) {
            return nullable ? null : "expects " + this + ", got null";
        }
        if (!root.javaClass.isInstance(value)) {
            return "expects " + this + " (" + root.javaClass.getSimpleName() + "), got "
                    + value.getClass().getSimpleName() + " " + describe(value);
        }
        switch (root) {
            case DECIMAL: {
                BigDecimal d = (BigDecimal) value;
                if (d.scale() != scale || d.precision() > precision) {
                    return "value " + d + " must have scale " + scale + " and at most " + precision + " digits ("
                            + typeName() + ")";
                }
                return null;
            }
            case CHAR:
            case VARCHAR: {
                String s = (String) value;
                // a string of at most n chars has at most n code points: skip the count then
                if (s.length() > precision) {
                    int codePoints = s.codePointCount(0, s.length());
                    if (codePoints > precision) {
                        return "expects " + typeName() + ", got a value of " + codePoints + " characters ("
                                + s.getBytes(StandardCharsets.UTF_8).length + " bytes in UTF-8)";
                    }
                }
                return null;
            }
            case TIME: {
                int ms = (Integer) value;
                int unit = precision == 3 ? 1 : precision == 2 ? 10 : precision == 1 ? 100 : 1000;
                if (ms < 0 || ms >= MILLIS_PER_DAY || ms % unit != 0) {
                    return "expects " + typeName() + " (milliseconds of the day in [0, " + MILLIS_PER_DAY
                            + "), a multiple of " + unit + "), got " + ms;
                }
                return null;
            }
            case ARRAY:
                return elementsProblem((List<?>) value);
            case MAP:
                return entriesProblem((Map<?, ?>) value);
            case ROW:
                return fieldsProblem((Object[]) value);
            default:
                return null;
        }
    }

    private String elementsProblem(List<?> list) {
        DataType element = elementType();
        int i = 0;
        for (Object e : list) {
            String p = element.problemWith(e);
            if (p != null) {
                return "element " + i + " " + p;
            }
            i++;
        }
        return null;
    }

    private String entriesProblem(Map<?, ?> map) {
        DataType key = keyType();
        DataType value = valueType();
        for (Map.Entry<?, ?> e : map.entrySet()) {
            String p = key.problemWith(e.getKey());
            if (p != null) {
                return "map key " + p;
            }
            p = value.problemWith(e.getValue());
            if (p != null) {
                return "value of map key " + describe(e.getKey()) + " " + p;
            }
        }
        return null;
    }

    private String fieldsProblem(Object[] values) {
        if (values.length != children.size()) {
            return "expects " + this + " with " + children.size() + " fields, got " + values.length + " values";
        }
        for (int i = 0; i < values.length; i++) {
            String p = children.get(i).type().problemWith(values[i]);
            if (p != null) {
                return "field " + children.get(i).name() + " " + p;
            }
        }
        return null;
    }

    private static String describe(Object v) {
        String s = v instanceof Object[] ? java.util.Arrays.deepToString((Object[]) v) : String.valueOf(v);
        return s.length() > 80 ? s.substring(0, 77) + "..." : s;
    }

    /** The type without its own nullability, e.g. {@code DECIMAL(10, 2)}, {@code ARRAY<INT NOT NULL>}. */
    public String typeName() {
        switch (root) {
            case DECIMAL:
                return "DECIMAL(" + precision + ", " + scale + ")";
            case TIMESTAMP:
            case TIMESTAMP_LTZ:
            case TIME:
            case CHAR:
            case VARCHAR:
                return root.name() + "(" + precision + ")";
            case ARRAY:
                return "ARRAY<" + elementType() + ">";
            case MAP:
                return "MAP<" + keyType() + ", " + valueType() + ">";
            case ROW: {
                StringBuilder sb = new StringBuilder("ROW<");
                for (int i = 0; i < children.size(); i++) {
                    sb.append(i > 0 ? ", " : "").append(children.get(i));
                }
                return sb.append('>').toString();
            }
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
        return root == t.root
                && precision == t.precision
                && scale == t.scale
                && nullable == t.nullable
                && children.equals(t.children);
    }

    @Override
    public int hashCode() {
        return Objects.hash(root, precision, scale, nullable, children);
    }
}
