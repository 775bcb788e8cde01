package io.strata.scheduler.config;

/**
 * A scheduler configuration that cannot be used. The message names the file, the line and column
 * (1-based) and the key, as {@code scheduler.yaml:12:7: defaults.expiration.cron: <reason>}; the
 * service does not start with it.
 */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String key;
    private final int line;
    private final int column;

    ConfigException(String file, String key, int line, int column, String reason, Throwable cause) {
        super(file + ":" + line + ":" + column + ": " + key + ": " + reason, cause);
        this.key = key;
        this.line = line;
        this.column = column;
    }

    /** The dotted path of the key, e.g. {@code defaults.full-compaction.window}. */
    public String key() {
        return key;
    }

    public int line() {
        return line;
    }

    public int column() {
        return column;
    }
}
