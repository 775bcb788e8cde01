package io.strata.compaction.rewrite;

import io.strata.compaction.source.CompactionWork;
import io.strata.storage.compact.BucketPlan;
import io.strata.storage.compact.CompactResult;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.compact.TableCompactor;
import io.strata.storage.data.BucketId;
import io.strata.storage.data.PartitionPath;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.mergetree.BucketEdit;
import io.strata.storage.mergetree.Levels;
import io.strata.storage.table.FileStoreTable;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Runs one unit of work outside Flink: the engine plans the bucket again from the work's snapshot
 * (from the files the planner shipped, when it did), drops it when the plan is stale against the
 * latest snapshot, and rewrites it; the result is described for the committer and the metrics.
 */
public final class BucketRewrite {
    private BucketRewrite() {}

    /** @return empty when there is nothing (left) to do: another compaction landed first */
    public static Optional<CompactionCommittable> run(FileStoreTable table, CompactionWork work) {
        TableCompactor compactor = table.newCompactor();
        BucketId bucket = work.bucketId();
        CompactStrategy strategy = work.strategyValue();
        Optional<List<DataFileMeta>> shipped = work.filesValue();
        Optional<BucketPlan> plan = shipped.isPresent()
                ? compactor.planBucket(bucket, work.snapshotId, shipped.get(), strategy)
                : compactor.planBucket(bucket, work.snapshotId, strategy);
        if (plan.isEmpty()) {
            return Optional.empty();
        }
        long start = System.nanoTime();
        CompactResult result = compactor.rewrite(plan.get());
        return Optional.of(committable(table, strategy, plan.get(), result, (System.nanoTime() - start) / 1_000_000));
    }

    /**
     * The failure of {@code work}'s rewrite: table, partition and bucket first, then the engine's
     * message (which names the file it could not read or write) and, when the root cause says
     * something else, that too.
     */
    public static CompactionCommittable failure(FileStoreTable table, CompactionWork work, Throwable e) {
        BucketId bucket = work.bucketId();
        String partition = PartitionPath.display(
                table.schema().partitionKeys(),
                table.schema().typesOf(table.schema().partitionIndexes()),
                bucket.partition());
        String where = "table " + table.name() + (partition.isEmpty() ? "" : ", partition " + partition) + ", bucket "
                + bucket.bucket();
        return CompactionCommittable.failed(
                table.name(), partition, bucket.bucket(), where + ": " + causeOf(e, table.name(), bucket.bucket()));
    }

    private static String causeOf(Throwable e, String tableName, int bucket) {
        String message = e.getMessage() == null ? e.getClass().getName() : e.getMessage();
        String top = withoutPrefix(message, "table " + tableName + ": ");
        // the engine's wrapper of a file system error says again what the message starts with
        top = withoutPrefix(top, "compaction of bucket " + bucket + " failed: ");
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String rootName = root.getClass().getSimpleName();
        String rootMessage = root.getMessage();
        if (rootMessage == null || rootMessage.isBlank() || rootMessage.endsWith(rootName)) {
            // nothing but the class: worth adding only when the message does not name it already
            return top.contains(rootName) ? top : top + " (cause: " + rootName + ")";
        }
        return top.contains(rootMessage) ? top : top + " (cause: " + rootName + ": " + rootMessage + ")";
    }

    private static String withoutPrefix(String message, String prefix) {
        return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
    }

    private static CompactionCommittable committable(
            FileStoreTable table, CompactStrategy strategy, BucketPlan plan, CompactResult r, long millis) {
        CompactionCommittable c = new CompactionCommittable();
        c.table = table.name();
        c.strategy = strategy.name();
        c.plannedFromSnapshot = plan.snapshotId();
        c.setCommitMessage(r.toCommitMessage(table.schema().numBuckets()));
        c.rowsRead = r.rowsRead();
        c.rowsWritten = r.rowsWritten();
        c.bytesRead = plan.plan().bytesToRead();
        BucketEdit edit = r.edit();
        Set<String> inputs = new HashSet<>();
        edit.deletedFiles().forEach(f -> inputs.add(f.fileName()));
        c.bytesWritten = edit.addedFiles().stream()
                .filter(f -> !inputs.contains(f.fileName()))
                .mapToLong(DataFileMeta::fileSize)
                .sum();
        c.changelogRows =
                edit.changelogFiles().stream().mapToLong(DataFileMeta::rowCount).sum();
        Levels before = plan.plan().levels();
        Levels after = before.apply(edit.deletedFiles(), edit.addedFiles());
        c.sortedRunsBefore = before.numberOfSortedRuns();
        c.sortedRunsAfter = after.numberOfSortedRuns();
        c.level0FilesBefore = before.level0().size();
        c.level0FilesAfter = after.level0().size();
        c.rewriteMillis = millis;
        return c;
    }
}
