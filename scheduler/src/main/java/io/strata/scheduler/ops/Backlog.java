package io.strata.scheduler.ops;

import io.strata.scheduler.config.TableSettings.BacklogCompaction;
import io.strata.storage.data.BucketId;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.mergetree.Levels;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.table.FileStoreTable;
import java.util.Map;
import java.util.Optional;

/**
 * The compaction backlog of a table's latest snapshot, read from its manifests only (no data
 * file): the worst bucket's sorted runs and level-0 files, and how many buckets exceed the
 * thresholds.
 */
public record Backlog(long snapshotId, int buckets, int bucketsOver, int maxSortedRuns, int maxLevel0Files) {

    /** The backlog of {@code table}'s latest snapshot; empty when it has none. */
    public static Optional<Backlog> of(FileStoreTable table, BacklogCompaction thresholds) {
        Optional<Snapshot> latest = table.snapshotManager().latest();
        if (latest.isEmpty()) {
            return Optional.empty();
        }
        Map<BucketId, Levels> levels = table.newCompactor().levels(latest.get(), EntryFilter.ALL);
        int over = 0;
        int runs = 0;
        int level0 = 0;
        for (Levels l : levels.values()) {
            int r = l.numberOfSortedRuns();
            int z = l.level0().size();
            runs = Math.max(runs, r);
            level0 = Math.max(level0, z);
            if (r > thresholds.maxSortedRuns() || z > thresholds.maxLevel0Files()) {
                over++;
            }
        }
        return Optional.of(new Backlog(latest.get().id(), levels.size(), over, runs, level0));
    }

    public boolean exceeds() {
        return bucketsOver > 0;
    }

    @Override
    public String toString() {
        return "snapshot " + snapshotId + ": " + bucketsOver + " of " + buckets + " buckets over the thresholds (max "
                + maxSortedRuns + " sorted runs, " + maxLevel0Files + " level-0 files)";
    }
}
