package io.strata.storage.options;

/** Compaction of a bucket's LSM tree: universal strategy triggers, levels, rewriting. Names and defaults follow Paimon's. */
public final class CompactionOptions {
    private CompactionOptions() {}

    public static final ConfigOption<Integer> COMPACTION_TRIGGER = ConfigOption.key("num-sorted-run.compaction-trigger")
            .intType()
            .defaultValue(5)
            .between(1, 1000)
            .perRun()
            .withDescription("Sorted runs of a bucket above which compaction must pick runs (level-0 files count one "
                    + "each, every other level one).");

    public static final ConfigOption<Integer> STOP_TRIGGER = ConfigOption.key("num-sorted-run.stop-trigger")
            .intType()
            .derivedDefault("num-sorted-run.compaction-trigger + 3", o -> o.get(COMPACTION_TRIGGER) + 3)
            .atLeast(1)
            .perRun()
            .withDescription("Sorted runs at which a writer that compacts inline waits for compaction.");

    /**
     * Table-defining: the top level is where full compactions write and what the full-compaction
     * changelog producer compares against; writers that disagree on it would emit the changelog
     * of rows already emitted again.
     */
    public static final ConfigOption<Integer> NUM_LEVELS = ConfigOption.key("num-levels")
            .intType()
            .derivedDefault("num-sorted-run.compaction-trigger + 1", o -> o.get(COMPACTION_TRIGGER) + 1)
            .between(2, 1024)
            .definesTable()
            .withDescription("Levels of a bucket's LSM tree (0 .. num-levels - 1). The default is derived from the "
                    + "table's trigger: a run that changes the trigger keeps the table's levels.");

    public static final ConfigOption<Integer> MAX_SIZE_AMPLIFICATION_PERCENT = ConfigOption.key(
                    "compaction.max-size-amplification-percent")
            .intType()
            .defaultValue(200)
            .atLeast(0)
            .perRun()
            .withDescription("Full compaction when the runs above the oldest one hold more than this percentage "
                    + "of the oldest run's size.");

    public static final ConfigOption<Integer> SIZE_RATIO = ConfigOption.key("compaction.size-ratio")
            .intType()
            .defaultValue(1)
            .atLeast(0)
            .perRun()
            .withDescription("Percentage of flexibility when comparing adjacent sorted run sizes: a run joins the "
                    + "candidates if their total size * (100 + ratio) / 100 is at least its size.");

    public static final ConfigOption<Double> SMALL_FILE_RATIO = ConfigOption.key("compaction.small-file-ratio")
            .doubleType()
            .defaultValue(0.7)
            .between(0.0, 1.0)
            .perRun()
            .withDescription("A file alone in its section is moved up a level without rewriting (metadata only) unless "
                    + "it is smaller than this ratio of target-file-size; small ones are rewritten together.");

    /** How the lookup strategy forces level-0 files up. */
    public enum LookupCompact {
        RADICAL,
        GENTLE
    }

    public static final ConfigOption<LookupCompact> LOOKUP_COMPACT = ConfigOption.key("lookup-compact")
            .enumType(LookupCompact.class)
            .defaultValue(LookupCompact.RADICAL)
            .perRun()
            .withDescription("Lookup strategy (changelog-producer lookup): radical forces level-0 files up at every "
                    + "compaction, so every commit's changelog comes with it; gentle compacts like minor and forces "
                    + "level-0 files up only every lookup-compact.max-interval triggers, trading changelog latency "
                    + "for less write amplification.");

    public static final ConfigOption<Integer> LOOKUP_COMPACT_MAX_INTERVAL = ConfigOption.key(
                    "lookup-compact.max-interval")
            .intType()
            .derivedDefault("num-sorted-run.compaction-trigger * 2", o -> o.get(COMPACTION_TRIGGER) * 2)
            .atLeast(1)
            .perRun()
            .withDescription(
                    "Gentle lookup: most compaction triggers (flushes) between two forced level-0 " + "compactions.");

    public static final ConfigOption<Integer> SORT_SPILL_THRESHOLD = ConfigOption.key("sort-spill-threshold")
            .intType()
            .noDefault()
            .atLeast(2)
            .perRun()
            .withDescription("Most sorted runs a merge (compaction, changelog, merge-on-read) opens at once; unset, as "
                    + "many as sort-spill-memory allows. A merge of more runs first merges adjacent runs into local "
                    + "spill files.");

    public static final ConfigOption<Long> SORT_SPILL_MEMORY = ConfigOption.key("sort-spill-memory")
            .memoryType()
            .defaultValue(256L << 20)
            .positive()
            .perRun()
            .withDescription("Most read memory, estimated, of the sorted runs a merge opens at once: an open run holds "
                    + "one row group of its current file and its decoding state, estimated as four times the largest "
                    + "file of the run, up to file.block-size. A merge of runs that do not fit first merges the fewest bytes of adjacent "
                    + "runs into local spill files (two runs are always merged at once, whatever their size), so "
                    + "compaction memory does not grow with the number of runs.");
}
