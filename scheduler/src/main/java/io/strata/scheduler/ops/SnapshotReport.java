package io.strata.scheduler.ops;

import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.PartitionPath;
import io.strata.storage.manifest.FileKind;
import io.strata.storage.manifest.ManifestEntry;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.snapshot.SnapshotManager;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.system.BucketsTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The report of a compaction job whose events this process does not see (a job on a Flink
 * cluster), read from the table: {@link #before} takes the table's shape when the job is
 * submitted, {@link #after} finds the job's snapshots (those its commit user published since), the
 * buckets their deltas change, and those buckets' sorted runs in the job's last snapshot. Unlike
 * the embedded report, "before" is the shape at submission, not at planning: a writer's commit in
 * between counts in it, and in "after" when it landed before the job's last commit.
 */
final class SnapshotReport {
    private final FileStoreTable table;
    /** The latest snapshot at submission; 0 before the first commit. */
    private final long base;
    /** Sorted runs per bucket key in {@link #base}. */
    private final Map<String, Integer> runsBefore;

    private SnapshotReport(FileStoreTable table, long base, Map<String, Integer> runsBefore) {
        this.table = table;
        this.base = base;
        this.runsBefore = runsBefore;
    }

    /** The shape of {@code table} now (its latest snapshot's manifests), before a job is submitted. */
    static SnapshotReport before(FileStoreTable table) {
        long base = table.snapshotManager().latestId().orElse(0);
        return new SnapshotReport(table, base, base == 0 ? Map.of() : sortedRuns(table, base));
    }

    /**
     * What the job of {@code commitUser} committed since {@link #before}.
     *
     * @param conflicts the job's commits that met only conflicts, as the job reported them
     */
    CompactionReport after(String name, String commitUser, CompactStrategy strategy, int conflicts) {
        SnapshotManager snapshots = table.snapshotManager();
        long latest = snapshots.latestId().orElse(0);
        List<Snapshot> ours = new ArrayList<>();
        for (long id = base + 1; id <= latest; id++) {
            // one expired meanwhile was not the job's last, which is the latest or younger than it
            if (snapshots.exists(id)) {
                Snapshot s = snapshots.snapshot(id);
                if (commitUser.equals(s.commitUser())) {
                    ours.add(s);
                }
            }
        }
        if (ours.isEmpty()) {
            return new CompactionReport(name, strategy, 0, 0, 0, 0, List.of(), conflicts);
        }
        List<String> keys = table.schema().partitionKeys();
        var types = table.schema().typesOf(table.schema().partitionIndexes());
        Set<String> buckets = new LinkedHashSet<>();
        List<String> committed = new ArrayList<>();
        // rows compacted: the rows of the files the job's commits replaced
        long rowsCompacted = 0;
        for (Snapshot s : ours) {
            committed.add(String.valueOf(s.id()));
            for (ManifestEntry e : table.manifests().scanner().entries(s.deltaManifestList())) {
                buckets.add(bucketKey(PartitionPath.display(keys, types, e.partition()), e.bucket()));
                if (e.kind() == FileKind.DELETE) {
                    rowsCompacted += e.file().rowCount();
                }
            }
        }
        Map<String, Integer> runsAfter =
                sortedRuns(table, ours.get(ours.size() - 1).id());
        int before = 0;
        int after = 0;
        for (String b : buckets) {
            before += runsBefore.getOrDefault(b, 0);
            after += runsAfter.getOrDefault(b, 0);
        }
        return new CompactionReport(
                name, strategy, buckets.size(), before, after, rowsCompacted, List.copyOf(committed), conflicts);
    }

    private static Map<String, Integer> sortedRuns(FileStoreTable table, long snapshot) {
        Map<String, Integer> runs = new HashMap<>();
        for (BucketsTable.BucketRow r : BucketsTable.rows(table, snapshot)) {
            runs.put(bucketKey(r.partition, r.bucket), r.sortedRuns);
        }
        return runs;
    }

    private static String bucketKey(String partition, int bucket) {
        return partition + "/" + bucket;
    }
}
