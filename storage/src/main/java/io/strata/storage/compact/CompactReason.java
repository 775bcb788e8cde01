package io.strata.storage.compact;

/** Why a picker chose runs, for plans, logs and metrics (like RocksDB's CompactionReason). */
public enum CompactReason {
    /** The runs above the oldest exceed compaction.max-size-amplification-percent of it: everything. */
    SIZE_AMPLIFICATION,
    /** Adjacent runs of similar size (compaction.size-ratio). */
    SIZE_RATIO,
    /** More sorted runs than num-sorted-run.compaction-trigger. */
    RUN_COUNT,
    /** A full compaction was asked for. */
    FULL,
    /** The lookup strategy forces level-0 files up. */
    FORCE_LEVEL0
}
