package io.strata.storage.options;

/** The two-phase commit. */
public final class CommitOptions {
    private CommitOptions() {
    }

    public static final ConfigOption<Integer> MAX_RETRIES = ConfigOption.key("commit.max-retries").intType()
            .defaultValue(10).perRun()
            .withDescription("How often a commit that lost the race for the next snapshot id re-reads the latest "
                    + "snapshot, re-checks conflicts and tries again before failing.");

    public static final ConfigOption<Long> MIN_RETRY_WAIT = ConfigOption.key("commit.min-retry-wait").durationType()
            .defaultValue(10L).perRun()
            .withDescription("First back-off after a lost race; doubled per retry with jitter.");

    public static final ConfigOption<Long> MAX_RETRY_WAIT = ConfigOption.key("commit.max-retry-wait").durationType()
            .defaultValue(10_000L).perRun()
            .withDescription("Longest back-off between commit retries.");

    public static final ConfigOption<String> LOCK_CLASS = ConfigOption.key("commit.lock.class").stringType()
            .noDefault().definesTable()
            .withDescription("Class implementing io.strata.storage.fs.CommitLock (no-arg constructor). Required on file "
                    + "systems without an atomic no-overwrite primitive (object stores such as s3a); see docs/FORMAT.md. "
                    + "Defines the table: writers holding different locks do not exclude each other and overwrite each "
                    + "other's snapshots.");
}
