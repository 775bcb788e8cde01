package io.strata.scheduler.http;

import io.strata.scheduler.table.TableHealth;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What the status page shows, gathered by the service at request time: no state of its own.
 *
 * @param now the time the page is rendered at (the scheduler's clock)
 */
public record StatusView(
        String schedulerId,
        Instant now,
        List<TableStatus> tables,
        List<RunningOperation> running,
        List<Run> recentFailures) {

    public StatusView {
        tables = List.copyOf(tables);
        running = List.copyOf(running);
        recentFailures = List.copyOf(recentFailures);
    }

    /**
     * One scheduled table.
     *
     * @param health the last poll; empty before the first or when it failed
     * @param pollError why the last poll failed, if it did
     * @param operations per operation, its next and last runs
     */
    public record TableStatus(
            String table,
            Optional<TableHealth> health,
            Optional<String> pollError,
            int maxSortedRuns,
            int maxLevel0Files,
            boolean paused,
            List<OperationStatus> operations) {
        public TableStatus {
            operations = List.copyOf(operations);
        }
    }

    /** One operation of a table: when it fires next and how it last ended. */
    public record OperationStatus(String operation, Optional<Instant> nextFire, Optional<Run> lastRun) {}

    /** A finished run. */
    public record Run(String table, String operation, Instant start, Instant end, String outcome, String detail) {}

    /** A run in progress and who holds its lease. */
    public record RunningOperation(String table, String operation, Instant start, String owner) {}
}
