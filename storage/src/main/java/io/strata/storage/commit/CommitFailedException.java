package io.strata.storage.commit;

/** A commit gave up (retries exhausted, or an I/O error before its snapshot was published). */
public class CommitFailedException extends RuntimeException {
    public CommitFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
