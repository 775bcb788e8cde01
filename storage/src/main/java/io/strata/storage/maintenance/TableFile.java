package io.strata.storage.maintenance;

/**
 * One file of a table that maintenance deletes or would delete: its kind, its path and its size
 * in bytes (-1 when not known without a request).
 */
public record TableFile(Kind kind, String path, long size) {

    /** What a file is to the table. */
    public enum Kind {
        SNAPSHOT,
        /** The changelog kept of an expired snapshot, {@code changelog/changelog-<id>}. */
        CHANGELOG_METADATA,
        DATA,
        CHANGELOG,
        MANIFEST,
        MANIFEST_LIST,
        /** A hidden temporary ({@code .<name>.tmp}) of a write that did not finish. */
        TEMPORARY,
        /** The registration of a writer whose heartbeat went stale ({@code writer/writer-<token>}). */
        WRITER_REGISTRATION
    }
}
