package io.strata.scheduler.history;

import java.time.Instant;
import java.util.Optional;

/**
 * A pause: no new run of {@code operation} (every operation when empty) on {@code table} (every
 * table when empty) starts until it is resumed. Runs already started are not stopped.
 */
public record Pause(
        Optional<String> table,
        Optional<String> operation,
        String pausedBy,
        Optional<String> reason,
        Instant pausedAt) {

    /** Whether this pause holds back {@code operation} on {@code table}. */
    public boolean covers(String table, String operation) {
        return this.table.map(table::equals).orElse(true)
                && this.operation.map(operation::equals).orElse(true);
    }
}
