package io.strata.scheduler.history;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Objects;
import java.util.Optional;

/** How a run ended, for {@link RunHistory#finish}: outcome, counters, and the texts that explain it. */
public record RunResult(RunOutcome outcome, RunCounters counters, Optional<String> heldBack, Optional<String> error) {

    public RunResult {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(counters, "counters");
        if (outcome == RunOutcome.RUNNING) {
            throw new IllegalArgumentException("A run cannot finish as RUNNING");
        }
    }

    public static RunResult succeeded(RunCounters counters) {
        return new RunResult(RunOutcome.SUCCEEDED, counters, Optional.empty(), Optional.empty());
    }

    /** A failure; the error text is the exception's stack trace (truncated when stored). */
    public static RunResult failed(RunCounters counters, Throwable error) {
        StringWriter trace = new StringWriter();
        error.printStackTrace(new PrintWriter(trace));
        return new RunResult(RunOutcome.FAILED, counters, Optional.empty(), Optional.of(trace.toString()));
    }

    public static RunResult interrupted(RunCounters counters, String why) {
        return new RunResult(RunOutcome.INTERRUPTED, counters, Optional.empty(), Optional.of(why));
    }

    public static RunResult skipped(String heldBack) {
        return new RunResult(RunOutcome.SKIPPED, RunCounters.NONE, Optional.of(heldBack), Optional.empty());
    }
}
