package io.strata.storage.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Every option's declared range, and the rules between options, over the whole registry. */
class OptionRangesTest {
    private static final Set<String> RANGED_TYPES = Set.of("integer", "long", "double");

    /** Options another option must follow at a bound, so that a value at the bound keeps the rules. */
    private static final Map<String, Map<String, String>> COMPANIONS = Map.of(
            "num-sorted-run.stop-trigger", Map.of("num-sorted-run.compaction-trigger", "1"),
            "snapshot.num-retained.max", Map.of("snapshot.num-retained.min", "1"),
            "changelog.num-retained.max", Map.of("changelog.num-retained.min", "1"),
            "commit.max-retry-wait", Map.of("commit.min-retry-wait", "0 ms"));

    @Test
    void everyNumberSizeAndDurationOptionDeclaresARange() {
        for (ConfigOption<?> o : OptionRegistry.all().values()) {
            boolean ranged = RANGED_TYPES.contains(o.typeName())
                    || o.typeName().startsWith("memory size")
                    || o.typeName().startsWith("duration");
            assertThat(o.rangeText() != null)
                    .as(o.key() + " (" + o.typeName() + ") declares a range")
                    .isEqualTo(ranged);
        }
    }

    @Test
    void defaultsAreInRangeAndKeepTheRules() {
        assertThatCode(() -> TableOptions.validate("table db.t", Map.of())).doesNotThrowAnyException();
        for (ConfigOption<?> o : OptionRegistry.all().values()) {
            if (o.defaultValue() != null) {
                assertThatCode(() ->
                                TableOptions.validate("table db.t", Map.of(o.key(), formatted(o, o.defaultValue()))))
                        .as(o.key())
                        .doesNotThrowAnyException();
            }
        }
    }

    @Test
    void valuesAtTheBoundsAreAccepted() {
        for (ConfigOption<?> o : OptionRegistry.all().values()) {
            for (String v : atBounds(o)) {
                Map<String, String> m = new HashMap<>(COMPANIONS.getOrDefault(o.key(), Map.of()));
                m.put(o.key(), v);
                assertThatCode(() -> TableOptions.validate("table db.t", m))
                        .as(o.key() + "=" + v)
                        .doesNotThrowAnyException();
            }
        }
    }

    @Test
    void valuesJustOutsideTheRangeAreRefusedNamingOwnerOptionValueAndRange() {
        int checked = 0;
        for (ConfigOption<?> o : OptionRegistry.all().values()) {
            for (String v : justOutside(o)) {
                checked++;
                var thrown = assertThatThrownBy(() -> TableOptions.validate("table db.t", Map.of(o.key(), v)))
                        .as(o.key() + "=" + v)
                        .isInstanceOf(InvalidOptionException.class)
                        .hasMessageContaining("table db.t: option '" + o.key() + "'");
                if (v.startsWith("-") && o.typeName().startsWith("duration")) {
                    thrown.hasMessageContaining("'" + v + "'").hasMessageContaining("negative");
                } else {
                    thrown.hasMessage("table db.t: option '" + o.key() + "' = " + v + " is out of range: must be "
                            + o.rangeText());
                }
            }
        }
        assertThat(checked).isGreaterThan(40);
    }

    @Test
    void theIssuesExampleReadsAsDocumented() {
        assertThatThrownBy(() -> TableOptions.validate("table db.t", Map.of("num-sorted-run.compaction-trigger", "0")))
                .hasMessage("table db.t: option 'num-sorted-run.compaction-trigger' = 0 is out of range: "
                        + "must be between 1 and 1000");
        assertThatThrownBy(() -> TableOptions.validate("table db.t", Map.of("target-file-size", "0 mb")))
                .hasMessage("table db.t: option 'target-file-size' = 0 mb is out of range: must be > 0");
        assertThatThrownBy(() -> TableOptions.validate("table db.t", Map.of("compaction.small-file-ratio", "1.5")))
                .hasMessage("table db.t: option 'compaction.small-file-ratio' = 1.5 is out of range: "
                        + "must be between 0.0 and 1.0");
    }

    @Test
    void stopTriggerBelowCompactionTriggerIsRefusedNamingBoth() {
        assertThatThrownBy(() -> TableOptions.validate(
                        "table db.t",
                        Map.of("num-sorted-run.compaction-trigger", "6", "num-sorted-run.stop-trigger", "4")))
                .isInstanceOf(InvalidOptionException.class)
                .hasMessage("table db.t: option 'num-sorted-run.stop-trigger' = 4 must be >= option "
                        + "'num-sorted-run.compaction-trigger' = 6");
        assertThatThrownBy(() -> TableOptions.validate("table db.t", Map.of("num-sorted-run.stop-trigger", "4")))
                .hasMessage("table db.t: option 'num-sorted-run.stop-trigger' = 4 must be >= option "
                        + "'num-sorted-run.compaction-trigger' = 5 (its default)");
        // the derived stop-trigger follows the trigger
        assertThat(TableOptions.validate("t", Map.of("num-sorted-run.compaction-trigger", "9"))
                        .get(CompactionOptions.STOP_TRIGGER))
                .isEqualTo(12);
    }

