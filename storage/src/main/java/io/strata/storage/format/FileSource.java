package io.strata.storage.format;

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
            StringBuilder known = new StringBuilder();
            for (FileSource s : all) {
                known.append(known.length() == 0 ? "" : ", ").append(s.ordinal()).append(" = ")
                        .append(s.name().toLowerCase(java.util.Locale.ROOT));
            }
            throw new IllegalArgumentException("unknown file source " + ordinal + " (known: " + known
                    + "; written by a newer Strata?)");
        }
        return all[ordinal];
    }
}
