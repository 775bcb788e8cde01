package io.strata.scheduler.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.lang.reflect.RecordComponent;

/**
 * One section of the config as a table sees it: the table's override over the defaults, key by key.
 * Each value remembers the path of the key it came from, so a bad value is reported where it is
 * written.
 */
final class Layered<R extends Record> {
    private final R over;
    private final String overPath;
    private final R base;
    private final String basePath;

    Layered(R over, String overPath, R base, String basePath) {
        this.over = over;
        this.overPath = overPath;
        this.base = base;
        this.basePath = basePath;
    }

    boolean present() {
        return over != null || base != null;
    }

    /** The value of YAML key {@code key}: the override's if it sets it, else the defaults', else null. */
    @SuppressWarnings("unchecked")
    <T> T get(String key) {
        Object v = valueIn(over, key);
        return (T) (v != null ? v : valueIn(base, key));
    }

    /** The path of {@code key} where its value is written (the section's own path when it is absent). */
    String path(String key) {
        if (valueIn(over, key) != null) {
            return overPath + "." + key;
        }
        if (valueIn(base, key) != null) {
            return basePath + "." + key;
        }
        return over != null ? overPath : basePath;
    }

    private static Object valueIn(Record r, String key) {
        if (r == null) {
            return null;
        }
        for (RecordComponent c : r.getClass().getRecordComponents()) {
            JsonProperty p = c.getAccessor().getAnnotation(JsonProperty.class);
            if (p != null && p.value().equals(key)) {
                try {
                    return c.getAccessor().invoke(r);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("cannot read " + key + " of " + r, e);
                }
            }
        }
        throw new IllegalArgumentException(
                "no key " + key + " in " + r.getClass().getSimpleName());
    }
}
