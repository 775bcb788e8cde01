package io.strata.scheduler.quartz;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One fire of a schedule, as the dispatcher gets it.
 *
 * @param due when the fire was due (its trigger's scheduled time; for a recovered fire, that of
 *     the fire it recovers)
 * @param id Quartz's fire instance id, recorded with the run
 * @param recovering for a fire that re-runs the work of a scheduler that died mid-run, that
 *     scheduler's id, the owner of its lease and run ({@link FireRecovery})
 */
public record Fire(Instant due, Optional<String> id, Optional<String> recovering) {
    public Fire {
        Objects.requireNonNull(due, "due");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(recovering, "recovering");
    }

    /** A fire due at {@code due} with no fire id, recovering nothing (a manual run, a test). */
    public static Fire at(Instant due) {
        return new Fire(due, Optional.empty(), Optional.empty());
    }
}
