package io.strata.scheduler.history;

/** How a run ended; {@link #RUNNING} while it has not. */
public enum RunOutcome {
    RUNNING,
    SUCCEEDED,
    FAILED,
    /** Stopped before it finished: the scheduler shut down, or its process died (found at start-up). */
    INTERRUPTED,
    /** Not started: held back by a lease, a pause or a closed window (the reason says which). */
    SKIPPED
}
