package io.strata.compaction.rewrite;

import io.strata.compaction.job.FileNames;
import io.strata.storage.compact.CompactPlan;
import io.strata.storage.compact.CompactResult;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.compact.TableCompactor;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.manifest.PartitionBucketFilter;
import io.strata.storage.mergetree.Levels;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.snapshot.SnapshotNotFoundException;
import io.strata.storage.table.FileStoreTable;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Plans and rewrites one bucket outside Flink: the piece the rewrite operator and the committer
 * (when it re-plans a bucket after a conflict) share. Plans from a given snapshot, falling back to
 * the latest when that one has expired; a plan whose inputs are no longer all live in the latest
 * snapshot is stale (another compaction landed first) and is not rewritten.
 */
public final class BucketRewrite {
    private BucketRewrite() {
    }

    /** Rewrites the bucket as planned from {@code snapshotId}; empty when there is nothing (left) to do. */
    public static Optional<CompactionCommittable> run(FileStoreTable table, Object[] partition, int bucket,
                                                      long snapshotId, CompactStrategy strategy) {
        return run(table, partition, bucket, snapshotId, null, strategy);
    }

    /**
     * As {@link #run(FileStoreTable, Object[], int, long, CompactStrategy)}, planning from
     * {@code shippedFiles}, the bucket's files in {@code snapshotId} as the planner read them, instead
     * of reading that snapshot's manifests again; null to read them. Only when the latest snapshot is
     * a later one are its manifests read, to check the plan is not stale.
     */
    public static Optional<CompactionCommittable> run(FileStoreTable table, Object[] partition, int bucket,
                                                      long snapshotId, List<DataFileMeta> shippedFiles,
                                                      CompactStrategy strategy) {
        TableCompactor compactor = table.newCompactor();
        Optional<Snapshot> latest = table.snapshotManager().latest();
        if (latest.isEmpty()) {
            return Optional.empty();
        }
        long fromId;
        Levels levels;
        if (shippedFiles != null && snapshotId > 0 && snapshotId <= latest.get().id()) {
            fromId = snapshotId;
            levels = shippedFiles.isEmpty() ? null : compactor.levelsOf(shippedFiles);
        } else {
            Snapshot from;
            try {
                from = snapshotId > 0 ? table.snapshotManager().snapshot(snapshotId) : latest.get();
            } catch (SnapshotNotFoundException expired) {
                from = latest.get();
            }
            fromId = from.id();
            levels = levelsOf(compactor, table, from, partition, bucket);
        }
        if (levels == null) {
            return Optional.empty();
        }
        Optional<CompactPlan> plan = compactor.planner().plan(partition, bucket, levels, strategy);
        if (plan.isEmpty()) {
            return Optional.empty();
        }
        if (fromId != latest.get().id()) {
            Levels now = levelsOf(compactor, table, latest.get(), partition, bucket);
            if (now == null || !FileNames.of(now.allFiles()).containsAll(FileNames.of(plan.get().inputFiles()))) {
                return Optional.empty();
            }
        }
        long start = System.nanoTime();
        CompactResult result = compactor.rewrite(plan.get());
        return Optional.of(committable(table, strategy, fromId, levels, result,
                (System.nanoTime() - start) / 1_000_000));
    }

    private static Levels levelsOf(TableCompactor compactor, FileStoreTable table, Snapshot s, Object[] partition,
                                   int bucket) {
        PartitionBucketFilter filter = new PartitionBucketFilter(table.schema().typesOf(table.schema().partitionIndexes()));
        filter.add(partition, bucket);
        Map<List<Object>, Levels> all = compactor.levels(s, filter);
        return all.isEmpty() ? null : all.values().iterator().next();
    }

    private static CompactionCommittable committable(FileStoreTable table, CompactStrategy strategy, long snapshotId,
                                                     Levels before, CompactResult r, long millis) {
        CompactionCommittable c = new CompactionCommittable();
        c.table = table.name();
        c.strategy = strategy.name();
        c.plannedFromSnapshot = snapshotId;
        c.setCommitMessage(r.toCommitMessage(table.schema().numBuckets()));
        c.rowsRead = r.rowsRead();
        c.rowsWritten = r.rowsWritten();
        c.bytesRead = r.plan().bytesToRead();
        Set<String> inputs = FileNames.of(r.before());
        c.bytesWritten = r.after().stream().filter(f -> !inputs.contains(f.fileName()))
                .mapToLong(DataFileMeta::fileSize).sum();
        c.changelogRows = r.changelog().stream().mapToLong(DataFileMeta::rowCount).sum();
        Levels after = before.apply(r.before(), r.after());
        c.sortedRunsBefore = before.numberOfSortedRuns();
        c.sortedRunsAfter = after.numberOfSortedRuns();
        c.level0FilesBefore = before.level0().size();
        c.level0FilesAfter = after.level0().size();
        c.rewriteMillis = millis;
        return c;
    }

}
