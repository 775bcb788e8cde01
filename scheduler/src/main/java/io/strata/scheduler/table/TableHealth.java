package io.strata.scheduler.table;

import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.system.BucketsTable;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * What one poll of a table finds: its retained snapshots and changelogs, and the LSM shape of
 * every bucket of its latest snapshot. A poll reads the snapshot hints, the latest snapshot's
 * manifests and the changelog directory's listing, never a data file, and keeps one small record
 * per bucket.
 *
 * @param snapshotsRetained snapshots from the earliest to the latest retained (0 before the first commit)
 * @param changelogsRetained changelogs kept beyond their expired snapshots
 * @param buckets one entry per bucket of the latest snapshot
 */
public record TableHealth(
        String table,
        long latestSnapshot,
        long snapshotsRetained,
        long changelogsRetained,
        long liveFiles,
        long liveBytes,
        List<Bucket> buckets) {

    /** One bucket's shape: what a backlog threshold is checked against. */
    public record Bucket(String partition, int bucket, int sortedRuns, int level0Files, int files, long bytes) {}

    public TableHealth {
        buckets = List.copyOf(buckets);
    }

    /** Polls {@code table}; an unreadable snapshot or manifest fails it, naming the table. */
    public static TableHealth probe(FileStoreTable table) {
        OptionalLong latest = table.snapshotManager().latestId();
        if (latest.isEmpty()) {
            return new TableHealth(
                    table.name(), 0, 0, table.context().changelogManager().ids().size(), 0, 0, List.of());
        }
        long earliest = table.snapshotManager().earliestId().orElse(latest.getAsLong());
        List<Bucket> buckets = new ArrayList<>();
        long files = 0;
        long bytes = 0;
        for (BucketsTable.BucketRow r : BucketsTable.rows(table, latest.getAsLong())) {
            int n = r.filesPerLevel.values().stream()
                    .mapToInt(Integer::intValue)
                    .sum();
            buckets.add(new Bucket(r.partition, r.bucket, r.sortedRuns, r.level0Files, n, r.bytes));
            files += n;
            bytes += r.bytes;
        }
        return new TableHealth(
                table.name(),
                latest.getAsLong(),
                latest.getAsLong() - earliest + 1,
                table.context().changelogManager().ids().size(),
                files,
                bytes,
                buckets);
    }

    public int maxSortedRuns() {
        return buckets.stream().mapToInt(Bucket::sortedRuns).max().orElse(0);
    }

    public long totalSortedRuns() {
        return buckets.stream().mapToLong(Bucket::sortedRuns).sum();
    }

    public long level0Files() {
        return buckets.stream().mapToLong(Bucket::level0Files).sum();
    }

    /** Buckets with more sorted runs than {@code maxSortedRuns}. */
    public long bucketsOverSortedRuns(int maxSortedRuns) {
        return buckets.stream().filter(b -> b.sortedRuns() > maxSortedRuns).count();
    }

    /** Buckets with more level-0 files than {@code maxLevel0Files}. */
    public long bucketsOverLevel0Files(int maxLevel0Files) {
        return buckets.stream().filter(b -> b.level0Files() > maxLevel0Files).count();
    }
}
