package io.strata.storage.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Duration options and options whose default is derived from another option. */
class DurationOptionsTest {

    @Test
    void durationsAcceptUnitsWithAndWithoutSpace() {
        Map<String, Duration> forms = Map.ofEntries(
                Map.entry("30 s", Duration.ofSeconds(30)),
                Map.entry("30s", Duration.ofSeconds(30)),
                Map.entry("30 sec", Duration.ofSeconds(30)),
                Map.entry("5m", Duration.ofMinutes(5)),
                Map.entry("5 min", Duration.ofMinutes(5)),
                Map.entry("5MIN", Duration.ofMinutes(5)),
                Map.entry("1 h", Duration.ofHours(1)),
                Map.entry("1h", Duration.ofHours(1)),
                Map.entry("7d", Duration.ofDays(7)),
                Map.entry("500 ms", Duration.ofMillis(500)),
                Map.entry("500ms", Duration.ofMillis(500)),
                Map.entry(" 250 ", Duration.ofMillis(250)),
                Map.entry("0 s", Duration.ZERO));
        forms.forEach((text, expected) ->
                assertThat(DurationParser.parse(text)).as(text).isEqualTo(expected));
    }

    @Test
    void durationOptionsAreTypedAsDurations() {
        TableOptions o = TableOptions.validate("t", Map.of("commit.max-retry-wait", "5m", "commit.lock.lease", "1h"));
        Duration maxWait = o.get(CommitOptions.MAX_RETRY_WAIT);
        assertThat(maxWait).isEqualTo(Duration.ofMinutes(5));
        assertThat(o.get(CommitOptions.LOCK_LEASE)).isEqualTo(Duration.ofHours(1));
        assertThat(o.get(CommitOptions.MIN_RETRY_WAIT)).isEqualTo(Duration.ofMillis(10));
        assertThat(o.get(CommitOptions.LOCK_ACQUIRE_TIMEOUT)).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void negativeDurationIsRejectedNamingTheOptionAndTheValue() {
        assertThatThrownBy(() -> TableOptions.validate("table db.t", Map.of("commit.min-retry-wait", "-5 s")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("table db.t")
                .hasMessageContaining("commit.min-retry-wait")
                .hasMessageContaining("'-5 s'")
                .hasMessageContaining("negative");
        assertThatThrownBy(() -> CommitOptions.LOCK_LEASE.parse("-1"))
                .hasMessageContaining("commit.lock.lease")
                .hasMessageContaining("'-1'")
                .hasMessageContaining("negative");
    }

    @Test
    void nonDurationsAreRejectedNamingTheOptionAndTheValue() {
        for (String bad :
                new String[] {"5 weeks", "s", "", "1.5 s", "5 m s", "99999999999999999999 ms", "999999999999999 d"}) {
            assertThatThrownBy(() -> CommitOptions.MAX_RETRY_WAIT.parse(bad))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("commit.max-retry-wait")
                    .hasMessageContaining("'" + bad + "'");
        }
    }

    @Test
    void durationsFormatInTheLargestExactUnitAndParseBack() {
        assertThat(DurationParser.format(Duration.ofMillis(10))).isEqualTo("10 ms");
        assertThat(DurationParser.format(Duration.ofSeconds(10))).isEqualTo("10 s");
        assertThat(DurationParser.format(Duration.ofSeconds(90))).isEqualTo("90 s");
        assertThat(DurationParser.format(Duration.ofMinutes(5))).isEqualTo("5 min");
        assertThat(DurationParser.format(Duration.ofHours(48))).isEqualTo("2 d");
        assertThat(DurationParser.format(Duration.ZERO)).isEqualTo("0 ms");
        for (Duration d : new Duration[] {Duration.ofMillis(1234), Duration.ofMinutes(61), Duration.ofDays(3)}) {
            assertThat(DurationParser.parse(DurationParser.format(d))).isEqualTo(d);
        }
    }

    @Test
    void derivedDefaultsFollowTheOptionTheyDeriveFrom() {
        TableOptions defaults = TableOptions.empty();
        assertThat(defaults.get(CompactionOptions.NUM_LEVELS)).isEqualTo(6);
        assertThat(defaults.get(CompactionOptions.STOP_TRIGGER)).isEqualTo(8);
        assertThat(defaults.get(CompactionOptions.LOOKUP_COMPACT_MAX_INTERVAL)).isEqualTo(10);
        TableOptions trigger3 = TableOptions.validate("t", Map.of("num-sorted-run.compaction-trigger", "3"));
        assertThat(trigger3.get(CompactionOptions.NUM_LEVELS)).isEqualTo(4);
        assertThat(trigger3.get(CompactionOptions.STOP_TRIGGER)).isEqualTo(6);
        assertThat(trigger3.get(CompactionOptions.LOOKUP_COMPACT_MAX_INTERVAL)).isEqualTo(6);
        TableOptions set = TableOptions.validate(
                "t", Map.of("num-sorted-run.compaction-trigger", "3", "num-sorted-run.stop-trigger", "20"));
        assertThat(set.get(CompactionOptions.STOP_TRIGGER)).isEqualTo(20);
    }

    @Test
    void docsStateDerivedDefaultsInTheDefaultColumn() {
        String doc = OptionsDocGenerator.generate();
        assertThat(row(doc, "num-levels")).contains("| `num-sorted-run.compaction-trigger + 1` |");
        assertThat(row(doc, "num-sorted-run.stop-trigger")).contains("| `num-sorted-run.compaction-trigger + 3` |");
        assertThat(row(doc, "lookup-compact.max-interval")).contains("| `num-sorted-run.compaction-trigger * 2` |");
        assertThat(row(doc, "commit.max-retry-wait")).contains("| `10 s` |");
    }

    /**
     * A default computed from another option is declared with the option, so the docs' default
     * column states it; a description that names another option's key as the default of an
     * option declared without one means the declaration lost it.
     */
    @Test
    void noOptionHidesADerivedDefaultInItsDescription() {
        for (ConfigOption<?> o : OptionRegistry.all().values()) {
            assertThat(o.defaultText()).as(o.key()).isNotNull();
            if (!o.defaultText().equals("(none)")) {
                continue;
            }
            int at = o.description().indexOf("Default:");
            if (at < 0) {
                continue;
            }
            int end = o.description().indexOf(". ", at);
            String stated =
                    o.description().substring(at, end < 0 ? o.description().length() : end);
            for (String other : OptionRegistry.all().keySet()) {
                Pattern key = Pattern.compile("(?<![\\w.-])" + Pattern.quote(other) + "(?![\\w-]|\\.\\w)");
                assertThat(key.matcher(stated).find())
                        .as(o.key() + " states a default derived from " + other + " in its description: " + stated)
                        .isFalse();
            }
        }
    }

    private static String row(String doc, String key) {
        for (String line : doc.split("\n")) {
            if (line.startsWith("| `" + key + "` |")) {
                return line;
            }
        }
        throw new AssertionError("no row for " + key);
    }
}
