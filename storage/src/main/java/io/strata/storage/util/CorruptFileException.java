package io.strata.storage.util;

import org.apache.hadoop.fs.Path;

/**
 * A table file (snapshot, manifest, schema, data file) exists but cannot be read as what it
 * should be. The message names the file. Nothing is repaired or deleted automatically.
 */
public class CorruptFileException extends RuntimeException {
    private final String file;
    private final String reason;

    public CorruptFileException(Path file, String reason) {
        this(file, reason, null);
    }

    public CorruptFileException(Path file, String reason, Throwable cause) {
        super("corrupt or unreadable file " + file + ": " + reason, cause);
        this.file = file.toString();
        this.reason = reason;
    }

    /** What is wrong with {@link #file()}: the message without the file. */
    public String reason() {
        return reason;
    }

    public String file() {
        return file;
    }
}
