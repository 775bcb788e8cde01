package io.strata.storage.schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads the textual form of {@link DataType}s, a recursive descent over:
 *
 * <pre>
 * type   := name [ '(' int [ ',' int ] ')' ] [ '&lt;' params '&gt;' ] [ WITH LOCAL TIME ZONE ] [ NOT NULL | NULL ]
 * params := type                       (ARRAY)
 *         | type ',' type              (MAP)
 *         | field { ',' field }        (ROW; field := name type, a name `quoted` when not an identifier)
 * </pre>
 *
 * Names are case-insensitive. Besides the canonical names ({@link DataType#toString}) it reads the
 * aliases schema files have always accepted (BOOL, INTEGER, LONG, VARBINARY, BYTES(n), and VARCHAR
 * without a length for STRING), VARCHAR(2147483647) as STRING (Flink's spelling of STRING), and
 * {@code TIMESTAMP(p) WITH LOCAL TIME ZONE} for TIMESTAMP_LTZ(p).
 */
final class TypeParser {
    private static final String KNOWN = "BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(p, s), "
            + "CHAR(n), VARCHAR(n), STRING, BYTES, DATE, TIME(p), TIMESTAMP(3|6), TIMESTAMP_LTZ(3|6), "
            + "ARRAY<T>, MAP<K, V>, ROW<name T, ...>";

    private final String text;
    private int pos;

    private TypeParser(String text) {
        this.text = text;
    }

    static DataType parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("cannot parse type 'null'");
        }
        TypeParser p = new TypeParser(text);
        DataType t = p.type();
        p.skipSpace();
        if (p.pos != text.length()) {
            throw p.error("unexpected '" + text.substring(p.pos) + "'");
        }
        return t;
    }

    /** {@code name} as it is written in a ROW type: bare when it is an identifier, else in backquotes. */
    static String quoteName(String name) {
        boolean identifier = !name.isEmpty() && isIdentifierStart(name.charAt(0));
        for (int i = 1; identifier && i < name.length(); i++) {
            identifier = isIdentifierPart(name.charAt(i));
        }
        return identifier ? name : "`" + name.replace("`", "``") + "`";
    }

    private DataType type() {
        int start = skipSpace();
        String word = identifier();
        if (word == null) {
            throw error("expected a type name at position " + start);
        }
        String name = word.toUpperCase(Locale.ROOT);
        int[] params = parameters();
        DataType t;
        switch (name) {
            case "BOOL":
            case "BOOLEAN":
                t = plain(DataType.Root.BOOLEAN, name, params);
                break;
            case "TINYINT":
                t = plain(DataType.Root.TINYINT, name, params);
                break;
            case "SMALLINT":
                t = plain(DataType.Root.SMALLINT, name, params);
                break;
            case "INT":
            case "INTEGER":
                t = plain(DataType.Root.INT, name, params);
                break;
            case "BIGINT":
            case "LONG":
                t = plain(DataType.Root.BIGINT, name, params);
                break;
            case "FLOAT":
                t = plain(DataType.Root.FLOAT, name, params);
                break;
            case "DOUBLE":
                t = plain(DataType.Root.DOUBLE, name, params);
                break;
            case "DECIMAL":
                if (params.length > 2) {
                    throw error("DECIMAL takes a precision and a scale");
                }
                t = DataType.decimal(params.length > 0 ? params[0] : 10, params.length > 1 ? params[1] : 0);
                break;
            case "STRING":
                if (params.length > 0) {
                    throw error("STRING takes no length; use VARCHAR(n) for a bounded string");
                }
                t = DataType.string();
                break;
            case "VARCHAR":
                t = params.length == 0 || params[0] == Integer.MAX_VALUE
                        ? DataType.string()
                        : DataType.varchar(one(name, params));
                break;
            case "CHAR":
                t = DataType.charType(params.length == 0 ? 1 : one(name, params));
                break;
            case "BYTES":
            case "VARBINARY":
                // a length was always accepted here and means nothing: BYTES is unbounded
                t = DataType.bytes();
                break;
            case "DATE":
                t = plain(DataType.Root.DATE, name, params);
                break;
            case "TIME":
                t = DataType.time(params.length == 0 ? 0 : one(name, params));
                break;
            case "TIMESTAMP": {
                int p = params.length == 0 ? 6 : one(name, params);
                t = withLocalTimeZone() ? DataType.timestampLtz(p) : DataType.timestamp(p);
                break;
            }
            case "TIMESTAMP_LTZ":
                t = DataType.timestampLtz(params.length == 0 ? 6 : one(name, params));
                break;
            case "ARRAY":
                noParameters(name, params);
                expect('<');
                t = DataType.array(type());
                expect('>');
                break;
            case "MAP": {
                noParameters(name, params);
                expect('<');
                DataType key = type();
                expect(',');
                DataType value = type();
                expect('>');
                t = DataType.map(key, value);
                break;
            }
            case "ROW":
                noParameters(name, params);
                t = DataType.row(rowFields());
                break;
            default:
                throw new IllegalArgumentException("unknown type '" + text.trim() + "' (known: " + KNOWN + ")");
        }
        return t.copy(!notNull());
    }

    private List<DataType.Field> rowFields() {
        expect('<');
        List<DataType.Field> fields = new ArrayList<>();
        do {
            skipSpace();
            String name;
            if (pos < text.length() && text.charAt(pos) == '`') {
                name = quoted();
            } else {
                name = identifier();
                if (name == null) {
                    throw error("expected a ROW field name at position " + pos);
                }
            }
            fields.add(new DataType.Field(name, type()));
        } while (accept(','));
        expect('>');
        return fields;
    }

    private DataType plain(DataType.Root root, String name, int[] params) {
        noParameters(name, params);
        return DataType.of(root);
    }

    private void noParameters(String name, int[] params) {
        if (params.length > 0) {
            throw error(name + " takes no parameters");
        }
    }

    private int one(String name, int[] params) {
        if (params.length != 1) {
            throw error(name + " takes one parameter");
        }
        return params[0];
    }

    /** {@code (a)} or {@code (a, b)}, or none. */
    private int[] parameters() {
        if (!accept('(')) {
            return new int[0];
        }
        List<Integer> out = new ArrayList<>();
        do {
            out.add(number());
        } while (accept(','));
        expect(')');
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private int number() {
        skipSpace();
        int start = pos;
        while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
            pos++;
        }
        if (start == pos) {
            throw error("expected a number at position " + start);
        }
        try {
            return Integer.parseInt(text.substring(start, pos));
        } catch (NumberFormatException e) {
            throw error("number " + text.substring(start, pos) + " is too large");
        }
    }

    private boolean withLocalTimeZone() {
        int mark = pos;
        if (keyword("WITH") && keyword("LOCAL") && keyword("TIME") && keyword("ZONE")) {
            return true;
        }
        pos = mark;
        return false;
    }

    /** Consumes {@code NOT NULL} (true) or {@code NULL} (false), or nothing (false). */
    private boolean notNull() {
        int mark = pos;
        if (keyword("NOT")) {
            if (!keyword("NULL")) {
                throw error("expected NULL after NOT");
            }
            return true;
        }
        pos = mark;
        keyword("NULL");
        return false;
    }

    private boolean keyword(String k) {
        int mark = pos;
        String w = identifier();
        if (w != null && w.equalsIgnoreCase(k)) {
            return true;
        }
        pos = mark;
        return false;
    }

    private String identifier() {
        skipSpace();
        if (pos >= text.length() || !isIdentifierStart(text.charAt(pos))) {
            return null;
        }
        int start = pos++;
        while (pos < text.length() && isIdentifierPart(text.charAt(pos))) {
            pos++;
        }
        return text.substring(start, pos);
    }

    private String quoted() {
        StringBuilder sb = new StringBuilder();
        pos++; // the opening backquote
        while (true) {
            if (pos >= text.length()) {
                throw error("unterminated `quoted` name");
            }
            char c = text.charAt(pos++);
            if (c == '`') {
                if (pos < text.length() && text.charAt(pos) == '`') {
                    pos++;
                    sb.append('`');
                    continue;
                }
                return sb.toString();
            }
            sb.append(c);
        }
    }

    private static boolean isIdentifierStart(char c) {
        return c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z';
    }

    private static boolean isIdentifierPart(char c) {
        return isIdentifierStart(c) || c >= '0' && c <= '9';
    }

    private boolean accept(char c) {
        skipSpace();
        if (pos < text.length() && text.charAt(pos) == c) {
            pos++;
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (!accept(c)) {
            throw error("expected '" + c + "' at position " + pos);
        }
    }

    private int skipSpace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
        return pos;
    }

    private IllegalArgumentException error(String why) {
        return new IllegalArgumentException("cannot parse type '" + text + "': " + why);
    }
}
