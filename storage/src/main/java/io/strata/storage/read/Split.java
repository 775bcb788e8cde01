package io.strata.storage.read;

import io.strata.storage.format.DataFileMeta;
import java.util.Arrays;
import java.util.List;

/** The files of one bucket of one snapshot that a reader merges together. */
public final class Split {
    private final long snapshotId;
    private final Object[] partition;
    private final int bucket;
    private final List<DataFileMeta> files;

    public Split(long snapshotId, Object[] partition, int bucket, List<DataFileMeta> files) {
        this.snapshotId = snapshotId;
        this.partition = partition;
        this.bucket = bucket;
        this.files = List.copyOf(files);
    }

    public long snapshotId() {
        return snapshotId;
    }

    public Object[] partition() {
        return partition;
    }

    public int bucket() {
        return bucket;
    }

    public List<DataFileMeta> files() {
        return files;
    }

    public long rowCount() {
        long n = 0;
        for (DataFileMeta f : files) {
            n += f.rowCount();
        }
        return n;
    }

    @Override
    public String toString() {
        return "Split{snapshot=" + snapshotId + ", partition=" + Arrays.toString(partition) + ", bucket=" + bucket
                + ", files=" + files.size() + "}";
    }
}
