package io.strata.storage.snapshot;

/** What a snapshot's commit did. */
public enum CommitKind {
    /** Only added files (writers). */
    APPEND,
    /** Replaced files by equivalent ones (compaction); never changes what the table contains. */
    COMPACT,
    /** Replaced all files of some partitions (or the table) with new content. */
    OVERWRITE
}
