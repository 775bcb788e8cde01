package io.strata.scheduler.time;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Whether a due run starts now or waits: {@code startAt} is empty for "start now" and holds the
 * instant to try again otherwise, with the reason it was held back.
 */
public record StartDecision(Instant due, Optional<Instant> startAt, String reason, Duration lateness) {
    static StartDecision startNow(Instant due, Instant now) {
        Duration late = now.isAfter(due) ? Duration.between(due, now) : Duration.ZERO;
        return new StartDecision(due, Optional.empty(), "", late);
    }

    static StartDecision waitUntil(Instant due, Instant at, String reason) {
        return new StartDecision(due, Optional.of(at), reason, Duration.ZERO);
    }

    public boolean startsNow() {
        return startAt.isEmpty();
    }
}
