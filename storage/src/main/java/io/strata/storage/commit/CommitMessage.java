package io.strata.storage.commit;

import io.strata.storage.data.BucketId;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.mergetree.BucketEdit;
import java.util.Arrays;
import java.util.List;

/**
 * What one writer task hands the committer for one (partition, bucket) after
 * {@code prepareCommit()}: files appended by writes, files a compaction replaced and produced,
 * and changelog files. Serializable with {@link CommitMessageSerializer}.
 */
public final class CommitMessage {
    private final Object[] partition;
    private final int bucket;
    private final int totalBuckets;
    private final List<DataFileMeta> appendFiles;
    private final List<DataFileMeta> compactBefore;
    private final List<DataFileMeta> compactAfter;
    private final List<DataFileMeta> changelogFiles;
    private final List<DataFileMeta> compactChangelogFiles;

    public CommitMessage(
            Object[] partition,
            int bucket,
            int totalBuckets,
            List<DataFileMeta> appendFiles,
            List<DataFileMeta> compactBefore,
            List<DataFileMeta> compactAfter,
            List<DataFileMeta> changelogFiles) {
        this(partition, bucket, totalBuckets, appendFiles, compactBefore, compactAfter, changelogFiles, List.of());
    }

    /**
     * @param changelogFiles        changelog of the appended rows (changelog-producer input)
     * @param compactChangelogFiles changelog produced by the compaction (lookup, full-compaction)
     */
    public CommitMessage(
            Object[] partition,
            int bucket,
            int totalBuckets,
            List<DataFileMeta> appendFiles,
            List<DataFileMeta> compactBefore,
            List<DataFileMeta> compactAfter,
            List<DataFileMeta> changelogFiles,
            List<DataFileMeta> compactChangelogFiles) {
        this.partition = partition;
        this.bucket = bucket;
        this.totalBuckets = totalBuckets;
        this.appendFiles = List.copyOf(appendFiles);
        this.compactBefore = List.copyOf(compactBefore);
        this.compactAfter = List.copyOf(compactAfter);
        this.changelogFiles = List.copyOf(changelogFiles);
        this.compactChangelogFiles = List.copyOf(compactChangelogFiles);
    }

    public static CommitMessage append(Object[] partition, int bucket, int totalBuckets, List<DataFileMeta> files) {
        return new CommitMessage(partition, bucket, totalBuckets, files, List.of(), List.of(), List.of());
    }

    /** The message of a dedicated compaction of {@code bucket}: its edit, nothing appended. */
    public static CommitMessage compaction(BucketId bucket, int totalBuckets, BucketEdit edit) {
        return new CommitMessage(
                bucket.partition(),
                bucket.bucket(),
                totalBuckets,
                List.of(),
                edit.deletedFiles(),
                edit.addedFiles(),
                List.of(),
                edit.changelogFiles());
    }

    public static CommitMessage compact(
            Object[] partition, int bucket, int totalBuckets, List<DataFileMeta> before, List<DataFileMeta> after) {
        return new CommitMessage(partition, bucket, totalBuckets, List.of(), before, after, List.of());
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

    public List<DataFileMeta> appendFiles() {
        return appendFiles;
    }

    public List<DataFileMeta> compactBefore() {
        return compactBefore;
    }

    public List<DataFileMeta> compactAfter() {
        return compactAfter;
    }

    public List<DataFileMeta> changelogFiles() {
        return changelogFiles;
    }

    public List<DataFileMeta> compactChangelogFiles() {
        return compactChangelogFiles;
    }

    /** What the compaction part of this message does to the bucket: before, after, its changelog. */
    public BucketEdit compaction() {
        return new BucketEdit(compactBefore, compactAfter, compactChangelogFiles);
    }

    public boolean isEmpty() {
        return appendFiles.isEmpty()
                && compactBefore.isEmpty()
                && compactAfter.isEmpty()
                && changelogFiles.isEmpty()
                && compactChangelogFiles.isEmpty();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof CommitMessage)) {
            return false;
        }
        CommitMessage m = (CommitMessage) o;
        return bucket == m.bucket
                && totalBuckets == m.totalBuckets
                && Arrays.deepEquals(partition, m.partition)
                && appendFiles.equals(m.appendFiles)
                && compactBefore.equals(m.compactBefore)
                && compactAfter.equals(m.compactAfter)
                && changelogFiles.equals(m.changelogFiles)
                && compactChangelogFiles.equals(m.compactChangelogFiles);
    }

    @Override
    public int hashCode() {
        return 31 * bucket + appendFiles.hashCode();
    }

    @Override
    public String toString() {
        return "CommitMessage{partition=" + Arrays.toString(partition) + ", bucket=" + bucket + ", append="
                + appendFiles.size() + ", compactBefore=" + compactBefore.size() + ", compactAfter="
                + compactAfter.size() + ", changelog=" + changelogFiles.size() + ", compactChangelog="
                + compactChangelogFiles.size() + "}";
    }
}
