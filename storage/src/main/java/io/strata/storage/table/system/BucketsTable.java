package io.strata.storage.table.system;

import io.strata.storage.data.ValueComparators;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.mergetree.SortedRuns;
import io.strata.storage.table.FileStoreTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Like Paimon's {@code $buckets}: per partition and bucket, the LSM shape operators watch
 * (sorted runs, files per level, level-0 files) and its size.
 */
public final class BucketsTable {
    private BucketsTable() {}

    /** One bucket. */
    public static final class BucketRow {
        public final String partition;
        public final int bucket;
        public final int sortedRuns;
        public final Map<Integer, Integer> filesPerLevel;
        public final int level0Files;
        public final long rows;
        public final long bytes;
        public final long minSequence;
        public final long maxSequence;

        BucketRow(
                String partition,
                int bucket,
                int sortedRuns,
                Map<Integer, Integer> filesPerLevel,
                long rows,
                long bytes,
                long minSequence,
                long maxSequence) {
            this.partition = partition;
            this.bucket = bucket;
            this.sortedRuns = sortedRuns;
            this.filesPerLevel = filesPerLevel;
            this.level0Files = filesPerLevel.getOrDefault(0, 0);
            this.rows = rows;
            this.bytes = bytes;
            this.minSequence = minSequence;
            this.maxSequence = maxSequence;
        }
    }

    public static List<BucketRow> rows(FileStoreTable table, Long snapshotId) {
        Map<String, List<FilesTable.FileRow>> groups = new LinkedHashMap<>();
        for (FilesTable.FileRow f : FilesTable.rows(table, snapshotId)) {
            groups.computeIfAbsent(f.partition + "\u0000" + f.bucket, k -> new ArrayList<>())
                    .add(f);
        }
        List<BucketRow> out = new ArrayList<>();
        var keyComparator =
                ValueComparators.forTuple(table.schema().typesOf(table.schema().primaryKeyIndexes()));
        for (List<FilesTable.FileRow> g : groups.values()) {
            List<DataFileMeta> files = new ArrayList<>();
            Map<Integer, Integer> perLevel = new TreeMap<>();
            long rows = 0;
            long bytes = 0;
            long minSeq = Long.MAX_VALUE;
            long maxSeq = Long.MIN_VALUE;
            for (FilesTable.FileRow f : g) {
                files.add(f.file);
                perLevel.merge(f.file.level(), 1, Integer::sum);
                rows += f.file.rowCount();
                bytes += f.file.fileSize();
                minSeq = Math.min(minSeq, f.file.minSequence());
                maxSeq = Math.max(maxSeq, f.file.maxSequence());
            }
            int runs = table.schema().hasPrimaryKey()
                    ? SortedRuns.of(files, keyComparator).size()
                    : files.size();
            out.add(new BucketRow(g.get(0).partition, g.get(0).bucket, runs, perLevel, rows, bytes, minSeq, maxSeq));
        }
        return out;
    }
}
