package io.strata.scheduler.lease;

import java.util.List;
import java.util.Optional;

/**
 * The answer to {@link LeaseStore#acquire}: the granted lease, or the live leases that held the
 * request back (never both, never neither).
 */
public record LeaseAcquisition(Optional<Lease> granted, List<Lease> blockers) {

    public LeaseAcquisition {
        blockers = List.copyOf(blockers);
        if (granted.isPresent() == !blockers.isEmpty()) {
            throw new IllegalArgumentException("A lease acquisition is either granted or blocked");
        }
    }

    static LeaseAcquisition granted(Lease lease) {
        return new LeaseAcquisition(Optional.of(lease), List.of());
    }

    static LeaseAcquisition blocked(List<Lease> blockers) {
        return new LeaseAcquisition(Optional.empty(), blockers);
    }

    public boolean isGranted() {
        return granted.isPresent();
    }

    /** The granted lease; throws if the request was held back. */
    public Lease lease() {
        return granted.orElseThrow(() -> new IllegalStateException("Lease not granted: " + heldBackReason()));
    }

    /** Why the request was held back, naming each blocking lease; empty text when granted. */
    public String heldBackReason() {
        StringBuilder reason = new StringBuilder();
        for (Lease blocker : blockers) {
            reason.append(reason.length() == 0 ? "held back by " : "; ").append(blocker.describe());
        }
        return reason.toString();
    }
}
