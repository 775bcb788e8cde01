package io.strata.storage.mergetree;

import io.strata.storage.format.DataFileMeta;
import java.util.List;

/**
 * One change to a bucket's LSM tree made by compaction, like LevelDB's {@code VersionEdit}: the
 * files it removes (at the levels they had), the files it adds (at their new levels, including
 * files only moved up a level), and the changelog files it produced. A commit applies it to the
 * bucket's files; {@link Levels#apply} applies it to an in-memory shape. Immutable.
 */
public final class BucketEdit {
    public static final BucketEdit EMPTY = new BucketEdit(List.of(), List.of(), List.of());

    private final List<DataFileMeta> deleted;
    private final List<DataFileMeta> added;
    private final List<DataFileMeta> changelog;

    public BucketEdit(List<DataFileMeta> deleted, List<DataFileMeta> added, List<DataFileMeta> changelog) {
        this.deleted = List.copyOf(deleted);
        this.added = List.copyOf(added);
        this.changelog = List.copyOf(changelog);
    }

    /** The files the compaction replaced, at their levels before it. */
    public List<DataFileMeta> deletedFiles() {
        return deleted;
    }

    /** The files replacing them, at their levels after it. */
    public List<DataFileMeta> addedFiles() {
        return added;
    }

    /** Changelog files the compaction produced (lookup or full-compaction producer). */
    public List<DataFileMeta> changelogFiles() {
        return changelog;
    }

    public boolean isEmpty() {
        return deleted.isEmpty() && added.isEmpty() && changelog.isEmpty();
    }

    @Override
    public String toString() {
        return "BucketEdit{deleted=" + deleted.size() + ", added=" + added.size() + ", changelog=" + changelog.size()
                + "}";
    }
}
