package io.strata.scheduler.config;

import java.util.regex.Pattern;

/** Table-name globs: {@code *} any run of characters, {@code ?} one character, the rest literal. */
final class Globs {
    private Globs() {}

    static boolean matches(String glob, String name) {
        StringBuilder re = new StringBuilder();
        for (char c : glob.toCharArray()) {
            switch (c) {
                case '*' -> re.append(".*");
                case '?' -> re.append('.');
                default -> re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.matches(re.toString(), name);
    }
}
