package io.strata.storage.fs;

/**
 * Recognises S3A's exceptions by class name: hadoop-aws is not a compile dependency of storage
 * (a deployment adds it with its AWS SDK bundle when it uses {@code s3a://}).
 */
final class S3aErrors {
    /**
     * What S3A throws when the store answers 412 Precondition Failed: on a conditional create of an
     * object that exists, and on a read whose object was replaced after the stream opened it (S3A
     * pins the first response's ETag and refuses to mix two versions of an object).
     */
    private static final String REMOTE_FILE_CHANGED = "org.apache.hadoop.fs.s3a.RemoteFileChangedException";

    private S3aErrors() {}

    /** Whether {@code e} or one of its causes is S3A's {@code RemoteFileChangedException}. */
    static boolean isRemoteFileChanged(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getClass().getName().equals(REMOTE_FILE_CHANGED)) {
                return true;
            }
        }
        return false;
    }
}
