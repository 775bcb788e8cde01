package io.strata.scheduler.lease;

import java.time.Instant;
import java.util.Objects;

/**
 * A lease as stored: {@code owner} may run {@code operation} on {@code table} until {@code
 * expiresAt}. The {@code epoch} is the fencing token: it is strictly greater than the epoch of
 * every earlier lease on the same table, whatever its operation, so a holder can be told apart
 * from any later one.
 *
 * <p>{@code operationId} is the stored name; {@link #operation()} parses it. A name this version
 * does not know (written by a newer scheduler) is kept so that it can be reported and treated as
 * conflicting with everything.
 */
public record Lease(String table, String operationId, String owner, long epoch, Instant acquiredAt, Instant expiresAt) {

    public Lease {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(operationId, "operationId");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(acquiredAt, "acquiredAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    public LeaseOperation operation() {
        return LeaseOperation.fromId(operationId);
    }

    /** Whether this stored lease keeps {@code requested} from being granted on the same table. */
    public boolean blocks(LeaseOperation requested) {
        for (LeaseOperation known : LeaseOperation.values()) {
            if (known.id().equals(operationId)) {
                return known.conflictsWith(requested);
            }
        }
        return true;
    }

    public boolean liveAt(Instant now) {
        return now.isBefore(expiresAt);
    }

    /** One line for logs and errors: table, operation, owner, epoch and expiry. */
    public String describe() {
        return operationId + " on table '" + table + "' held by '" + owner + "' (epoch " + epoch + ", expires "
                + expiresAt + ")";
    }
}
