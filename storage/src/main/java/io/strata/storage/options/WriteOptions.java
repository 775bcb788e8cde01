package io.strata.storage.options;

/** The write path: write buffer, spilling, data file size. */
public final class WriteOptions {
    private WriteOptions() {}

    public static final ConfigOption<Long> WRITE_BUFFER_SIZE = ConfigOption.key("write-buffer-size")
            .memoryType()
            .defaultValue(256L << 20)
            .positive()
            .perRun()
            .withDescription(
                    "Memory for buffered rows of one writer, shared by all of its buckets. When it is full the "
                            + "largest bucket buffer is spilled to local disk (write-buffer-spillable) or flushed as a level-0 file.");

    public static final ConfigOption<Boolean> WRITE_BUFFER_SPILLABLE = ConfigOption.key("write-buffer-spillable")
            .booleanType()
            .defaultValue(true)
            .perRun()
            .withDescription(
                    "Spill a full write buffer to local disk as a sorted run instead of flushing a level-0 file; "
                            + "all spilled runs of a bucket are merged into one level-0 sorted run at prepareCommit. The input "
                            + "rows kept for changelog-producer=input spill to local disk either way, so that a commit's "
                            + "changelog is one sorted run.");

    public static final ConfigOption<String> SPILL_DIR = ConfigOption.key("write-buffer-spill.dir")
            .stringType()
            .noDefault()
            .perRun()
            .withDescription("Local directory for spilled write buffers, merge spills and lookup files, kept in a "
                    + "directory per process (strata-spill/strata-<pid>-<start time>) and deleted when no longer "
                    + "needed; the first use by a process removes what processes no longer running left there. "
                    + "Default: java.io.tmpdir.");

    public static final ConfigOption<Long> TARGET_FILE_SIZE = ConfigOption.key("target-file-size")
            .memoryType()
            .defaultValue(128L << 20)
            .positive()
            .perRun()
            .withDescription("Data files are rolled when they reach about this size.");

    public static final ConfigOption<Integer> FLUSH_THREADS = ConfigOption.key("write.flush-threads")
            .intType()
            .defaultValue(0)
            .atLeast(0)
            .perRun()
            .withDescription("Threads that flush the buckets of one writer in parallel at prepareCommit (sorting and "
                    + "Parquet encoding). 0: the number of available processors.");

    public static final ConfigOption<Boolean> WRITE_ONLY = ConfigOption.key("write-only")
            .booleanType()
            .defaultValue(false)
            .perRun()
            .withDescription("The writer never compacts: every prepareCommit adds one level-0 sorted run per touched "
                    + "bucket and compaction is left to a dedicated job. Otherwise the writer compacts each bucket "
                    + "inline, in one background thread, and waits when a bucket reaches num-sorted-run.stop-trigger "
                    + "sorted runs. Never combine inline compaction with a dedicated compaction job on one table.");
}
