package io.strata.scheduler.ops;

/**
 * A compaction job on a Flink cluster that ended other than FINISHED (failed, or cancelled on
 * the cluster), or whose end could not be learned.
 */
public final class ClusterJobException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String jobId;

    ClusterJobException(String jobId, String message, Throwable cause) {
        super(message, cause);
        this.jobId = jobId;
    }

    /** The job's id on the cluster (hexadecimal, as the web UI and {@code flink list} show it). */
    public String jobId() {
        return jobId;
    }
}
