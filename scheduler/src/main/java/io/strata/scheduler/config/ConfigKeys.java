package io.strata.scheduler.config;

import com.fasterxml.jackson.core.JsonLocation;

/** Where the keys of one loaded config file are: errors found after loading still name a line. */
public final class ConfigKeys {
    private final String file;
    private final KeyLocations locations;

    ConfigKeys(String file, KeyLocations locations) {
        this.file = file;
        this.locations = locations;
    }

    /** An error at {@code key}, or at its nearest enclosing key written in the file. */
    public ConfigException error(String key, String reason) {
        JsonLocation l = locations.of(key);
        return new ConfigException(file, key, l.getLineNr(), l.getColumnNr(), reason, null);
    }

    @Override
    public String toString() {
        return "ConfigKeys[" + file + "]";
    }
}
