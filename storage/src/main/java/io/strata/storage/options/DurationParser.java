package io.strata.storage.options;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses and formats durations: a non-negative whole number, optionally a space, and a unit:
 * {@code ms}, {@code s}/{@code sec}, {@code m}/{@code min}, {@code h}, {@code d} (any case), so
 * {@code 500 ms}, {@code 30s}, {@code 5m}, {@code 5 min}, {@code 1h}, {@code 7d}. A bare number is
 * milliseconds, as before units were required. Negative durations are rejected: every duration
 * Strata reads is a wait, a timeout or an interval.
 */
public final class DurationParser {
    private static final Pattern FORM = Pattern.compile("(-?\\d+)\\s*([a-z]*)");

    private static final Map<String, Duration> UNITS = Map.of(
            "",
            Duration.ofMillis(1),
            "ms",
            Duration.ofMillis(1),
            "s",
            Duration.ofSeconds(1),
            "sec",
            Duration.ofSeconds(1),
            "m",
            Duration.ofMinutes(1),
            "min",
            Duration.ofMinutes(1),
            "h",
            Duration.ofHours(1),
            "d",
            Duration.ofDays(1));

    private DurationParser() {}

    /**
     * @throws IllegalArgumentException naming the text when it is not a duration or is negative
     */
    public static Duration parse(String text) {
        Matcher m = FORM.matcher(text.trim().toLowerCase(Locale.ROOT));
        Duration unit = m.matches() ? UNITS.get(m.group(2)) : null;
        if (unit == null) {
            throw new IllegalArgumentException("'" + text + "' is not a duration (e.g. 500 ms, 30 s, 5 min, 1 h, 7 d)");
        }
        long amount;
        try {
            amount = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is too large a duration", e);
        }
        if (amount < 0) {
            throw new IllegalArgumentException("'" + text + "' is negative; a duration must be 0 or more");
        }
        try {
            return unit.multipliedBy(amount);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("'" + text + "' is too large a duration", e);
        }
    }

    /** The shortest exact text of {@code d} in the largest unit that divides it, e.g. {@code 10 s}. */
    public static String format(Duration d) {
        long ms = d.toMillis();
        if (ms == 0) {
            return "0 ms";
        }
        String[] names = {"d", "h", "min", "s"};
        long[] sizes = {86_400_000L, 3_600_000L, 60_000L, 1_000L};
        for (int i = 0; i < sizes.length; i++) {
            if (ms % sizes[i] == 0) {
                return (ms / sizes[i]) + " " + names[i];
            }
        }
        return ms + " ms";
    }
}
