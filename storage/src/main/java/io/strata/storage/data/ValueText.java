package io.strata.storage.data;

import io.strata.storage.schema.DataType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;

/**
 * The lossless text form of a value of a column type, for output that people and programs read
 * (the CLI's tables and JSON, partition names in logs): DECIMAL as its plain digits with the
 * declared scale ({@code 12345678901234567893.0123456789}), BYTES as standard base64, DATE as an
 * ISO-8601 date ({@code 2026-11-29}), TIMESTAMP(3) and TIMESTAMP(6) as an ISO-8601 local
 * date-time with exactly 3 or 6 fraction digits ({@code 2026-11-29T23:00:00.123}), other types
 * as Java prints them. Each form parses back to the same value.
 */
public final class ValueText {
    private static final DateTimeFormatter MILLIS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS");
    private static final DateTimeFormatter MICROS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS");

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
            case TIMESTAMP:
                return timestamp(type.precision(), (Long) value);
            default:
                return value.toString();
        }
    }

    /** TIMESTAMP(3) values are epoch milliseconds, TIMESTAMP(6) epoch microseconds, both without time zone. */
    private static String timestamp(int precision, long value) {
        long perSecond = precision == 3 ? 1_000L : 1_000_000L;
        long nanosPerUnit = 1_000_000_000L / perSecond;
        LocalDateTime t = LocalDateTime.ofEpochSecond(
                Math.floorDiv(value, perSecond),
                (int) (Math.floorMod(value, perSecond) * nanosPerUnit),
                ZoneOffset.UTC);
        return t.format(precision == 3 ? MILLIS : MICROS);
    }
}
