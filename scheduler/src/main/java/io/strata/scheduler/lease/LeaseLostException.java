package io.strata.scheduler.lease;

import java.util.List;

/**
 * Thrown by {@link LeaseKeeper#checkHeld()} when the caller no longer holds its lease: it expired
 * or another owner was granted a conflicting one. The operation must stop before its next commit.
 */
public final class LeaseLostException extends RuntimeException {
    private final transient Lease lost;
    private final transient List<Lease> holders;

    LeaseLostException(Lease lost, List<Lease> holders, String why) {
        super(message(lost, holders, why));
        this.lost = lost;
        this.holders = List.copyOf(holders);
    }

    LeaseLostException(Lease lost, String why, Throwable cause) {
        super(message(lost, List.of(), why), cause);
        this.lost = lost;
        this.holders = List.of();
    }

    private static String message(Lease lost, List<Lease> holders, String why) {
        StringBuilder message = new StringBuilder("Lease lost: ")
                .append(lost.operationId())
                .append(" on table '")
                .append(lost.table())
                .append("' by owner '")
                .append(lost.owner())
                .append("' (epoch ")
                .append(lost.epoch())
                .append("): ")
                .append(why)
                .append("; held now by ");
        if (holders.isEmpty()) {
            message.append("nobody");
        }
        for (int i = 0; i < holders.size(); i++) {
            message.append(i == 0 ? "" : ", ").append(holders.get(i).describe());
        }
        return message.toString();
    }

    /** The lease the caller held. */
    public Lease lost() {
        return lost;
    }

    /** The live leases on the table when the loss was found (may be empty). */
    public List<Lease> holders() {
        return holders;
    }
}
