package io.strata.storage.data;

import io.strata.storage.schema.DataType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;

/**
 * The lossless text form of a value of a column type, for output that people and programs read
 * (the CLI's tables and JSON, partition names in logs): DECIMAL as its plain digits with the
 * declared scale ({@code 12345678901234567893.0123456789}), BYTES as standard base64, DATE as an
 * ISO-8601 date ({@code 2026-11-29}), TIME(p) as an ISO-8601 local time with exactly p fraction
 * digits ({@code 23:00:00}, {@code 23:00:00.123}), TIMESTAMP(3) and TIMESTAMP(6) as an ISO-8601
 * local date-time with exactly 3 or 6 fraction digits ({@code 2026-11-29T23:00:00.123}),
 * TIMESTAMP_LTZ(3) and TIMESTAMP_LTZ(6) as the instant in UTC, the same with a {@code Z}
 * ({@code 2026-11-29T23:00:00.123Z}), ARRAY, MAP and ROW as the compact JSON of {@link
 * ValueJson}, other types as Java prints them. Each form parses back to the same value ({@link
 * ValueJson#fromJson} reads them).
 */
public final class ValueText {
    private static final DateTimeFormatter MILLIS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS");
    private static final DateTimeFormatter MICROS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS");
    private static final DateTimeFormatter[] TIMES = {
        DateTimeFormatter.ofPattern("HH:mm:ss"),
        DateTimeFormatter.ofPattern("HH:mm:ss.S"),
        DateTimeFormatter.ofPattern("HH:mm:ss.SS"),
        DateTimeFormatter.ofPattern("HH:mm:ss.SSS")
    };

    private ValueText() {}

    /** The text of {@code value}, a value of {@code type} ({@code "null"} for null). */
    public static String of(DataType type, Object value) {
        if (value == null) {
            return "null";
        }
        switch (type.root()) {
            case DECIMAL:
                return ((BigDecimal) value).toPlainString();
            case BYTES:
                return Base64.getEncoder().encodeToString((byte[]) value);
            case DATE:
                return LocalDate.ofEpochDay((Integer) value).toString();
            case TIME:
                return LocalTime.ofNanoOfDay((Integer) value * 1_000_000L).format(TIMES[type.precision()]);
            case TIMESTAMP:
                return localDateTime(type.precision(), (Long) value).format(type.precision() == 3 ? MILLIS : MICROS);
            case TIMESTAMP_LTZ:
                return localDateTime(type.precision(), (Long) value).format(type.precision() == 3 ? MILLIS : MICROS)
                        + "Z";
            case ARRAY:
            case MAP:
            case ROW:
                return ValueJson.compact(type, value);
            default:
                return value.toString();
        }
    }

    /** Epoch milliseconds (precision 3) or microseconds (6) as the date-time they are in UTC. */
    static LocalDateTime localDateTime(int precision, long value) {
        long perSecond = precision == 3 ? 1_000L : 1_000_000L;
        long nanosPerUnit = 1_000_000_000L / perSecond;
        return LocalDateTime.ofEpochSecond(
                Math.floorDiv(value, perSecond),
                (int) (Math.floorMod(value, perSecond) * nanosPerUnit),
                ZoneOffset.UTC);
    }

    /** The inverse of {@link #localDateTime}; fails when the date-time has digits below the precision. */
    static long epochValue(int precision, LocalDateTime t) {
        long seconds = t.toEpochSecond(ZoneOffset.UTC);
        int nanos = t.getNano();
        long nanosPerUnit = precision == 3 ? 1_000_000L : 1_000L;
        if (nanos % nanosPerUnit != 0) {
            throw new IllegalArgumentException("has digits below precision " + precision);
        }
        return Math.addExact(Math.multiplyExact(seconds, 1_000_000_000L / nanosPerUnit), nanos / nanosPerUnit);
    }

    /** The epoch value of an instant (see {@link #epochValue}). */
    static long epochValue(int precision, Instant t) {
        return epochValue(precision, LocalDateTime.ofInstant(t, ZoneOffset.UTC));
    }
}
