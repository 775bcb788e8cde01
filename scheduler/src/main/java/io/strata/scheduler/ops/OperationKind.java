package io.strata.scheduler.ops;

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
