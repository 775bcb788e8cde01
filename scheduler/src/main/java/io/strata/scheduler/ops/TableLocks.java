package io.strata.scheduler.ops;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * At most one operation per table at a time in this scheduler process: an operation that finds
 * its table busy is skipped, not queued (its next fire tries again). This is a process-local
 * guard against wasted work only; the engine's commit protocol keeps concurrent operations
 * correct.
 */
public final class TableLocks {
    private final Map<String, OperationKind> holders = new ConcurrentHashMap<>();

    /** Takes {@code table} for {@code kind}: empty when this call took it, else the operation holding it. */
    Optional<OperationKind> tryAcquire(String table, OperationKind kind) {
        OperationKind prior = holders.putIfAbsent(table, kind);
        return Optional.ofNullable(prior);
    }

    void release(String table) {
        holders.remove(table);
    }

    /** The operations running now, by table. */
    public Map<String, OperationKind> running() {
        return Map.copyOf(holders);
    }
}
