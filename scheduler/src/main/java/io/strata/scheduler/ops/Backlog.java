package io.strata.scheduler.ops;

import io.strata.scheduler.config.TableSettings.BacklogCompaction;
import io.strata.scheduler.table.TableHealth;
import io.strata.storage.table.FileStoreTable;
import java.util.Optional;

/**
 * The compaction backlog of a table's latest snapshot, read from its manifests only (no data
 * file): the worst bucket's sorted runs and level-0 files, and how many buckets exceed the
 * thresholds.
 */
public record Backlog(long snapshotId, int buckets, int bucketsOver, int maxSortedRuns, int maxLevel0Files) {

    /** The backlog of {@code table}'s latest snapshot; empty when it has none. */
    public static Optional<Backlog> of(FileStoreTable table, BacklogCompaction thresholds) {
        return of(TableHealth.probe(table), thresholds);
    }

    /** The backlog a poll found; empty before the table's first snapshot. */
    public static Optional<Backlog> of(TableHealth health, BacklogCompaction thresholds) {
        if (health.latestSnapshot() == 0) {
            return Optional.empty();
        }
        int over = 0;
        int level0 = 0;
        for (TableHealth.Bucket b : health.buckets()) {
            level0 = Math.max(level0, b.level0Files());
            if (b.sortedRuns() > thresholds.maxSortedRuns() || b.level0Files() > thresholds.maxLevel0Files()) {
                over++;
            }
        }
        return Optional.of(
                new Backlog(health.latestSnapshot(), health.buckets().size(), over, health.maxSortedRuns(), level0));
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
