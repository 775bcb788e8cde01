package io.strata.scheduler.lease;

import java.util.Locale;

/**
 * An operation the scheduler runs on a table under a lease, and which operations it may run beside.
 *
 * <p>The conflict relation is symmetric and decided by {@link Kind}: two compactions of any kind
 * conflict (they would rewrite the same sorted runs, and one commit would lose); a rollback
 * conflicts with everything (it moves the table back under every other operation); two
 * expirations conflict, and two orphan cleanups conflict (they would delete the same files twice);
 * expiration and orphan cleanup run beside compaction (the engine plans both from committed
 * snapshots only and protects files written after the cleanup started); orphan cleanup and
 * expiration conflict with each other, conservatively, because both delete files and the engine
 * does not prove their interleaving safe.
 */
public enum LeaseOperation {
    MINOR_COMPACTION(Kind.COMPACTION),
    FULL_COMPACTION(Kind.COMPACTION),
    BACKLOG_COMPACTION(Kind.COMPACTION),
    SNAPSHOT_EXPIRATION(Kind.EXPIRATION),
    CHANGELOG_EXPIRATION(Kind.EXPIRATION),
    ORPHAN_CLEANUP(Kind.ORPHAN_CLEANUP),
    ROLLBACK(Kind.ROLLBACK);

    /** Groups of operations that share a row of the conflict matrix. */
    public enum Kind {
        COMPACTION,
        EXPIRATION,
        ORPHAN_CLEANUP,
        ROLLBACK
    }

    private final Kind kind;

    LeaseOperation(Kind kind) {
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }

    /** Whether this operation may not hold a lease on a table while {@code other} holds one. */
    public boolean conflictsWith(LeaseOperation other) {
        return conflicts(kind, other.kind);
    }

    private static boolean conflicts(Kind a, Kind b) {
        if (a == Kind.ROLLBACK || b == Kind.ROLLBACK || a == b) {
            return true;
        }
        // Compaction is compatible with expiration and with orphan cleanup; those two conflict.
        return a != Kind.COMPACTION && b != Kind.COMPACTION;
    }

    /** The name stored in the database: lower case with dashes, as in the scheduler's config. */
    public String id() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The operation stored under {@code id}; throws naming the id and the known ones. */
    public static LeaseOperation fromId(String id) {
        for (LeaseOperation operation : values()) {
            if (operation.id().equals(id)) {
                return operation;
            }
        }
        throw new IllegalArgumentException("Unknown lease operation '" + id + "'; known: " + knownIds());
    }

    static String knownIds() {
        StringBuilder known = new StringBuilder();
        for (LeaseOperation operation : values()) {
            known.append(known.length() == 0 ? "" : ", ").append(operation.id());
        }
        return known.toString();
    }
}
