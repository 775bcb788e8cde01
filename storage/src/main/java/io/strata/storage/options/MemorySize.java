package io.strata.storage.options;

import java.util.Locale;

/** Parses and formats byte sizes: {@code 256 mb}, {@code 64kb}, {@code 1 gb}, plain bytes. */
public final class MemorySize {
    private MemorySize() {}

    public static long parse(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT).replace(" ", "");
        long mult = 1;
        String[][] units = {
            {"tb", "1099511627776"},
            {"gb", "1073741824"},
            {"mb", "1048576"},
            {"kb", "1024"},
            {"t", "1099511627776"},
            {"g", "1073741824"},
            {"m", "1048576"},
            {"k", "1024"},
            {"b", "1"}
        };
        for (String[] u : units) {
            if (s.endsWith(u[0])) {
                mult = Long.parseLong(u[1]);
                s = s.substring(0, s.length() - u[0].length());
                break;
            }
        }
        long v = Long.parseLong(s);
        if (v < 0) {
            throw new IllegalArgumentException("negative size");
        }
        return Math.multiplyExact(v, mult);
    }

    public static String format(long bytes) {
        String[] names = {"gb", "mb", "kb"};
        long[] sizes = {1L << 30, 1L << 20, 1L << 10};
        for (int i = 0; i < sizes.length; i++) {
            if (bytes >= sizes[i] && bytes % sizes[i] == 0) {
                return (bytes / sizes[i]) + " " + names[i];
            }
        }
        return bytes + " b";
    }
}
