package io.strata.compaction.source;

import io.strata.storage.commit.CommitMessageSerializer;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.BucketId;
import io.strata.storage.data.ValueCodec;
import io.strata.storage.format.DataFileMeta;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * One unit of compaction work: a bucket of a table, to be planned with {@code strategy} from
 * snapshot {@code snapshotId}. The planner decided there is something to do there; the rewriter
 * re-derives the identical plan from the same snapshot (planning is pure). It is both the source's
 * split and the record the source emits.
 *
 * <p>The planner also ships the bucket's files as it read them from {@code snapshotId}'s manifests
 * ({@link #files}), so that the rewriter plans without reading the manifests again: that read,
 * repeated by every subtask before every bucket, delayed each rewrite by 5-25 ms, longest while the
 * other subtasks were rewriting. The list is an optimisation, never needed for correctness: a work
 * without it (too large to ship, or from a re-plan) reads the manifests as before.
 *
 * <p>A Flink POJO: public fields and a no-argument constructor.
 */
public final class CompactionWork implements SourceSplit {
    /** File lists above this size (about 3,000 files) are not shipped: the rewriter reads the manifests. */
    static final int MAX_SHIPPED_FILES_BYTES = 1 << 20;

    public String table;
    /** The partition values, {@link ValueCodec#encodeTuple encoded}. */
    public byte[] partition;

    public int bucket;
    public long snapshotId;
    public String strategy;
    /**
     * The bucket's files in {@code snapshotId}: the commit-message serializer's version (an int),
     * then its {@link CommitMessageSerializer#writeFiles file list}; null when not shipped.
     */
    public byte[] files;

    public CompactionWork() {}

    public CompactionWork(String table, BucketId bucket, long snapshotId, CompactStrategy strategy) {
        this.table = table;
        this.partition = ValueCodec.encodeTuple(bucket.partition());
        this.bucket = bucket.bucket();
        this.snapshotId = snapshotId;
        this.strategy = strategy.name();
    }

    /**
     * Ships {@code bucketFiles}, every file of the bucket in {@code snapshotId}, unless their encoded
     * form exceeds {@link #MAX_SHIPPED_FILES_BYTES}. Returns this.
     */
    public CompactionWork withFiles(List<DataFileMeta> bucketFiles) {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bos)) {
            out.writeInt(CommitMessageSerializer.CURRENT_VERSION);
            CommitMessageSerializer.writeFiles(out, bucketFiles);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode the files of " + this, e); // in memory: does not happen
        }
        this.files = bos.size() <= MAX_SHIPPED_FILES_BYTES ? bos.toByteArray() : null;
        return this;
    }

    /** The shipped files of the bucket in {@code snapshotId}; empty when none were shipped. */
    public Optional<List<DataFileMeta>> filesValue() {
        if (files == null) {
            return Optional.empty();
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(files))) {
            int version = in.readInt();
            if (version != CommitMessageSerializer.CURRENT_VERSION) {
                throw new IOException("unknown file list version " + version + " (this build reads "
                        + CommitMessageSerializer.CURRENT_VERSION + ")");
            }
            List<DataFileMeta> list = CommitMessageSerializer.readFiles(in);
            if (in.available() != 0) {
                throw new IOException(in.available() + " trailing bytes");
            }
            return Optional.of(list);
        } catch (IOException e) {
            throw new UncheckedIOException("corrupt file list of compaction work " + this + ": " + e.getMessage(), e);
        }
    }

    public BucketId bucketId() {
        try {
            return BucketId.of(ValueCodec.decodeTuple(partition), bucket);
        } catch (IOException e) {
            throw new UncheckedIOException("corrupt partition of compaction work " + this, e);
        }
    }

    public CompactStrategy strategyValue() {
        return CompactStrategy.parse(strategy);
    }

    /**
     * Identifies the bucket (not the snapshot): at most one work per bucket is in flight. The table's
     * name, a '/', the bucket's {@link BucketId#key() stable key}.
     */
    public String bucketKey() {
        return bucketKey(table, bucketId());
    }

    public static String bucketKey(String table, BucketId bucket) {
        return table + "/" + bucket.key();
    }

    @Override
    public String splitId() {
        return bucketKey() + "@" + snapshotId;
    }

    @Override
    public String toString() {
        String p;
        try {
            p = Arrays.toString(ValueCodec.decodeTuple(partition));
        } catch (IOException | RuntimeException e) {
            p = "<corrupt>";
        }
        return "CompactionWork{" + table + ", partition=" + p + ", bucket=" + bucket + ", snapshot=" + snapshotId + ", "
                + strategy + (files == null ? "" : ", files shipped") + "}";
    }
}
