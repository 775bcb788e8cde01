package io.strata.storage.mergetree;

import io.strata.storage.format.DataFileMeta;
import java.util.List;

/** Files whose key ranges do not overlap, ordered by key: one level-0 file, or a whole level >= 1. */
public final class SortedRun {
    private final List<DataFileMeta> files;
    private final long totalSize;

    public SortedRun(List<DataFileMeta> files) {
        this.files = List.copyOf(files);
        long s = 0;
        for (DataFileMeta f : files) {
            s += f.fileSize();
        }
        this.totalSize = s;
    }

    public List<DataFileMeta> files() {
        return files;
    }

    public long totalSize() {
        return totalSize;
    }

    public boolean isEmpty() {
        return files.isEmpty();
    }

    @Override
    public String toString() {
        return "SortedRun" + files;
    }
}
