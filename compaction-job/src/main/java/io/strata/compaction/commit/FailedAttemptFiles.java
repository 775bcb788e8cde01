package io.strata.compaction.commit;

import io.strata.compaction.job.JobTables;
import io.strata.storage.table.FileStoreTable;
import java.io.IOException;

/**
 * Removes the files that earlier attempts of this job wrote but never committed: rewrites that
 * ran after the last completed checkpoint of an attempt that then failed. They are recognised by
 * name ({@link JobTables#filePrefix}: this job's tag and an attempt number below the current one);
 * the engine deletes only those no retained snapshot references, as data or as changelog.
 *
 * <p>Safe to run concurrently with this attempt's rewrites (their files carry the current attempt)
 * and with ingestion (writers' files carry another prefix). Runs after the committer has
 * re-committed the results of the restored checkpoint, so those are referenced by then.
 */
final class FailedAttemptFiles {
    private FailedAttemptFiles() {}

    /** @return the number of files deleted */
    static int remove(FileStoreTable table, String commitUser, int currentAttempt) throws IOException {
        return table.removeUncommittedFiles(
                name -> {
                    int a = JobTables.attemptOf(name, commitUser);
                    return a >= 0 && a < currentAttempt;
                },
                "failed attempts of " + commitUser);
    }
}
