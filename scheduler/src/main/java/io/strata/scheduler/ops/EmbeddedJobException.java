package io.strata.scheduler.ops;

/**
 * A compaction job on the embedded Flink that failed. The message is what the user must see first
 * ({@code JobFailures.describe}: the failed buckets with table, bucket and file, not Flink's
 * "Job execution failed."); the cause keeps Flink's exception for the trace in the run history.
 */
public final class EmbeddedJobException extends Exception {
    private static final long serialVersionUID = 1L;

    EmbeddedJobException(String message, Throwable cause) {
        super(message, cause);
    }
}
