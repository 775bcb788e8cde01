package io.strata.storage.options;

/** How rows are distributed to buckets. */
public final class BucketOptions {
    private BucketOptions() {}

    public static final ConfigOption<Integer> BUCKET = ConfigOption.key("bucket")
            .intType()
            .defaultValue(1)
            .atLeast(1)
            .definesTable()
            .withDescription(
                    "Fixed number of buckets per partition. Each bucket of a primary-key table is one LSM tree. "
                            + "Cannot be changed after creation.");

    public static final ConfigOption<String> BUCKET_KEY = ConfigOption.key("bucket-key")
            .stringType()
            .noDefault()
            .definesTable()
            .withDescription("Comma-separated fields hashed to choose the bucket. Default: the primary key minus the "
                    + "partition keys. Append tables with more than one bucket must set it. Cannot be changed after "
                    + "creation.");
}
