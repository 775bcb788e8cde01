package io.strata.storage.maintenance;

import io.strata.storage.store.TableContext;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the files that one writer (a compaction job's failed attempts, say) wrote and never
 * committed. The writer names them: {@code writtenBy} accepts the file names it gave. A file is
 * removed only when no retained snapshot references it.
 *
 * <p>The candidates are listed before the referenced set is read, so a file committed between the
 * two is seen as referenced and kept. The caller must make sure the writer is not still writing
 * files {@code writtenBy} accepts (a live attempt's files carry another name).
 */
public final class UncommittedFiles {
    private static final Logger LOG = LoggerFactory.getLogger(UncommittedFiles.class);

    private UncommittedFiles() {}

    /** @return the number of files deleted */
    public static int remove(TableContext table, Predicate<String> writtenBy, String writer) throws IOException {
        ReachableFiles reachable = new ReachableFiles(table);
        List<Path> candidates = reachable.dataDirectoryFiles(writtenBy);
        if (candidates.isEmpty()) {
            return 0;
        }
        Set<String> referenced = reachable.referencedByRetainedSnapshots();
        int deleted = 0;
        for (Path p : candidates) {
            if (!referenced.contains(p.getName())) {
                table.fileIO().delete(p);
                deleted++;
            }
        }
        if (deleted > 0) {
            LOG.info("table {}: removed {} files that {} wrote and never committed", table.name(), deleted, writer);
        }
        return deleted;
    }
}
