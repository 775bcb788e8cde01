package io.strata.storage.manifest;

import io.strata.storage.data.BucketId;
import io.strata.storage.format.DataFileMeta;
import java.util.Arrays;

/**
 * One line of a manifest: a file of a partition and bucket was added or deleted. A file is live
 * in a snapshot when its ADD is in the snapshot's base manifest list and no DELETE for it is.
 */
public final class ManifestEntry {
    private final FileKind kind;
    private final Object[] partition;
    private final int bucket;
    private final int totalBuckets;
    private final DataFileMeta file;

    public ManifestEntry(FileKind kind, Object[] partition, int bucket, int totalBuckets, DataFileMeta file) {
        this.kind = kind;
        this.partition = partition;
        this.bucket = bucket;
        this.totalBuckets = totalBuckets;
        this.file = file;
    }

    public FileKind kind() {
        return kind;
    }

    public Object[] partition() {
        return partition;
    }

    public int bucket() {
        return bucket;
    }

    public BucketId bucketId() {
        return BucketId.of(partition, bucket);
    }

    public int totalBuckets() {
        return totalBuckets;
    }

    public DataFileMeta file() {
        return file;
    }

    /** Identifies the file across ADD and DELETE entries. */
    public Identifier identifier() {
        return new Identifier(partition, bucket, file.level(), file.fileName());
    }

    /**
     * (partition, bucket, level, file name). The name alone is unique per table (it carries a
     * random uuid); the level is part of the identity because a compaction may move a file to
     * another level without rewriting it (DELETE at the old level, ADD at the new one).
     */
    public static final class Identifier {
        private final Object[] partition;
        private final int bucket;
        private final int level;
        private final String fileName;

        public Identifier(Object[] partition, int bucket, int level, String fileName) {
            this.partition = partition;
            this.bucket = bucket;
            this.level = level;
            this.fileName = fileName;
        }

        public String fileName() {
            return fileName;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Identifier)) {
                return false;
            }
            Identifier i = (Identifier) o;
            return bucket == i.bucket
                    && level == i.level
                    && fileName.equals(i.fileName)
                    && Arrays.deepEquals(partition, i.partition);
        }

        @Override
        public int hashCode() {
            return fileName.hashCode() * 31 + bucket;
        }

        @Override
        public String toString() {
            return Arrays.toString(partition) + "/bucket-" + bucket + "/" + fileName + "@level-" + level;
        }
    }

    @Override
    public String toString() {
        return kind + " " + identifier() + " level=" + file.level();
    }
}
