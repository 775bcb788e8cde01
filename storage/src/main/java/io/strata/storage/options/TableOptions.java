package io.strata.storage.options;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The validated options of one table: every key is known, every value parses and is in its
 * declared range, and the rules between options hold. Absent keys read as their declared or
 * derived default.
 */
public final class TableOptions {
    private final Map<String, String> raw;

    private TableOptions(Map<String, String> raw) {
        this.raw = raw;
    }

    /**
     * Validates {@code options} as the whole option set of a table (or of a table with a run's
     * options on top): every key is known, every value parses and is in its declared range (a
     * derived default too), and the set keeps the rules between options ({@link OptionRules}).
     * {@code owner} (a table name or "schema file x") prefixes every error message so the user
     * knows which object is wrong.
     *
     * @throws InvalidOptionException naming the owner, the option, the value and what is allowed
     */
    public static TableOptions validate(String owner, Map<String, String> options) {
        Map<String, String> copy = checkEach(owner, options);
        TableOptions result = new TableOptions(Collections.unmodifiableMap(copy));
        try {
            for (ConfigOption<?> o : OptionRegistry.all().values()) {
                if (!copy.containsKey(o.key())) {
                    checkDefault(o, result);
                }
            }
            OptionRules.check(result);
        } catch (InvalidOptionException e) {
            throw new InvalidOptionException(owner + ": " + e.getMessage(), e);
        }
        return result;
    }

    /** Known keys, values that parse and are in range; not the defaults, not the rules between options. */
    private static Map<String, String> checkEach(String owner, Map<String, String> options) {
        Map<String, String> copy = new TreeMap<>(options);
        for (Map.Entry<String, String> e : copy.entrySet()) {
            if (!OptionRegistry.isKnown(e.getKey())) {
                throw new InvalidOptionException(owner + ": unknown option '" + e.getKey() + "'. Known options: "
                        + OptionRegistry.knownKeysText());
            }
            ConfigOption<?> o = OptionRegistry.all().get(e.getKey());
            if (e.getValue() == null) {
                throw new InvalidOptionException(owner + ": option '" + e.getKey() + "' has no value");
            }
            if (o != null) {
                try {
                    checkValue(o, e.getValue());
                } catch (IllegalArgumentException ex) {
                    throw new InvalidOptionException(owner + ": " + ex.getMessage(), ex);
                }
            }
        }
        return copy;
    }

    private static <T> void checkValue(ConfigOption<T> option, String raw) {
        option.checkRange(option.parse(raw), raw.trim());
    }

    /** A derived default can leave the range when what it derives from is large; say so. */
    private static <T> void checkDefault(ConfigOption<T> option, TableOptions options) {
        T value = option.defaultFor(options);
        option.checkRange(value, option.format(value) + " (its default, " + option.defaultText() + ")");
    }

    public static TableOptions empty() {
        return new TableOptions(Collections.emptyMap());
    }

    /** The value of {@code option}: as set, else its derived or declared default. */
    public <T> T get(ConfigOption<T> option) {
        String v = raw.get(option.key());
        return v == null ? option.defaultFor(this) : option.parse(v);
    }

    public String getRaw(String key) {
        return raw.get(key);
    }

    public boolean contains(ConfigOption<?> option) {
        return raw.containsKey(option.key());
    }

    public Map<String, String> toMap() {
        return raw;
    }

    /**
     * These options (a table's) with the options of one run on top, validated again. An option
     * that defines the table ({@link ConfigOption.Scope#TABLE}) may appear in {@code overrides}
     * only with the table's value, compared as parsed values (so {@code 4} and {@code " 4"} are
     * the same); any other value is refused, naming the option, {@code table} and the table's
     * value. A table-defining option the table leaves to a derived default keeps the table's
     * value when the run changes what it derives from.
     *
     * @param table the table's name, for error messages
     * @throws IllegalArgumentException for an unknown option, a value that does not parse, or a
     *         table-defining option set to another value than the table's
     */
    public TableOptions withRunOptions(String table, Map<String, String> overrides) {
        String owner = "table " + table;
        checkEach(owner, overrides);
        for (Map.Entry<String, String> e : overrides.entrySet()) {
            checkRunMayChange(table, e.getKey(), e.getValue());
        }
        Map<String, String> m = new TreeMap<>(raw);
        m.putAll(overrides);
        TableOptions merged = validate(owner, m);
        for (ConfigOption<?> o : OptionRegistry.all().values()) {
            if (o.scope() == ConfigOption.Scope.TABLE && !m.containsKey(o.key()) && !sameValue(o, merged)) {
                m.put(o.key(), formatted(o, this));
            }
        }
        return validate(owner, m);
    }

    private void checkRunMayChange(String table, String key, String value) {
        ConfigOption<?> o = OptionRegistry.all().get(key);
        if (o != null) {
            if (o.scope() == ConfigOption.Scope.TABLE && !isValueOf(o, value)) {
                throw refused(table, key, formatted(o, this), value);
            }
            return;
        }
        PatternOption p = OptionRegistry.patternOf(key).orElseThrow();
        if (p.scope() == ConfigOption.Scope.TABLE && !p.effective(raw.get(key)).equals(p.effective(value))) {
            throw refused(table, key, p.effective(raw.get(key)), value);
        }
    }

    private static InvalidOptionException refused(String table, String key, String tableValue, String value) {
        return new InvalidOptionException("table " + table + ": option '" + key + "' defines the table and cannot be "
                + "changed for one run: the table has " + key + "=" + tableValue + ", this run asked for '" + value
                + "' (set it when the table is created; docs/OPTIONS.md says which options a run may set)");
    }

    /** Whether {@code other} gives {@code option} the same value as these options. */
    private <T> boolean sameValue(ConfigOption<T> option, TableOptions other) {
        return Objects.equals(get(option), other.get(option));
    }

    /** Whether {@code value} (valid for {@code option}) is these options' value of it. */
    private <T> boolean isValueOf(ConfigOption<T> option, String value) {
        return Objects.equals(get(option), option.parse(value));
    }

    private static <T> String formatted(ConfigOption<T> option, TableOptions options) {
        return option.format(options.get(option));
    }

    @Override
    public String toString() {
        return raw.toString();
    }
}
