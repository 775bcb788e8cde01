package io.strata.scheduler.ops;

import io.strata.storage.compact.CompactStrategy;
import java.util.List;

/**
 * What a compaction job did to one table: the buckets it rewrote, their sorted runs before its
 * first rewrite and after its last (summed over those buckets), the rows its rewrites read (every
 * rewrite, a bucket re-planned beside a writer counted each time), and the snapshots it committed.
 */
public record CompactionReport(
        String table,
        CompactStrategy strategy,
        int buckets,
        int sortedRunsBefore,
        int sortedRunsAfter,
        long rowsCompacted,
        List<String> committedSnapshots,
        int conflicts) {

    @Override
    public String toString() {
        return strategy.name().toLowerCase() + " compaction of " + table + ": " + buckets + " buckets, sorted runs "
                + sortedRunsBefore + " -> " + sortedRunsAfter + ", committed "
                + (committedSnapshots.isEmpty() ? "nothing" : String.join(", ", committedSnapshots))
                + (conflicts > 0 ? ", " + conflicts + " conflicts re-planned" : "");
    }
}
