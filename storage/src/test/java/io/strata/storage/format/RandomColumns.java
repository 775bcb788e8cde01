package io.strata.storage.format;

import io.strata.storage.schema.DataType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random column types and values for the decoder's differential test: every flat {@link DataType},
 * DECIMALs of every precision class, values at the edges of their types, nulls at a chosen
 * density, and repeated values drawn from a small pool (so that writers use dictionaries) or
 * fresh ones (so that they fall back to their other encodings).
 */
final class RandomColumns {
    /** Shares of nulls among a nullable column's values. */
    static final double[] NULL_DENSITIES = {0, 0.1, 0.5, 1.0};

    private RandomColumns() {}

    static DataType type(Random rnd) {
        switch (rnd.nextInt(17)) {
            case 0:
                return DataType.bool();
            case 1:
                return DataType.intType();
            case 2:
                return DataType.bigint();
            case 3:
                return DataType.floatType();
            case 4:
                return DataType.doubleType();
            case 5:
                return DataType.string();
            case 6:
                return DataType.bytes();
            case 7:
                return DataType.date();
            case 8:
                return DataType.timestamp(rnd.nextBoolean() ? 3 : 6);
            case 9:
                return DataType.tinyint();
            case 10:
                return DataType.smallint();
            case 11:
                return DataType.charType(1 + rnd.nextInt(40));
            case 12:
                return DataType.varchar(1 + rnd.nextInt(rnd.nextBoolean() ? 10 : 3000));
            case 13:
                return DataType.time(rnd.nextInt(4));
            case 14:
                return DataType.timestampLtz(rnd.nextBoolean() ? 3 : 6);
            default:
                // the three physical classes of other writers: up to 9 digits fit INT32, up to 18 INT64
                int[][] ranges = {{1, 9}, {10, 18}, {19, 38}};
                int[] r = ranges[rnd.nextInt(3)];
                int precision = r[0] + rnd.nextInt(r[1] - r[0] + 1);
                return DataType.decimal(precision, rnd.nextInt(precision + 1));
        }
    }

    /** The values of one column: its null density and, for repeated values, the pool they come from. */
    static final class Generator {
        private final DataType type;
        private final double nullDensity;
        private final List<Object> pool;

        Generator(DataType type, Random rnd) {
            this.type = type;
            this.nullDensity = type.isNullable() ? NULL_DENSITIES[rnd.nextInt(NULL_DENSITIES.length)] : 0;
            if (rnd.nextInt(3) == 0) {
                pool = null;
            } else {
                pool = new ArrayList<>();
                int size = new int[] {1, 3, 40}[rnd.nextInt(3)];
                for (int i = 0; i < size; i++) {
                    pool.add(fresh(type, rnd));
                }
            }
        }

        double nullDensity() {
            return nullDensity;
        }

        boolean repeats() {
            return pool != null;
        }

        Object next(Random rnd) {
            if (nullDensity > 0 && rnd.nextDouble() < nullDensity) {
                return null;
            }
            return pool == null ? fresh(type, rnd) : pool.get(rnd.nextInt(pool.size()));
        }
    }

    /** A random non-null value of {@code type}. */
    static Object fresh(DataType type, Random rnd) {
        switch (type.root()) {
            case BOOLEAN:
                return rnd.nextBoolean();
            case INT:
            case DATE:
                return rnd.nextInt(5) == 0
                        ? pick(rnd, 0, -1, Integer.MIN_VALUE, Integer.MAX_VALUE)
                        : (int) (rnd.nextInt() >> rnd.nextInt(32));
            case TINYINT:
                return rnd.nextInt(5) == 0
                        ? pick(rnd, (byte) 0, (byte) -1, Byte.MIN_VALUE, Byte.MAX_VALUE)
                        : (byte) rnd.nextInt();
            case SMALLINT:
                return rnd.nextInt(5) == 0
                        ? pick(rnd, (short) 0, (short) -1, Short.MIN_VALUE, Short.MAX_VALUE)
                        : (short) (rnd.nextInt() >> rnd.nextInt(32));
            case TIME: {
                int unit = new int[] {1000, 100, 10, 1}[type.precision()];
                return rnd.nextInt(5) == 0 ? pick(rnd, 0, 86_400_000 - unit) : rnd.nextInt(86_400_000 / unit) * unit;
            }
            case CHAR:
            case VARCHAR: {
                String s = string(rnd);
                return s.codePointCount(0, s.length()) <= type.precision()
                        ? s
                        : s.substring(0, s.offsetByCodePoints(0, type.precision()));
            }
            case BIGINT:
            case TIMESTAMP:
            case TIMESTAMP_LTZ:
                return rnd.nextInt(5) == 0
                        ? pickLong(rnd, 0, -1, Long.MIN_VALUE, Long.MAX_VALUE)
                        : rnd.nextLong() >> rnd.nextInt(64);
            case FLOAT:
                switch (rnd.nextInt(8)) {
                    case 0:
                        return pick(
                                rnd,
                                Float.NaN,
                                -0.0f,
                                0.0f,
                                Float.POSITIVE_INFINITY,
                                Float.NEGATIVE_INFINITY,
                                Float.MIN_VALUE,
                                Float.MAX_VALUE);
                    case 1:
                        return Float.intBitsToFloat(rnd.nextInt());
                    default:
                        return (rnd.nextFloat() - 0.5f) * 1000;
                }
            case DOUBLE:
                switch (rnd.nextInt(8)) {
                    case 0:
                        return pick(
                                rnd,
                                Double.NaN,
                                -0.0,
                                0.0,
                                Double.POSITIVE_INFINITY,
                                Double.NEGATIVE_INFINITY,
                                Double.MIN_VALUE,
                                Double.MAX_VALUE);
                    case 1:
                        return Double.longBitsToDouble(rnd.nextLong());
                    default:
                        return (rnd.nextDouble() - 0.5) * 1e6;
                }
            case DECIMAL: {
                int digits = rnd.nextInt(4) == 0 ? type.precision() : 1 + rnd.nextInt(type.precision());
                BigInteger unscaled = new BigInteger(digits * 4, rnd).mod(BigInteger.TEN.pow(digits));
                return new BigDecimal(rnd.nextBoolean() ? unscaled : unscaled.negate(), type.scale());
            }
            case STRING:
                return string(rnd);
            case BYTES: {
                byte[] b = new byte[rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(rnd.nextInt(10) == 0 ? 3000 : 24)];
                rnd.nextBytes(b);
                return b;
            }
            default:
                throw new IllegalArgumentException("unsupported " + type);
        }
    }

    /** ASCII, two- and three-byte UTF-8 and surrogate pairs; now and then empty or a few kilobytes. */
    private static String string(Random rnd) {
        int length = rnd.nextInt(6) == 0 ? 0 : rnd.nextInt(rnd.nextInt(10) == 0 ? 2000 : 30);
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            switch (rnd.nextInt(10)) {
                case 0:
                    sb.append((char) (0xe0 + rnd.nextInt(32)));
                    break;
                case 1:
                    sb.append((char) (0x4e00 + rnd.nextInt(2000)));
                    break;
                case 2:
                    sb.appendCodePoint(0x1f600 + rnd.nextInt(64));
                    break;
                default:
                    sb.append((char) (' ' + rnd.nextInt(95)));
            }
        }
        return sb.toString();
    }

    @SafeVarargs
    private static <T> T pick(Random rnd, T... values) {
        return values[rnd.nextInt(values.length)];
    }

    private static long pickLong(Random rnd, long... values) {
        return values[rnd.nextInt(values.length)];
    }
}
