package io.strata.compaction;

import io.strata.compaction.commit.CompactionFailedException;

/**
 * The message to show a user for a failed job: Flink wraps the failure that ended a job in its own
 * exceptions ("Job execution failed.", "Recovery is suppressed by ..."), which say nothing of the
 * table. This finds the {@link CompactionFailedException} in the cause chain, else the first
 * exception that is not one of Flink's or a concurrency wrapper.
 */
public final class JobFailures {
    private JobFailures() {}

    public static String describe(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof CompactionFailedException) {
                return t.getMessage();
            }
        }
        Throwable t = failure;
        while (isWrapper(t) && t.getCause() != null) {
            t = t.getCause();
        }
        String m = t.getMessage();
        return m == null || m.isBlank() ? t.getClass().getName() : m;
    }

    private static boolean isWrapper(Throwable t) {
        String name = t.getClass().getName();
        return name.startsWith("org.apache.flink.")
                || t instanceof java.util.concurrent.ExecutionException
                || t instanceof java.util.concurrent.CompletionException;
    }
}
