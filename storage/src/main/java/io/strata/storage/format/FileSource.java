package io.strata.storage.format;

/** How a data file came to be. Persisted by ordinal in manifests: append only, never reorder. */
public enum FileSource {
    /** Flushed by a writer from its write buffer. */
    APPEND,
    /** Written by a compaction. */
    COMPACT
}
