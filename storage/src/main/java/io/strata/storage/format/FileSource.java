package io.strata.storage.format;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How a data file came to be. Persisted by ordinal in manifests: append only, never reorder. */
public enum FileSource {
    /** Flushed by a writer from its write buffer. */
    APPEND,
    /** Written by a compaction. */
    COMPACT;

    /**
     * The source persisted as {@code ordinal}.
     *
     * @throws IllegalArgumentException naming the value and the known ones (a newer Strata may
     *         have written a source this build does not know)
     */
    public static FileSource fromOrdinal(int ordinal) {
        FileSource[] all = values();
        if (ordinal < 0 || ordinal >= all.length) {
            throw new IllegalArgumentException("unknown file source " + ordinal + " (known: "
                    + Arrays.stream(all)
                            .map(f -> f.ordinal() + " = " + f.name().toLowerCase(Locale.ROOT))
                            .collect(Collectors.joining(", "))
                    + "; written by a newer Strata?)");
        }
        return all[ordinal];
    }
}
