package io.strata.storage.testutil;

import io.strata.storage.schema.DataType;
import io.strata.storage.schema.Schema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random Java values of any {@link DataType} (issue 17's types): nulls where the type is nullable
 * (at every depth), empty and non-empty ARRAYs and MAPs, CHAR/VARCHAR values up to their length
 * with multi-byte characters, TIME values at the edges of the day, and a schema with a column of
 * every type, nested several levels deep.
 */
public final class TypedValues {
    private TypedValues() {}

    /** Value columns of every type, after a BIGINT key {@code k}; nested types nest each other and the old types. */
    public static final String[][] COLUMNS = {
        {"ti", "TINYINT"},
        {"si", "SMALLINT"},
        {"ch", "CHAR(3)"},
        {"vc", "VARCHAR(5)"},
        {"tm", "TIME(3)"},
        {"tm0", "TIME"},
        {"lz3", "TIMESTAMP_LTZ(3)"},
        {"lz6", "TIMESTAMP_LTZ(6)"},
        {"arr", "ARRAY<INT>"},
        {"strs", "ARRAY<STRING NOT NULL>"},
        {"m", "MAP<STRING, BIGINT>"},
        {"mi", "MAP<INT, ARRAY<VARCHAR(4)>>"},
        {"r", "ROW<a INT, b STRING NOT NULL, c ARRAY<ROW<x DOUBLE, y MAP<VARCHAR(3), BYTES>>>>"},
        {"dd", "ARRAY<ARRAY<DECIMAL(10, 2)>>"},
        {"old", "ROW<d DATE, ts TIMESTAMP(6), f BOOLEAN, big DECIMAL(38, 10), fl FLOAT, `odd name` SMALLINT>"},
        {"req", "ROW<z TINYINT NOT NULL, w ARRAY<TIME(2)>> NOT NULL"},
        {"v", "BIGINT"}
    };

    /** A table of key {@code k} (BIGINT NOT NULL, the primary key unless {@code append}) and {@link #COLUMNS}. */
    public static Schema schema(boolean append, Map<String, String> options) {
        Schema.Builder b = Schema.newBuilder().column("k", "BIGINT NOT NULL");
        for (String[] c : COLUMNS) {
            b.column(c[0], c[1]);
        }
        if (!append) {
            b.primaryKey("k");
        } else {
            b.option("bucket-key", "k");
        }
        options.forEach(b::option);
        return b.build();
    }

    /** A random value of {@code type}, null one time in five where it may be. */
    public static Object value(DataType type, Random rnd) {
        if (type.isNullable() && rnd.nextInt(5) == 0) {
            return null;
        }
        switch (type.root()) {
            case BOOLEAN:
                return rnd.nextBoolean();
            case TINYINT:
                return (byte) rnd.nextInt();
            case SMALLINT:
                return (short) rnd.nextInt();
            case INT:
                return rnd.nextInt(4) == 0 ? Integer.MIN_VALUE + rnd.nextInt(3) : rnd.nextInt(1000) - 500;
            case BIGINT:
                return rnd.nextLong() >> rnd.nextInt(64);
            case FLOAT:
                return rnd.nextInt(10) == 0 ? Float.NaN : (rnd.nextFloat() - 0.5f) * 100;
            case DOUBLE:
                return rnd.nextInt(10) == 0 ? Double.NEGATIVE_INFINITY : (rnd.nextDouble() - 0.5) * 1e9;
            case DECIMAL: {
                BigInteger unscaled =
                        new BigInteger(type.precision() * 3, rnd).mod(BigInteger.TEN.pow(type.precision()));
                return new BigDecimal(rnd.nextBoolean() ? unscaled : unscaled.negate(), type.scale());
            }
            case STRING:
                return string(rnd, rnd.nextInt(12));
            case CHAR:
            case VARCHAR:
                return string(rnd, rnd.nextInt(type.precision() + 1));
            case BYTES: {
                byte[] b = new byte[rnd.nextInt(6)];
                rnd.nextBytes(b);
                return b;
            }
            case DATE:
                return rnd.nextInt(40_000) - 10_000;
            case TIME: {
                int unit = new int[] {1000, 100, 10, 1}[type.precision()];
                int units = 86_400_000 / unit;
                return (rnd.nextInt(6) == 0 ? (rnd.nextBoolean() ? 0 : units - 1) : rnd.nextInt(units)) * unit;
            }
            case TIMESTAMP:
            case TIMESTAMP_LTZ:
                return (rnd.nextLong() % 4_000_000_000_000L) * (type.precision() == 6 ? 1000 : 1);
            case ARRAY: {
                int n = rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(5);
                List<Object> list = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    list.add(value(type.elementType(), rnd));
                }
                return list;
            }
            case MAP: {
                int n = rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(4);
                Map<Object, Object> map = new LinkedHashMap<>();
                for (int i = 0; i < n; i++) {
                    map.put(value(type.keyType(), rnd), value(type.valueType(), rnd));
                }
                return map;
            }
            case ROW: {
                List<DataType.Field> fields = type.fields();
                Object[] row = new Object[fields.size()];
                for (int i = 0; i < row.length; i++) {
                    row[i] = value(fields.get(i).type(), rnd);
                }
                return row;
            }
            default:
                throw new IllegalArgumentException("no values for " + type);
        }
    }

    /** {@code codePoints} characters: ASCII, two- and three-byte UTF-8 and surrogate pairs. */
    private static String string(Random rnd, int codePoints) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < codePoints; i++) {
            switch (rnd.nextInt(6)) {
                case 0:
                    sb.append((char) (0xe0 + rnd.nextInt(32)));
                    break;
                case 1:
                    sb.appendCodePoint(0x1f600 + rnd.nextInt(64));
                    break;
                case 2:
                    sb.append((char) (0x4e00 + rnd.nextInt(200)));
                    break;
                default:
                    sb.append((char) ('a' + rnd.nextInt(26)));
            }
        }
        return sb.toString();
    }
}
