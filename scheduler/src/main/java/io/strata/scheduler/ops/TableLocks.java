package io.strata.scheduler.ops;

import io.strata.scheduler.lease.LeaseOperation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The operations running on each table in this scheduler process, and the in-process check that
 * a new one may run beside them: by the lease's conflict matrix ({@link
 * LeaseOperation#conflictsWith}, the one definition of which operations exclude each other), so an
 * expiration or orphan cleanup runs beside a compaction of its table while two compactions, or a
 * rollback and anything, do not. An operation that finds a conflicting one running is skipped, not
 * queued (its next fire tries again). This is a cheap first check against wasted work only: the
 * lease in the scheduler's database is what excludes the operations of other processes, and the
 * engine's commit protocol keeps whatever still meets correct.
 *
 * <p>Thread-safe; not reentrant (an operation that takes a table twice conflicts with itself
 * where its kind does).
 */
public final class TableLocks {
    /** Guarded by {@code this}; a table without running operations has no entry. */
    private final Map<String, List<LeaseOperation>> running = new HashMap<>();

    /**
     * Takes {@code table} for {@code operation} unless a conflicting operation holds it: empty when
     * this call took it (release it with {@link #release}), else a running operation it conflicts
     * with.
     */
    public synchronized Optional<LeaseOperation> tryAcquire(String table, LeaseOperation operation) {
        List<LeaseOperation> holders = running.computeIfAbsent(table, t -> new ArrayList<>());
        for (LeaseOperation h : holders) {
            if (operation.conflictsWith(h)) {
                return Optional.of(h);
            }
        }
        holders.add(operation);
        return Optional.empty();
    }

    /** Releases one hold of {@code table} by {@code operation}, taken by {@link #tryAcquire}. */
    public synchronized void release(String table, LeaseOperation operation) {
        List<LeaseOperation> holders = running.get(table);
        if (holders == null || !holders.remove(operation)) {
            throw new IllegalStateException(operation.id() + " does not hold " + table + " in this scheduler");
        }
        if (holders.isEmpty()) {
            running.remove(table);
        }
    }

    /** The operations running now, by table, each in the order it was taken. */
    public synchronized Map<String, List<LeaseOperation>> running() {
        Map<String, List<LeaseOperation>> copy = new HashMap<>();
        running.forEach((t, ops) -> copy.put(t, List.copyOf(ops)));
        return Map.copyOf(copy);
    }
}
