package io.strata.storage.maintenance;

import io.strata.storage.store.TableContext;
import java.util.List;

/**
 * Where a list of a table's files is deleted: in this process ({@link #local}), or spread over the
 * subtasks of a Flink job (the compaction-job module). Expiration and orphan cleanup decide what
 * goes and when: they hand over one stage at a time (data, changelog and temporary files; then
 * manifests; then manifest lists), only files they checked, and only after the snapshot files
 * (expiration) or the re-check against the latest snapshot (orphan cleanup). What an
 * implementation reports is checked against what it was given.
 *
 * <p>An implementation must delete each file by itself, never a directory, and no file it was not
 * given; the files of one call may go in any order and at once. A file already gone counts as
 * deleted.
 */
@FunctionalInterface
public interface BulkDelete {

    /**
     * Deletes {@code files} and adds each one deleted to {@code deleted}.
     *
     * @throws java.io.UncheckedIOException naming a file that could not be deleted and why, after
     *     adding to {@code deleted} what was deleted by then (a rerun deletes the rest)
     */
    void delete(List<TableFile> files, List<TableFile> deleted);

    /**
     * In this process: in pages on {@code maintenance.delete-threads} threads, through the store's
     * bulk delete where it has one, at most {@code maintenance.deletes-per-second}.
     */
    static BulkDelete local(TableContext table) {
        return (files, deleted) -> new FileDeleter(table).delete(files, deleted);
    }

    /**
     * As {@link #local(TableContext)}, at most {@code deletesPerSecond} (a share of the run's
     * {@code maintenance.deletes-per-second} for one of several processes deleting at once).
     */
    static BulkDelete local(TableContext table, double deletesPerSecond) {
        return (files, deleted) -> new FileDeleter(table, deletesPerSecond).delete(files, deleted);
    }
}
