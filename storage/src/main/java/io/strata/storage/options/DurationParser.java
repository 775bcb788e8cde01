package io.strata.storage.options;

import java.util.Locale;

/** Parses durations such as {@code 10 ms}, {@code 2 s}, {@code 5 min}, {@code 1 h}, {@code 1 d}. */
public final class DurationParser {
    private DurationParser() {
    }

    /** @throws IllegalArgumentException naming the text when it is not a duration */
    public static java.time.Duration parse(String text) {
        try {
            return java.time.Duration.ofMillis(parseMillis(text));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("'" + text + "' is not a duration (e.g. 500 ms, 10 s, 5 min, 1 h, 1 d)", e);
        }
    }

    static long parseMillis(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT).replace(" ", "");
        String[][] units = {{"ms", "1"}, {"min", "60000"}, {"s", "1000"}, {"h", "3600000"}, {"d", "86400000"}};
        for (String[] u : units) {
            if (s.endsWith(u[0])) {
                return Math.multiplyExact(Long.parseLong(s.substring(0, s.length() - u[0].length())), Long.parseLong(u[1]));
            }
        }
        return Long.parseLong(s);
    }
}
