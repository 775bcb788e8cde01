package io.strata.storage.options;

import java.time.Duration;
import java.util.Locale;
import java.util.function.Function;

/**
 * A typed table option: key, default, {@link Scope} and description, declared once in an option
 * group class ({@link WriteOptions}, {@link MergeOptions}, ...). {@link OptionRegistry} collects
 * the groups; docs/OPTIONS.md is generated from them. A numeric, size or duration option declares
 * its allowed range ({@link Typed#atLeast}, {@link Typed#between}, {@link Typed#positive});
 * {@link TableOptions#validate} checks every value against it, and {@link OptionRules} checks the
 * rules between options.
 */
public final class ConfigOption<T> {

    /**
     * Whether a run (a writer, a job, a handle from {@code FileStoreTable.copyWithOptions}) may
     * set the option to another value than the table's. Every declaration states it.
     */
    public enum Scope {
        /**
         * Defines the table's commit protocol or what its files mean: fixed when the table is
         * created. A run that sets it to another value than the table's is refused, because
         * writers that disagree on it lose or misread data (two commit locks do not exclude each
         * other; rows of one key land in two buckets; versions merge by another rule).
         */
        TABLE,
        /** Tunes one run only (memory, local disk, file sizes, compaction triggers, retries). */
        RUN
    }

    private final String key;
    private final T defaultValue;
    private final Function<TableOptions, T> derivedDefault;
    private final String derivedDefaultText;
    private final Scope scope;
    private final String description;
    private final String typeName;
    private final Function<String, T> parser;
    private final Function<T, String> formatter;
    private final T min;
    private final boolean minExclusive;
    private final T max;
    private final String rangeText;

    private ConfigOption(Typed<T> typed, Scope scope, String description) {
        this.key = typed.key;
        this.defaultValue = typed.defaultValue;
        this.derivedDefault = typed.derivedDefault;
        this.derivedDefaultText = typed.derivedDefaultText;
        this.scope = scope;
        this.description = description;
        this.typeName = typed.typeName;
        this.parser = typed.parser;
        this.formatter = typed.formatter;
        this.min = typed.min;
        this.minExclusive = typed.minExclusive;
        this.max = typed.max;
        this.rangeText = typed.rangeText;
    }

    public String key() {
        return key;
    }

    public T defaultValue() {
        return defaultValue;
    }

    public Scope scope() {
        return scope;
    }

    public String description() {
        return description;
    }

    public String typeName() {
        return typeName;
    }

    /** The value of this option when {@code options} does not set it: the derived or the declared default. */
    T defaultFor(TableOptions options) {
        return derivedDefault != null ? derivedDefault.apply(options) : defaultValue;
    }

    /** The text form of {@code value} (the form docs and error messages show). */
    public String format(T value) {
        return value == null ? "(none)" : formatter.apply(value);
    }

    /** Parses a raw value; the exception message names the option and the accepted form. */
    public T parse(String raw) {
        try {
            return parser.apply(raw.trim());
        } catch (RuntimeException e) {
            throw new InvalidOptionException(
                    "option '" + key + "' has invalid value '" + raw + "': expected " + typeName
                            + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"),
                    e);
        }
    }

    /**
     * The allowed values as the docs and error messages state them (e.g. {@code >= 1},
     * {@code between 0 and 1}), or {@code null} when every value of the type is allowed.
     */
    public String rangeText() {
        return rangeText;
    }

    /**
     * Checks {@code value} (a value of this option, as set or as its default derives) against
     * the declared range.
     *
     * @param shown the value as the message should show it: the text the user gave, or how a
     *        derived default came about
     * @throws InvalidOptionException naming the option, the value and the allowed range
     */
    void checkRange(T value, String shown) {
        if (value != null && rangeText != null && !inRange(value)) {
            throw new InvalidOptionException(
                    "option '" + key + "' = " + shown + " is out of range: must be " + rangeText);
        }
    }

    private boolean inRange(T value) {
        int low = compare(value, min);
        return (minExclusive ? low > 0 : low >= 0) && (max == null || compare(value, max) <= 0);
    }

    /** The lowest value allowed, or the highest refused if {@link #minExclusive()}; null: no range. */
    T min() {
        return min;
    }

    boolean minExclusive() {
        return minExclusive;
    }

    /** The highest value allowed, or null for none. */
    T max() {
        return max;
    }

    /** Numbers, sizes and durations, the only ranged types, are {@link Comparable}. */
    @SuppressWarnings("unchecked")
    private static <T> int compare(T value, T bound) {
        return ((Comparable<T>) value).compareTo(bound);
    }

    /** The default as the docs state it: the declared value, or how a derived default is computed. */
    public String defaultText() {
        return derivedDefault != null ? derivedDefaultText : format(defaultValue);
    }

