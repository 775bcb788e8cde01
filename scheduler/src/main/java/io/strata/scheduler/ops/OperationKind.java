package io.strata.scheduler.ops;

import io.strata.scheduler.lease.LeaseOperation;

/** The operations the scheduler runs against a table, by their name in the config. */
public enum OperationKind {
    EXPIRATION("expiration"),
    CHANGELOG_EXPIRATION("changelog-expiration"),
    PARTITION_EXPIRATION("partition-expiration"),
    AUTO_TAG("auto-tag"),
    ORPHAN_CLEANUP("orphan-cleanup"),
    FULL_COMPACTION("full-compaction"),
    BACKLOG_COMPACTION("backlog-compaction");

    private final String key;

    OperationKind(String key) {
        this.key = key;
    }

    /** The config key, also the Quartz job name of this operation. */
    public String key() {
        return key;
    }

    /**
     * The lease operation that stands for this kind in the conflict matrix: the lease in the
     * scheduler's database and the in-process {@link TableLocks} both decide by it.
     */
    public LeaseOperation leaseOperation() {
        return switch (this) {
            case EXPIRATION -> LeaseOperation.SNAPSHOT_EXPIRATION;
            case CHANGELOG_EXPIRATION -> LeaseOperation.CHANGELOG_EXPIRATION;
            case PARTITION_EXPIRATION -> LeaseOperation.PARTITION_EXPIRATION;
            case AUTO_TAG -> LeaseOperation.AUTO_TAG;
            case ORPHAN_CLEANUP -> LeaseOperation.ORPHAN_CLEANUP;
            case FULL_COMPACTION -> LeaseOperation.FULL_COMPACTION;
            case BACKLOG_COMPACTION -> LeaseOperation.BACKLOG_COMPACTION;
        };
    }

    /** @throws IllegalArgumentException naming the unknown key */
    public static OperationKind ofKey(String key) {
        for (OperationKind k : values()) {
            if (k.key.equals(key)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown operation '" + key + "'");
    }
}
