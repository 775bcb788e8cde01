package io.strata.storage.table.system;

import io.strata.storage.data.PartitionPath;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.manifest.ManifestEntry;
import io.strata.storage.schema.DataType;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.table.FileStoreTable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** Like Paimon's {@code $files}: the live data files of a snapshot with their metadata. */
public final class FilesTable {
    private FilesTable() {}

    /** One live file. */
    public static final class FileRow {
        /** {@link PartitionPath#display}: empty for an unpartitioned table. */
        public final String partition;

        public final int bucket;
        public final DataFileMeta file;

        FileRow(String partition, int bucket, DataFileMeta file) {
            this.partition = partition;
            this.bucket = bucket;
            this.file = file;
        }
    }

    /** The live files of {@code snapshot} (or of the latest one if null), by partition, bucket, level, key. */
    public static List<FileRow> rows(FileStoreTable table, Long snapshotId) {
        Optional<Snapshot> s = snapshotId == null
                ? table.snapshotManager().latest()
                : Optional.of(table.snapshotManager().snapshot(snapshotId));
        List<FileRow> out = new ArrayList<>();
        if (s.isEmpty()) {
            return out;
        }
        List<String> keys = table.schema().partitionKeys();
        List<DataType> types = table.schema().typesOf(table.schema().partitionIndexes());
        for (ManifestEntry e : table.manifests().scanner().scan(s.get().baseManifestList(), EntryFilter.ALL)) {
            out.add(new FileRow(PartitionPath.display(keys, types, e.partition()), e.bucket(), e.file()));
        }
        out.sort(Comparator.<FileRow, String>comparing(r -> r.partition)
                .thenComparingInt(r -> r.bucket)
                .thenComparingInt(r -> r.file.level())
                .thenComparingLong(r -> r.file.minSequence()));
        return out;
    }
}
