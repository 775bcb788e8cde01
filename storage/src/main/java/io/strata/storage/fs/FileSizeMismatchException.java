package io.strata.storage.fs;

import java.io.IOException;

/**
 * A file opened with a known length ({@link FileIO#inputFile(org.apache.hadoop.fs.Path, long)})
 * has another one: it was truncated, appended to or replaced since its length was recorded. It is
 * not read.
 */
public final class FileSizeMismatchException extends IOException {
    private final long expected;
    private final long actual;

    public FileSizeMismatchException(String file, long expected, long actual) {
        super(file + " has " + actual + " bytes, " + expected + " were recorded for it");
        this.expected = expected;
        this.actual = actual;
    }

    public long expected() {
        return expected;
    }

    public long actual() {
        return actual;
    }
}
