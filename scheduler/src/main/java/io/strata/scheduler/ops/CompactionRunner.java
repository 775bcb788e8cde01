package io.strata.scheduler.ops;

import io.strata.scheduler.config.TableSettings.Compaction;
import io.strata.storage.compact.CompactStrategy;

/** Runs one batch compaction job of one table to its end. */
public interface CompactionRunner {
    /**
     * Compacts {@code table} ({@code db.name}) with {@code strategy}; returns when the job has
     * committed, throws when it fails. An interrupt of the calling thread cancels the job.
     */
    CompactionReport compact(String table, CompactStrategy strategy, Compaction placement) throws Exception;
}
