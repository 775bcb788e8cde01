package io.strata.storage.options;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The validated options of one table: every key is known and every value parses. Absent keys
 * read as their declared default.
 */
public final class TableOptions {
    private final Map<String, String> raw;

    private TableOptions(Map<String, String> raw) {
        this.raw = raw;
    }

    /**
     * Validates {@code options}; {@code owner} (a table name or "schema file x") prefixes every
     * error message so the user knows which object is wrong.
     */
    public static TableOptions validate(String owner, Map<String, String> options) {
        Map<String, String> copy = new TreeMap<>(options);
        for (Map.Entry<String, String> e : copy.entrySet()) {
            if (!OptionRegistry.isKnown(e.getKey())) {
                throw new IllegalArgumentException(owner + ": unknown option '" + e.getKey() + "'. Known options: "
                        + OptionRegistry.knownKeysText());
            }
            ConfigOption<?> o = OptionRegistry.all().get(e.getKey());
            if (e.getValue() == null) {
                throw new IllegalArgumentException(owner + ": option '" + e.getKey() + "' has no value");
            }
            if (o != null) {
                try {
                    o.parse(e.getValue());
                } catch (IllegalArgumentException ex) {
                    throw new IllegalArgumentException(owner + ": " + ex.getMessage(), ex);
                }
            }
        }
        return new TableOptions(Collections.unmodifiableMap(copy));
    }

    public static TableOptions empty() {
        return new TableOptions(Collections.emptyMap());
    }

    public <T> T get(ConfigOption<T> option) {
        String v = raw.get(option.key());
        return v == null ? option.defaultValue() : option.parse(v);
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

    /** These options with {@code overrides} applied on top, validated again. */
    public TableOptions with(String owner, Map<String, String> overrides) {
        Map<String, String> m = new TreeMap<>(raw);
        m.putAll(overrides);
        return validate(owner, m);
    }

    @Override
    public String toString() {
        return raw.toString();
    }
}
