package io.strata.storage.options;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The rules between options, checked on a whole option set (a table's, or a table's with one
 * run's on top) by {@link TableOptions#validate}, after every value is known to be in its own
 * range. docs/OPTIONS.md lists them.
 */
public final class OptionRules {
    private OptionRules() {}

    /** One rule: its text for the docs, and the violation it finds in an option set, or null. */
    private record Rule(String text, Function<TableOptions, String> violation) {}

    private static final List<Rule> RULES = List.of(
            notBelow(CompactionOptions.STOP_TRIGGER, CompactionOptions.COMPACTION_TRIGGER),
            notBelow(ExpireOptions.NUM_RETAINED_MAX, ExpireOptions.NUM_RETAINED_MIN),
            new Rule(
                    "`changelog.num-retained.max` (unset: `snapshot.num-retained.max`) >= `changelog.num-retained.min` "
                            + "(unset: `snapshot.num-retained.min`)",
                    OptionRules::changelogRetention),
            notBelow(CommitOptions.MAX_RETRY_WAIT, CommitOptions.MIN_RETRY_WAIT),
            new Rule("at most one of `commit.lock.class` and `commit.lock.jdbc.url`", OptionRules::twoLocks));

    private static String twoLocks(TableOptions o) {
        return o.contains(CommitOptions.LOCK_CLASS) && o.contains(CommitOptions.LOCK_JDBC_URL)
                ? "options 'commit.lock.class' and 'commit.lock.jdbc.url' are both set: set one of them, not both "
                        + "(a table has one commit lock)"
                : null;
    }

    /** The rules as docs/OPTIONS.md states them. */
    public static List<String> texts() {
        List<String> out = new ArrayList<>();
        for (Rule r : RULES) {
            out.add(r.text());
        }
        return out;
    }

    /**
     * @throws InvalidOptionException for the first rule {@code options} break, naming both
     *         options and their values (and whether a value is the default)
     */
    static void check(TableOptions options) {
        for (Rule r : RULES) {
            String v = r.violation().apply(options);
            if (v != null) {
                throw new InvalidOptionException(v);
            }
        }
    }

    /** {@code high} (when it has a value) is at least {@code low}. */
    private static <T extends Comparable<T>> Rule notBelow(ConfigOption<T> high, ConfigOption<T> low) {
        return new Rule("`" + high.key() + "` >= `" + low.key() + "`", o -> {
            T h = o.get(high);
            T l = o.get(low);
            return h == null || l == null || h.compareTo(l) >= 0
                    ? null
                    : shown(o, high) + " must be >= " + shown(o, low);
        });
    }

    private static String changelogRetention(TableOptions o) {
        ConfigOption<Integer> min = o.contains(ExpireOptions.CHANGELOG_NUM_RETAINED_MIN)
                ? ExpireOptions.CHANGELOG_NUM_RETAINED_MIN
                : ExpireOptions.NUM_RETAINED_MIN;
        ConfigOption<Integer> max = o.contains(ExpireOptions.CHANGELOG_NUM_RETAINED_MAX)
                ? ExpireOptions.CHANGELOG_NUM_RETAINED_MAX
                : ExpireOptions.NUM_RETAINED_MAX;
        if (min == ExpireOptions.NUM_RETAINED_MIN && max == ExpireOptions.NUM_RETAINED_MAX) {
            return null; // the snapshot rule covers it
        }
        Integer h = o.get(max);
        Integer l = o.get(min);
        return h == null || h >= l
                ? null
                : shown(o, max) + " must be >= " + shown(o, min)
                        + (Objects.equals(min, ExpireOptions.NUM_RETAINED_MIN)
                                ? " (changelog.num-retained.min is unset and reads as it)"
                                : "");
    }

    private static <T> String shown(TableOptions o, ConfigOption<T> option) {
        return "option '" + option.key() + "' = " + option.format(o.get(option))
                + (o.contains(option) ? "" : " (its default)");
    }
}
