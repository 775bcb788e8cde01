package io.strata.storage.options;

/** Manifest files and their compaction. */
public final class ManifestOptions {
    private ManifestOptions() {}

    public static final ConfigOption<Long> TARGET_FILE_SIZE = ConfigOption.key("manifest.target-file-size")
            .memoryType()
            .defaultValue(8L << 20)
            .positive()
            .perRun()
            .withDescription("Manifest files are rolled at about this size.");

    public static final ConfigOption<Integer> MERGE_MIN_COUNT = ConfigOption.key("manifest.merge-min-count")
            .intType()
            .defaultValue(30)
            .atLeast(1)
            .perRun()
            .withDescription("When a snapshot's base manifest list holds at least this many manifests smaller than the "
                    + "target size, they are merged into fewer.");

    public static final ConfigOption<Integer> FULL_COMPACTION_GARBAGE_PERCENT = ConfigOption.key(
                    "manifest.full-compaction-garbage-percent")
            .intType()
            .defaultValue(100)
            .atLeast(0)
            .perRun()
            .withDescription("When entries that no longer describe a live file (DELETE entries and the ADD "
                    + "entries they cancel) exceed this percentage of live files (and 1,000 entries), all "
                    + "manifests are rewritten with live files only, so planning cost follows live files.");
}
