package io.strata.scheduler.lease;

import java.util.Locale;

/**
 * An operation the scheduler runs on a table under a lease, and which operations it may run beside.
 *
 * <p>The conflict relation is symmetric and decided by {@link Kind}. Two operations of one kind
 * always conflict, and a rollback conflicts with everything (it moves the table back under every
 * other operation). Between kinds:
 *
 * <ul>
 *   <li>compaction and partition expiration conflict: both replace the live files of the same
 *       buckets (a partition expiration commits an OVERWRITE snapshot deleting every file of the
 *       partitions it drops). The commit protocol keeps the table correct when they meet (a
 *       partition expiration whose files a compaction replaced fails its conflict check; a
 *       compaction of a dropped partition finds its inputs gone and is re-planned to nothing), but
 *       the loser's work is wasted, as with two compactions;
 *   <li>expiration (of snapshots or of kept changelogs alone, which expiration of snapshots also
 *       runs) and orphan cleanup conflict, conservatively: both delete files and the engine does
 *       not prove their interleaving safe;
 *   <li>everything else runs side by side. Expiration and orphan cleanup beside compaction or
 *       partition expiration: the engine plans them from committed snapshots only, checks what it
 *       deletes against the latest snapshot, and orphan cleanup protects files younger than its
 *       threshold (the manifests of a commit in flight); a new snapshot is to them what a writer's
 *       commit is. An automatic tag beside anything but a rollback: creating a tag and expiring its
 *       snapshot are ordered by the engine (whichever writes second, tag or expiration journal,
 *       sees the other and gives up), the tagged snapshot is a retained one, which orphan cleanup
 *       keeps anyway, and deleting a tag beyond the retained number only makes files unreferenced
 *       later than a concurrent cleanup assumed, which keeps them. An automatic tag must not wait
 *       behind a long compaction either: a skipped run can leave a period without its tag.
 * </ul>
 */
public enum LeaseOperation {
    MINOR_COMPACTION(Kind.COMPACTION),
    FULL_COMPACTION(Kind.COMPACTION),
    BACKLOG_COMPACTION(Kind.COMPACTION),
    SNAPSHOT_EXPIRATION(Kind.EXPIRATION),
    CHANGELOG_EXPIRATION(Kind.EXPIRATION),
    PARTITION_EXPIRATION(Kind.PARTITION_EXPIRATION),
    AUTO_TAG(Kind.TAG),
    ORPHAN_CLEANUP(Kind.ORPHAN_CLEANUP),
    ROLLBACK(Kind.ROLLBACK);

    /** Groups of operations that share a row of the conflict matrix. */
    public enum Kind {
        COMPACTION,
        EXPIRATION,
        PARTITION_EXPIRATION,
        TAG,
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
        return pair(a, b, Kind.COMPACTION, Kind.PARTITION_EXPIRATION)
                || pair(a, b, Kind.EXPIRATION, Kind.ORPHAN_CLEANUP);
    }

    private static boolean pair(Kind a, Kind b, Kind x, Kind y) {
        return (a == x && b == y) || (a == y && b == x);
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
