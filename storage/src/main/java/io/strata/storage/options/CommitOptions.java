package io.strata.storage.options;

import java.time.Duration;

/** The two-phase commit. */
public final class CommitOptions {
    private CommitOptions() {}

    public static final ConfigOption<Integer> MAX_RETRIES = ConfigOption.key("commit.max-retries")
            .intType()
            .defaultValue(10)
            .atLeast(0)
            .perRun()
            .withDescription("How often a commit that lost the race for the next snapshot id re-reads the latest "
                    + "snapshot, re-checks conflicts and tries again before failing.");

    public static final ConfigOption<Duration> MIN_RETRY_WAIT = ConfigOption.key("commit.min-retry-wait")
            .durationType()
            .defaultValue(Duration.ofMillis(10))
            .atLeast(Duration.ZERO)
            .perRun()
            .withDescription("First back-off after a lost race; doubled per retry with jitter.");

    public static final ConfigOption<Duration> MAX_RETRY_WAIT = ConfigOption.key("commit.max-retry-wait")
            .durationType()
            .defaultValue(Duration.ofSeconds(10))
            .atLeast(Duration.ZERO)
            .perRun()
            .withDescription("Longest back-off between commit retries.");

    public static final ConfigOption<String> LOCK_CLASS = ConfigOption.key("commit.lock.class")
            .stringType()
            .noDefault()
            .definesTable()
            .withDescription("Class implementing io.strata.storage.fs.CommitLock (no-arg constructor): every commit "
                    + "publishes its snapshot under this lock. Needed on object stores that do not honour conditional "
                    + "create, unless commit.lock.jdbc.url is set; see docs/FORMAT.md. Like every commit.lock option it "
                    + "may be set for all tables of a warehouse as strata.<option> in the Hadoop configuration "
                    + "(core-site.xml); a table option wins. Defines the table: writers holding different locks do not "
                    + "exclude each other and overwrite each other's snapshots.");

    public static final ConfigOption<String> LOCK_JDBC_URL = ConfigOption.key("commit.lock.jdbc.url")
            .stringType()
            .noDefault()
            .definesTable()
            .withDescription(
                    "JDBC URL of the database that holds the commit locks (io.strata.storage.fs.JdbcCommitLock: "
                            + "a row per table in table strata_commit_lock, created when absent), e.g. "
                            + "jdbc:postgresql://db:5432/strata for committers on many machines, or "
                            + "jdbc:h2:file:/var/lib/strata/locks;AUTO_SERVER=TRUE for one machine. When set, every commit "
                            + "publishes its snapshot under the lock. Not together with commit.lock.class. Defines the table, "
                            + "as commit.lock.class does.");

    public static final ConfigOption<String> LOCK_JDBC_USER = ConfigOption.key("commit.lock.jdbc.user")
            .stringType()
            .noDefault()
            .perRun()
            .withDescription("Database user of commit.lock.jdbc.url (or none).");

    public static final ConfigOption<String> LOCK_JDBC_PASSWORD = ConfigOption.key("commit.lock.jdbc.password")
            .stringType()
            .noDefault()
            .perRun()
            .withDescription("Database password of commit.lock.jdbc.url. Table options are stored in the schema file: "
                    + "give it as strata.commit.lock.jdbc.password in the Hadoop configuration instead.");

    public static final ConfigOption<Duration> LOCK_LEASE = ConfigOption.key("commit.lock.lease")
            .durationType()
            .defaultValue(Duration.ofMinutes(1))
            .atLeast(Duration.ofMillis(100))
            .perRun()
            .withDescription(
                    "How long a JDBC commit lock stays valid without renewal; its holder renews it every third "
                            + "of this. The lock of a holder that died is free after at most this long; a commit that held it "
                            + "longer without renewal fails. Keep it far above a pause a committer may suffer (GC).");

    public static final ConfigOption<Duration> LOCK_ACQUIRE_TIMEOUT = ConfigOption.key("commit.lock.acquire-timeout")
            .durationType()
            .defaultValue(Duration.ofMinutes(5))
            .atLeast(Duration.ZERO)
            .perRun()
            .withDescription("How long a commit waits for the JDBC commit lock before failing, naming the holder.");
}
