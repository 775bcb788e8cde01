package io.strata.storage.options;

import java.util.Locale;
import java.util.function.Function;

/**
 * A typed table option: key, default and description, declared once in an option group class
 * ({@link WriteOptions}, {@link MergeOptions}, ...). {@link OptionRegistry} collects the groups;
 * docs/OPTIONS.md is generated from them.
 */
public final class ConfigOption<T> {
    private final String key;
    private final T defaultValue;
    private final String description;
    private final String typeName;
    private final Function<String, T> parser;
    private final Function<T, String> formatter;

    private ConfigOption(String key, T defaultValue, String description, String typeName,
                         Function<String, T> parser, Function<T, String> formatter) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.description = description;
        this.typeName = typeName;
        this.parser = parser;
        this.formatter = formatter;
    }

    public String key() { return key; }
    public T defaultValue() { return defaultValue; }
    public String description() { return description; }
    public String typeName() { return typeName; }

    /** Parses a raw value; the exception message names the option and the accepted form. */
    public T parse(String raw) {
        try {
            return parser.apply(raw.trim());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("option '" + key + "' has invalid value '" + raw
                    + "': expected " + typeName + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"), e);
        }
    }

    public String defaultText() {
        return defaultValue == null ? "(none)" : formatter.apply(defaultValue);
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
            return new Typed<>(key, "boolean", s -> {
                if (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false")) {
                    return Boolean.parseBoolean(s);
                }
                throw new IllegalArgumentException("not true or false");
            }, String::valueOf);
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

        /** A duration in milliseconds written as {@code 10 ms}, {@code 2 s}, {@code 1 min}. */
        public Typed<Long> durationType() {
            return new Typed<>(key, "duration (e.g. 10 s)", DurationParser::parseMillis, ms -> ms + " ms");
        }

        public <E extends Enum<E>> Typed<E> enumType(Class<E> cls) {
            StringBuilder names = new StringBuilder();
            for (E e : cls.getEnumConstants()) {
                names.append(names.length() == 0 ? "" : ", ").append(enumText(e));
            }
            return new Typed<>(key, "one of " + names, s -> Enum.valueOf(cls, s.toUpperCase(Locale.ROOT).replace('-', '_')), ConfigOption::enumText);
        }
    }

    /** A declaration with its type, waiting for a default and description. */
    public static final class Typed<T> {
        private final String key;
        private final String typeName;
        private final Function<String, T> parser;
        private final Function<T, String> formatter;
        private T defaultValue;

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

        public ConfigOption<T> withDescription(String description) {
            return new ConfigOption<>(key, defaultValue, description, typeName, parser, formatter);
        }
    }
}
