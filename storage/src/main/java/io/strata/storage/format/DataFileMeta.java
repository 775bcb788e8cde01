package io.strata.storage.format;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What the manifest knows of one data file (docs/FORMAT.md). For a primary-key file
 * {@code minKey}/{@code maxKey} are the first and last key in the file (files are sorted by
 * key); for an append file they are empty tuples. {@code deleteRowCount} counts -U and -D rows.
 */
public final class DataFileMeta {
    private final String fileName;
    private final long fileSize;
    private final long rowCount;
    private final long deleteRowCount;
    private final Object[] minKey;
    private final Object[] maxKey;
    private final long minSequence;
    private final long maxSequence;
    private final int level;
    private final long schemaId;
    private final List<ColumnStats> stats;
    private final long creationTimeMillis;
    private final FileSource source;

    public DataFileMeta(
            String fileName,
            long fileSize,
            long rowCount,
            long deleteRowCount,
            Object[] minKey,
            Object[] maxKey,
            long minSequence,
            long maxSequence,
            int level,
            long schemaId,
            List<ColumnStats> stats,
            long creationTimeMillis,
            FileSource source) {
        this.fileName = Objects.requireNonNull(fileName);
        this.fileSize = fileSize;
        this.rowCount = rowCount;
        this.deleteRowCount = deleteRowCount;
        this.minKey = minKey;
        this.maxKey = maxKey;
        this.minSequence = minSequence;
        this.maxSequence = maxSequence;
        this.level = level;
        this.schemaId = schemaId;
        this.stats = List.copyOf(stats);
        this.creationTimeMillis = creationTimeMillis;
        this.source = source;
    }

    public String fileName() {
        return fileName;
    }

    public long fileSize() {
        return fileSize;
    }

    public long rowCount() {
        return rowCount;
    }

    public long deleteRowCount() {
        return deleteRowCount;
    }

    public Object[] minKey() {
        return minKey;
    }

    public Object[] maxKey() {
        return maxKey;
    }

    public long minSequence() {
        return minSequence;
    }

    public long maxSequence() {
        return maxSequence;
    }

    public int level() {
        return level;
    }

    public long schemaId() {
        return schemaId;
    }

    public List<ColumnStats> stats() {
        return stats;
    }

    public long creationTimeMillis() {
        return creationTimeMillis;
    }

    public FileSource source() {
        return source;
    }

    /** The same file moved to {@code newLevel} (a metadata-only upgrade; the file is not rewritten). */
    public DataFileMeta upgrade(int newLevel) {
        return new DataFileMeta(
                fileName,
                fileSize,
                rowCount,
                deleteRowCount,
                minKey,
                maxKey,
                minSequence,
                maxSequence,
                newLevel,
                schemaId,
                stats,
                creationTimeMillis,
                source);
    }

    public ColumnStats statsOf(int fieldId) {
        for (ColumnStats s : stats) {
            if (s.fieldId() == fieldId) {
                return s;
            }
        }
        return null;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof DataFileMeta)) {
            return false;
        }
        DataFileMeta m = (DataFileMeta) o;
        return fileName.equals(m.fileName)
                && fileSize == m.fileSize
                && rowCount == m.rowCount
                && deleteRowCount == m.deleteRowCount
                && Arrays.deepEquals(minKey, m.minKey)
                && Arrays.deepEquals(maxKey, m.maxKey)
                && minSequence == m.minSequence
                && maxSequence == m.maxSequence
                && level == m.level
                && schemaId == m.schemaId
                && stats.equals(m.stats)
                && creationTimeMillis == m.creationTimeMillis
                && source == m.source;
    }

    @Override
    public int hashCode() {
        return fileName.hashCode();
    }

    @Override
    public String toString() {
        return "DataFileMeta{" + fileName + ", level=" + level + ", rows=" + rowCount + ", seq=" + minSequence + ".."
                + maxSequence + ", keys=" + Arrays.toString(minKey) + ".." + Arrays.toString(maxKey) + "}";
    }
}