    static String enumText(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    // ---- builders ------------------------------------------------------------------------

    public static Builder key(String key) {
        return new Builder(key);
    }

    /** Starts an option declaration. */
    public static final class Builder {
        private final String key;

        Builder(String key) {
            this.key = key;
        }

        public Typed<Integer> intType() {
            return new Typed<>(key, "integer", Integer::parseInt, String::valueOf);
        }

        public Typed<Long> longType() {
            return new Typed<>(key, "long", Long::parseLong, String::valueOf);
        }

        public Typed<Boolean> booleanType() {
            return new Typed<>(
                    key,
                    "boolean",
                    s -> {
                        if (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false")) {
                            return Boolean.parseBoolean(s);
                        }
                        throw new IllegalArgumentException("not true or false");
                    },
                    String::valueOf);
        }

        public Typed<Double> doubleType() {
            return new Typed<>(key, "double", Double::parseDouble, String::valueOf);
        }

        public Typed<String> stringType() {
            return new Typed<>(key, "string", s -> s, s -> s);
        }

        /** A byte size such as {@code 128 mb}, {@code 64kb} or {@code 1048576}. */
        public Typed<Long> memoryType() {
            return new Typed<>(key, "memory size (e.g. 128 mb)", MemorySize::parse, MemorySize::format);
        }

        /** A non-negative duration written as {@code 500 ms}, {@code 30s}, {@code 5m}, {@code 1 h}, {@code 7d}. */
        public Typed<Duration> durationType() {
            return new Typed<>(
                    key,
                    "duration (e.g. 500 ms, 30 s, 5 min, 1 h, 7 d)",
                    DurationParser::parse,
                    DurationParser::format);
        }

        public <E extends Enum<E>> Typed<E> enumType(Class<E> cls) {
            StringBuilder names = new StringBuilder();
            for (E e : cls.getEnumConstants()) {
                names.append(names.length() == 0 ? "" : ", ").append(enumText(e));
            }
            return new Typed<>(
                    key,
                    "one of " + names,
                    s -> {
                        for (E e : cls.getEnumConstants()) {
                            if (enumText(e).equalsIgnoreCase(s) || e.name().equalsIgnoreCase(s)) {
                                return e;
                            }
                        }
                        throw new IllegalArgumentException(
                                "unknown value"); // parse names the option, the value and the known ones
                    },
                    ConfigOption::enumText);
        }
    }

    /** A declaration with its type, waiting for a default, a scope and a description. */
    public static final class Typed<T> {
        private final String key;
        private final String typeName;
        private final Function<String, T> parser;
        private final Function<T, String> formatter;
        private T defaultValue;
        private Function<TableOptions, T> derivedDefault;
        private String derivedDefaultText;
        private T min;
        private boolean minExclusive;
        private T max;
        private String rangeText;

        Typed(String key, String typeName, Function<String, T> parser, Function<T, String> formatter) {
            this.key = key;
            this.typeName = typeName;
            this.parser = parser;
            this.formatter = formatter;
        }

        public Typed<T> defaultValue(T value) {
            this.defaultValue = value;
            return this;
        }

        public Typed<T> noDefault() {
            this.defaultValue = null;
            return this;
        }

        /**
         * No declared default: an unset option reads as {@code derived} of the other options
         * (for example num-levels from num-sorted-run.compaction-trigger). A table-defining option
         * with a derived default keeps the table's value in a run that changes what it derives
         * from ({@link TableOptions#withRunOptions}).
         *
         * @param text how the default is computed, in the option keys' terms, for the docs'
         *        default column (e.g. {@code num-sorted-run.compaction-trigger + 1})
         */
        public Typed<T> derivedDefault(String text, Function<TableOptions, T> derived) {
            this.defaultValue = null;
            this.derivedDefault = derived;
            this.derivedDefaultText = text;
            return this;
        }

        /** Values below {@code min} are refused (sizes and durations compare as bytes and time). */
        public Typed<T> atLeast(T min) {
            return range(min, false, null, ">= " + formatter.apply(min));
        }

        /** Values outside {@code [min, max]} are refused. */
        public Typed<T> between(T min, T max) {
            return range(min, false, max, "between " + formatter.apply(min) + " and " + formatter.apply(max));
        }

        /** Zero and negative values are refused: a size of 0 bytes, a duration of 0, a count of 0. */
        public Typed<T> positive() {
            return range(parser.apply("0"), true, null, "> 0");
        }

        private Typed<T> range(T min, boolean minExclusive, T max, String text) {
            this.min = min;
            this.minExclusive = minExclusive;
            this.max = max;
            this.rangeText = text;
            return this;
        }

        /** The option defines the table ({@link Scope#TABLE}). */
        public Described<T> definesTable() {
            return new Described<>(this, Scope.TABLE);
        }

        /** A run may set the option to its own value ({@link Scope#RUN}). */
        public Described<T> perRun() {
            return new Described<>(this, Scope.RUN);
        }
    }

    /** A declaration with its type, default and scope, waiting for its description. */
    public static final class Described<T> {
        private final Typed<T> typed;
        private final Scope scope;

        Described(Typed<T> typed, Scope scope) {
            this.typed = typed;
            this.scope = scope;
        }

        public ConfigOption<T> withDescription(String description) {
            return new ConfigOption<>(typed, scope, description);
        }
    }
}
