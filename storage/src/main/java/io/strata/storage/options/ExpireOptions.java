package io.strata.storage.options;

import java.time.Duration;

/**
 * Retention (which snapshots expiration keeps, when consumers and partitions expire) and how
 * maintenance deletes. Names and defaults follow Paimon's. A
 * snapshot is expired when more than {@code snapshot.num-retained.max} newer ones exist, or when
 * it is older than {@code snapshot.time-retained} and at least {@code snapshot.num-retained.min}
 * newer ones (itself included) remain; at most {@code snapshot.expire.limit} go in one run.
 */
public final class ExpireOptions {
    private ExpireOptions() {}

    public static final ConfigOption<Integer> NUM_RETAINED_MIN = ConfigOption.key("snapshot.num-retained.min")
            .intType()
            .defaultValue(10)
            .atLeast(1)
            .perRun()
            .withDescription("Snapshots always kept, the latest included, however old (at least 1).");

    public static final ConfigOption<Integer> NUM_RETAINED_MAX = ConfigOption.key("snapshot.num-retained.max")
            .intType()
            .noDefault()
            .atLeast(1)
            .perRun()
            .withDescription("Snapshots kept at most, however young; unset: no upper bound. At least "
                    + "snapshot.num-retained.min.");

    public static final ConfigOption<Duration> TIME_RETAINED = ConfigOption.key("snapshot.time-retained")
            .durationType()
            .defaultValue(Duration.ofHours(1))
            .atLeast(Duration.ZERO)
            .perRun()
            .withDescription(
                    "Snapshots younger than this are kept (beyond snapshot.num-retained.max they go " + "anyway).");

    public static final ConfigOption<Duration> CONSUMER_EXPIRATION_TIME = ConfigOption.key("consumer.expiration-time")
            .durationType()
            .noDefault()
            .positive()
            .perRun()
            .withDescription("A consumer whose position was not updated for this long is dropped by expiration and "
                    + "no longer holds snapshots back; unset: consumers are kept until deleted.");

    public static final ConfigOption<Duration> PARTITION_EXPIRATION_TIME = ConfigOption.key("partition.expiration-time")
            .durationType()
            .noDefault()
            .positive()
            .perRun()
            .withDescription("Partitions whose time (from partition.timestamp-pattern and "
                    + "partition.timestamp-formatter) is older than this are dropped by partition expiration; "
                    + "unset: partitions never expire.");

    public static final ConfigOption<String> PARTITION_TIMESTAMP_PATTERN = ConfigOption.key(
                    "partition.timestamp-pattern")
            .stringType()
            .noDefault()
            .perRun()
            .withDescription("How a partition's time is written from its values: $<key> stands for a partition "
                    + "key's value, e.g. '$dt' or '$dt $hour:00:00'; unset: the first partition key's value.");

    public static final ConfigOption<String> PARTITION_TIMESTAMP_FORMATTER = ConfigOption.key(
                    "partition.timestamp-formatter")
            .stringType()
            .noDefault()
            .perRun()
            .withDescription("java.time pattern that parses the text partition.timestamp-pattern makes, e.g. "
                    + "'yyyyMMdd' or 'yyyy-MM-dd HH:mm:ss' (times in UTC); unset: ISO dates (2026-12-01) and "
                    + "date-times (2026-12-01T10:00 or 2026-12-01 10:00:00).");

    public static final ConfigOption<Duration> WRITER_HEARTBEAT_TIMEOUT = ConfigOption.key(
                    "orphan-clean.writer-heartbeat-timeout")
            .durationType()
            .defaultValue(Duration.ofHours(1))
            .atLeast(Duration.ofSeconds(1))
            .perRun()
            .withDescription("Running writers and compaction jobs register in the table's writer/ directory and "
                    + "renew a heartbeat there (every quarter of this time while active); orphan cleanup never "
                    + "deletes a file named with the token of a registration whose heartbeat is younger than this, "
                    + "however old the file. A registration whose heartbeat is older no longer protects (its "
                    + "writer crashed or hung), and orphan cleanup deletes it once the heartbeat is also older "
                    + "than its threshold.");

    public static final ConfigOption<Integer> DELETE_THREADS = ConfigOption.key("maintenance.delete-threads")
            .intType()
            .defaultValue(4)
            .atLeast(1)
            .perRun()
            .withDescription("Threads that delete the files expiration and orphan cleanup remove (at least 1); "
                    + "each deletes a page of files at a time, in one request where the store has bulk delete "
                    + "(S3A).");

    public static final ConfigOption<Integer> DELETES_PER_SECOND = ConfigOption.key("maintenance.deletes-per-second")
            .intType()
            .noDefault()
            .atLeast(1)
            .perRun()
            .withDescription("Files expiration and orphan cleanup delete per second at most, over all their "
                    + "threads, to spare the store's request rate; unset: as fast as it goes.");

    public static final ConfigOption<Integer> EXPIRE_LIMIT = ConfigOption.key("snapshot.expire.limit")
            .intType()
            .defaultValue(50)
            .atLeast(1)
            .perRun()
            .withDescription("Snapshots one expiration run removes at most, so that a table that was not "
                    + "expired for long catches up over several runs instead of one long one (at least 1).");

    public static final ConfigOption<Integer> CHANGELOG_NUM_RETAINED_MIN = ConfigOption.key(
                    "changelog.num-retained.min")
            .intType()
            .noDefault()
            .atLeast(1)
            .perRun()
            .withDescription("Changes of this many latest snapshots are always kept, however old; unset: "
                    + "snapshot.num-retained.min. Changelog retention longer than snapshot retention keeps the "
                    + "changes of expired snapshots (changelog/changelog-<id>) for readers that are behind.");

    public static final ConfigOption<Integer> CHANGELOG_NUM_RETAINED_MAX = ConfigOption.key(
                    "changelog.num-retained.max")
            .intType()
            .noDefault()
            .atLeast(1)
            .perRun()
            .withDescription("Changes of at most this many latest snapshots are kept, however young; unset: "
                    + "snapshot.num-retained.max. At least changelog.num-retained.min.");

    public static final ConfigOption<Duration> CHANGELOG_TIME_RETAINED = ConfigOption.key("changelog.time-retained")
            .durationType()
            .noDefault()
            .atLeast(Duration.ZERO)
            .perRun()
            .withDescription("Changes younger than this are kept (beyond changelog.num-retained.max they go "
                    + "anyway); unset: snapshot.time-retained.");

    public static final ConfigOption<Boolean> CONSUMER_CHANGELOG_ONLY = ConfigOption.key("consumer.changelog-only")
            .booleanType()
            .defaultValue(false)
            .perRun()
            .withDescription("Consumers hold back only the expiration of the changes they have not read, not "
                    + "of the snapshots: with changelog retention, the snapshots expire and the consumer reads "
                    + "the kept changelog.");
}