    @Test
    void retentionMaxBelowMinIsRefused() {
        assertThatThrownBy(() -> TableOptions.validate("table db.t", Map.of("snapshot.num-retained.max", "3")))
                .hasMessage("table db.t: option 'snapshot.num-retained.max' = 3 must be >= option "
                        + "'snapshot.num-retained.min' = 10 (its default)");
        assertThatThrownBy(() -> TableOptions.validate(
                        "table db.t", Map.of("changelog.num-retained.min", "8", "changelog.num-retained.max", "7")))
                .hasMessage("table db.t: option 'changelog.num-retained.max' = 7 must be >= option "
                        + "'changelog.num-retained.min' = 8");
        // changelog.num-retained.min unset reads as snapshot.num-retained.min
        assertThatThrownBy(() -> TableOptions.validate("table db.t", Map.of("changelog.num-retained.max", "7")))
                .hasMessageContaining("option 'changelog.num-retained.max' = 7 must be >= option "
                        + "'snapshot.num-retained.min' = 10 (its default)");
        assertThatCode(() -> TableOptions.validate(
                        "t", Map.of("snapshot.num-retained.min", "2", "changelog.num-retained.max", "7")))
                .doesNotThrowAnyException();
    }

    @Test
    void retryWaitsAndCommitLocksAreChecked() {
        assertThatThrownBy(() -> TableOptions.validate(
                        "table db.t", Map.of("commit.min-retry-wait", "2 s", "commit.max-retry-wait", "1 s")))
                .hasMessage("table db.t: option 'commit.max-retry-wait' = 1 s must be >= option "
                        + "'commit.min-retry-wait' = 2 s");
        assertThatThrownBy(() -> TableOptions.validate(
                        "table db.t", Map.of("commit.lock.class", "a.B", "commit.lock.jdbc.url", "jdbc:h2:mem:x")))
                .hasMessageContaining(
                        "table db.t: options 'commit.lock.class' and 'commit.lock.jdbc.url' are both set");
    }

    @Test
    void runOptionsAreCheckedOnTopOfTheTables() {
        TableOptions table = TableOptions.validate(
                "table db.t", Map.of("snapshot.num-retained.min", "3", "num-sorted-run.compaction-trigger", "3"));
        // alone, max=5 would break the rule with the default min 10; on top of the table's min 3 it keeps it
        assertThat(table.withRunOptions("db.t", Map.of("snapshot.num-retained.max", "5"))
                        .get(ExpireOptions.NUM_RETAINED_MAX))
                .isEqualTo(5);
        assertThatThrownBy(() -> table.withRunOptions("db.t", Map.of("snapshot.num-retained.max", "2")))
                .hasMessage("table db.t: option 'snapshot.num-retained.max' = 2 must be >= option "
                        + "'snapshot.num-retained.min' = 3");
        assertThatThrownBy(() -> table.withRunOptions("db.t", Map.of("num-sorted-run.stop-trigger", "2")))
                .hasMessage("table db.t: option 'num-sorted-run.stop-trigger' = 2 must be >= option "
                        + "'num-sorted-run.compaction-trigger' = 3");
        assertThatThrownBy(() -> table.withRunOptions("db.t", Map.of("write-buffer-size", "0")))
                .hasMessage("table db.t: option 'write-buffer-size' = 0 is out of range: must be > 0");
    }

    // ---- values at and just outside a range, as text ------------------------------------------

    private static List<String> atBounds(ConfigOption<?> o) {
        List<String> out = new ArrayList<>();
        if (o.rangeText() == null) {
            return out;
        }
        if (!o.minExclusive()) {
            out.add(formatted(o, o.min()));
        }
        if (o.max() != null) {
            out.add(formatted(o, o.max()));
        }
        return out;
    }

    private static List<String> justOutside(ConfigOption<?> o) {
        List<String> out = new ArrayList<>();
        if (o.rangeText() == null) {
            return out;
        }
        out.add(o.minExclusive() ? formatted(o, o.min()) : beside(o.min(), -1));
        if (o.max() != null) {
            out.add(beside(o.max(), +1));
        }
        return out;
    }

    /** The text of the value next to {@code bound} in direction {@code step}, in the option's unit. */
    private static String beside(Object bound, int step) {
        if (bound instanceof Integer i) {
            return String.valueOf(i + step);
        }
        if (bound instanceof Long l) {
            return String.valueOf(l + step);
        }
        if (bound instanceof Double d) {
            return String.valueOf(d + step * 0.001);
        }
        Duration d = (Duration) bound;
        return d.plusMillis(step).toMillis() + " ms";
    }

    @SuppressWarnings("unchecked")
    private static <T> String formatted(ConfigOption<T> o, Object value) {
        return o.format((T) value);
    }
}
