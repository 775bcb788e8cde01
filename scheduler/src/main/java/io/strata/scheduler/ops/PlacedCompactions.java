package io.strata.scheduler.ops;

import io.strata.scheduler.config.TableSettings.Compaction;
import io.strata.storage.compact.CompactStrategy;
import java.io.File;

/**
 * The scheduler's runner: each compaction goes where its table's placement says, to the embedded
 * runner or to the Flink cluster runner. Closing it closes both.
 */
public final class PlacedCompactions implements CompactionRunner {
    private final CompactionRunner embedded;
    private final CompactionRunner cluster;

    public PlacedCompactions(CompactionRunner embedded, CompactionRunner cluster) {
        this.embedded = embedded;
        this.cluster = cluster;
    }

    /** Compactions of {@code warehouse}: embedded ones with {@code scratchDir} for their savepoints. */
    public static PlacedCompactions of(String warehouse, File scratchDir) {
        return new PlacedCompactions(
                new EmbeddedCompactionRunner(warehouse, scratchDir), new RestCompactionRunner(warehouse));
    }

    @Override
    public CompactionReport compact(String table, CompactStrategy strategy, Compaction placement) throws Exception {
        return switch (placement.runsOn()) {
            case EMBEDDED -> embedded.compact(table, strategy, placement);
            case REST -> cluster.compact(table, strategy, placement);
        };
    }

    @Override
    public void close() throws Exception {
        try {
            cluster.close();
        } finally {
            embedded.close();
        }
    }
}
