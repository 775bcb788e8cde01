package io.strata.compaction.job;

import io.strata.storage.format.DataFileMeta;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** File names of data file metadata: how the job compares a plan's inputs with a snapshot's live files. */
public final class FileNames {
    private FileNames() {
    }

    public static Set<String> of(List<DataFileMeta> files) {
        Set<String> s = new HashSet<>();
        for (DataFileMeta f : files) {
            s.add(f.fileName());
        }
        return s;
    }
}
