package io.strata.storage.options;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every table option Strata knows, collected from the option group classes. Unknown keys are
 * rejected with the list of known ones; docs/OPTIONS.md is generated from here
 * ({@link OptionsDocGenerator}) and a test keeps it complete.
 */
public final class OptionRegistry {

    /** The option groups, in documentation order. */
    public static final List<Class<?>> GROUPS = List.of(
            BucketOptions.class,
            WriteOptions.class,
            FileOptions.class,
            MergeOptions.class,
            CompactionOptions.class,
            ChangelogOptions.class,
            CommitOptions.class,
            ManifestOptions.class,
            ExpireOptions.class,
            TagOptions.class);

    /** The pattern options, in documentation order. */
    public static final List<PatternOption> PATTERNS = List.of(
            MergeOptions.AGGREGATE_FUNCTION,
            MergeOptions.IGNORE_RETRACT,
            MergeOptions.SEQUENCE_GROUP,
            MergeOptions.DISTINCT);

    private static final Map<String, ConfigOption<?>> BY_KEY = collect();

    private OptionRegistry() {}

    private static Map<String, ConfigOption<?>> collect() {
        Map<String, ConfigOption<?>> map = new LinkedHashMap<>();
        for (Class<?> group : GROUPS) {
            for (ConfigOption<?> o : optionsOf(group)) {
                if (map.put(o.key(), o) != null) {
                    throw new IllegalStateException("option " + o.key() + " declared twice");
                }
            }
        }
        return Collections.unmodifiableMap(map);
    }

    /** The options a group class declares, in declaration order. */
    public static List<ConfigOption<?>> optionsOf(Class<?> group) {
        List<ConfigOption<?>> out = new ArrayList<>();
        for (Field f : group.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) && ConfigOption.class.isAssignableFrom(f.getType())) {
                try {
                    out.add((ConfigOption<?>) f.get(null));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return out;
    }

    public static Map<String, ConfigOption<?>> all() {
        return BY_KEY;
    }

    /** The pattern option {@code key} belongs to, if any. */
    public static Optional<PatternOption> patternOf(String key) {
        for (PatternOption p : PATTERNS) {
            if (p.matches(key)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** True if {@code key} is a declared option or matches a pattern option. */
    public static boolean isKnown(String key) {
        return BY_KEY.containsKey(key) || patternOf(key).isPresent();
    }

    /** The sorted list of known keys and pattern forms, for error messages. */
    public static String knownKeysText() {
        List<String> keys = new ArrayList<>(BY_KEY.keySet());
        for (PatternOption p : PATTERNS) {
            keys.add(p.form());
        }
        Collections.sort(keys);
        return String.join(", ", keys);
    }
}
