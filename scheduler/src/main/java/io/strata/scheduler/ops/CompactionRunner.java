package io.strata.scheduler.ops;

import io.strata.scheduler.config.TableSettings.Compaction;
import io.strata.storage.compact.CompactStrategy;

/**
 * Runs one batch compaction job of one table to its end. Called from several operation threads
 * at once; the service that was given a runner closes it when it stops.
 */
public interface CompactionRunner extends AutoCloseable {
    /**
     * Compacts {@code table} ({@code db.name}) with {@code strategy} where {@code placement} says;
     * returns when the job has committed, throws when it fails. An interrupt of the calling thread
     * cancels the job (a cluster job only if its placement says so).
     */
    CompactionReport compact(String table, CompactStrategy strategy, Compaction placement) throws Exception;

    /** Releases what the runner holds (clients of Flink clusters); a runner that holds nothing has nothing to do. */
    @Override
    default void close() throws Exception {}
}
