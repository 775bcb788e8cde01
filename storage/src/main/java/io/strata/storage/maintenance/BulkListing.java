package io.strata.storage.maintenance;

import io.strata.storage.fs.FileIO;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.Path;

/**
 * Where orphan cleanup lists the table's data and manifest directories: in this process, or
 * spread over the subtasks of a Flink job (the compaction-job module). Each directory is walked by
 * {@link OrphanFilesClean#listTree}, wherever it runs; orphan cleanup lists the table directory
 * and its metadata directories itself, and checks every file an implementation reports (a file,
 * not a directory or a link, under the directory it was reported for), refusing the rest.
 */
@FunctionalInterface
public interface BulkListing {

    /**
     * {@link OrphanFilesClean#listTree} of each of {@code dirs}, in the order of {@code dirs}.
     *
     * @throws IOException when a directory cannot be listed (orphan cleanup then deletes nothing)
     */
    List<Listed> list(List<Path> dirs) throws IOException;

    /** The files under one directory, in the order the walk met them, and the paths it refused with the reason. */
    record Listed(List<FileIO.FileEntry> files, List<String> refused) {
        public Listed {
            files = List.copyOf(files);
            refused = List.copyOf(refused);
        }
    }
}
