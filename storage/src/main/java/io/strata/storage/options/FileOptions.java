package io.strata.storage.options;

/** The data file format. */
public final class FileOptions {
    private FileOptions() {}

    /** Supported data file formats. */
    public enum Format {
        PARQUET
    }

    /** Supported compression codecs. */
    public enum Compression {
        ZSTD,
        SNAPPY,
        GZIP,
        UNCOMPRESSED
    }

    public static final ConfigOption<Format> FILE_FORMAT = ConfigOption.key("file.format")
            .enumType(Format.class)
            .defaultValue(Format.PARQUET)
            .definesTable()
            .withDescription("Data file format.");

    public static final ConfigOption<Compression> FILE_COMPRESSION = ConfigOption.key("file.compression")
            .enumType(Compression.class)
            .defaultValue(Compression.ZSTD)
            .perRun()
            .withDescription("Compression codec of data and manifest files. A run may choose its own: every file "
                    + "records its codec and readers follow the file.");

    public static final ConfigOption<Integer> ZSTD_LEVEL = ConfigOption.key("file.compression.zstd-level")
            .intType()
            .defaultValue(1)
            .between(1, 22)
            .perRun()
            .withDescription("Zstandard level when file.compression is zstd.");

    public static final ConfigOption<Long> BLOCK_SIZE = ConfigOption.key("file.block-size")
            .memoryType()
            .defaultValue(128L << 20)
            .positive()
            .perRun()
            .withDescription("Parquet row group size.");

    public static final ConfigOption<Long> PAGE_SIZE = ConfigOption.key("file.page-size")
            .memoryType()
            .defaultValue(1L << 20)
            .positive()
            .perRun()
            .withDescription("Parquet page size.");

    public static final ConfigOption<String> DATA_FILE_PREFIX = ConfigOption.key("data-file.prefix")
            .stringType()
            .defaultValue("data")
            .perRun()
            .withDescription("Data files are named <prefix>-<uuid>-<n>.parquet. The compaction job sets its own prefix "
                    + "per table handle (compact-<job tag>-a<attempt>) so that it can find and remove the files of a "
                    + "failed attempt that no snapshot references.");

    public static final ConfigOption<String> CHANGELOG_FILE_PREFIX = ConfigOption.key("changelog-file.prefix")
            .stringType()
            .defaultValue("changelog")
            .perRun()
            .withDescription("Changelog files are named <prefix>-<uuid>-<n>.parquet (see data-file.prefix).");
}
