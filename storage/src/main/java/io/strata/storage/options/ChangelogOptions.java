package io.strata.storage.options;

/** Changelog production for streaming readers. Semantics: docs/DESIGN.md, "Changelog". */
public final class ChangelogOptions {
    private ChangelogOptions() {}

    /** The changelog producers. */
    public enum Producer {
        NONE,
        INPUT,
        LOOKUP,
        FULL_COMPACTION
    }

    public static final ConfigOption<Producer> CHANGELOG_PRODUCER = ConfigOption.key("changelog-producer")
            .enumType(Producer.class)
            .defaultValue(Producer.NONE)
            .definesTable()
            .withDescription("none: incremental reads return each commit's delta files; input: writers also store "
                    + "their input rows as changelog files, per commit sorted by key, sequence.field, arrival; lookup: "
                    + "compactions of level-0 files emit +I/-U/+U/-D by looking up each key's previous value in the "
                    + "higher levels; full-compaction: full compactions emit the difference between the old and the "
                    + "new top level. lookup and full-compaction emit nothing for a key none of whose new records "
                    + "took effect (first-row's later rows, rows losing against sequence.field); see docs/DESIGN.md, "
                    + "Changelog. Defines the table: incremental readers read the changelog of the table's producer.");

    public static final ConfigOption<Long> LOOKUP_CACHE_MAX_DISK_SIZE = ConfigOption.key("lookup.cache-max-disk-size")
            .memoryType()
            .noDefault()
            .positive()
            .perRun()
            .withDescription("lookup: local disk for the lookup files of higher-level data files (a memory-mapped "
                    + "hash index per file, built once and kept across compactions), evicted least recently used "
                    + "beyond this size. Default: unlimited.");

    public static final ConfigOption<Boolean> LOOKUP_WAIT = ConfigOption.key("changelog-producer.lookup-wait")
            .booleanType()
            .defaultValue(true)
            .perRun()
            .withDescription("lookup, writers that compact inline: true: each commit waits for the lookup compaction "
                    + "of the level-0 files it flushed, so it carries the changelog of its own rows. false: lookup "
                    + "compactions run in the background like other inline compactions (the writer waits only at "
                    + "num-sorted-run.stop-trigger) and their changelog is committed with a later commit; "
                    + "TableWrite.prepareLastCommit() at the end of the input waits for them.");

    public static final ConfigOption<Boolean> ROW_DEDUPLICATE = ConfigOption.key("changelog-producer.row-deduplicate")
            .booleanType()
            .defaultValue(false)
            .perRun()
            .withDescription("lookup and full-compaction: drop -U/+U pairs whose values are equal. Without it a "
                    + "record that takes effect but leaves the row as it was (the same row written again) emits an "
                    + "equal pair.");
}
