package io.strata.storage.commit;

/**
 * A commit cannot be applied to the latest snapshot: a file it deletes is no longer live, or its
 * files would overlap on a level >= 1. Nothing of the failed commit is in the table. Only a
 * concurrent compaction (or overwrite) can cause it; appends never conflict.
 */
public class CommitConflictException extends RuntimeException {
    public CommitConflictException(String message) {
        super(message);
    }
}
