package io.strata.storage.snapshot;

/** The requested snapshot does not exist (never committed, or expired). */
public class SnapshotNotFoundException extends RuntimeException {
    public SnapshotNotFoundException(String message) {
        super(message);
    }
}
