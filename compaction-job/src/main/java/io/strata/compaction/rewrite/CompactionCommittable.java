package io.strata.compaction.rewrite;

import io.strata.storage.commit.CommitMessage;
import io.strata.storage.commit.CommitMessageSerializer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * What a rewrite subtask hands the committer for one bucket: the table, the work it came from
 * (strategy, snapshot planned from) and the uncommitted {@link CommitMessage} (files replaced,
 * files written, changelog files), with figures for metrics and progress.
 *
 * <p>Or, when the bucket could not be compacted, a failure ({@link #failed}): the table, the
 * bucket and the message naming them and the cause, and no commit message. The committer commits
 * the other buckets and then ends the job with the failures; a failure never enters its state.
 *
 * <p>A Flink POJO on the wire; {@link #toBytes}/{@link #fromBytes} is the versioned form kept in
 * the committer's checkpointed state.
 */
public final class CompactionCommittable {
    static final int VERSION = 1;

    public String table;
    public String strategy;
    public long plannedFromSnapshot;
    public int messageVersion;
    public byte[] message;
    public long rowsRead;
    public long rowsWritten;
    public long bytesRead;
    public long bytesWritten;
    public long changelogRows;
    public int sortedRunsBefore;
    public int sortedRunsAfter;
    public int level0FilesBefore;
    public int level0FilesAfter;
    public long rewriteMillis;
    /** Failures only: what went wrong, naming the table, partition, bucket and cause; null for a result. */
    public String failure;
    /** Failures only: the bucket and its partition as {@code PartitionPath.display} prints it. */
    public int failedBucket;

    public String failedPartition;

    public CompactionCommittable() {}

    /** A bucket that could not be compacted. */
    public static CompactionCommittable failed(String table, String partition, int bucket, String failure) {
        CompactionCommittable c = new CompactionCommittable();
        c.table = table;
        c.failedPartition = partition;
        c.failedBucket = bucket;
        c.failure = failure;
        return c;
    }

    public boolean isFailure() {
        return failure != null;
    }

    public CommitMessage commitMessage() {
        try {
            return new CommitMessageSerializer().deserialize(messageVersion, message);
        } catch (IOException e) {
            throw new UncheckedIOException("table " + table + ": corrupt compaction committable: " + e.getMessage(), e);
        }
    }

    public void setCommitMessage(CommitMessage m) {
        CommitMessageSerializer s = new CommitMessageSerializer();
        try {
            this.message = s.serialize(m);
            this.messageVersion = s.version();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public byte[] toBytes() {
        if (isFailure()) {
            throw new IllegalStateException("a failure is not kept in state: " + failure);
        }
        try {
            ByteArrayOutputStream bos = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bos);
            out.writeInt(VERSION);
            out.writeUTF(table);
            out.writeUTF(strategy);
            out.writeLong(plannedFromSnapshot);
            out.writeInt(messageVersion);
            out.writeInt(message.length);
            out.write(message);
            for (long v : new long[] {rowsRead, rowsWritten, bytesRead, bytesWritten, changelogRows, rewriteMillis}) {
                out.writeLong(v);
            }
            for (int v : new int[] {sortedRunsBefore, sortedRunsAfter, level0FilesBefore, level0FilesAfter}) {
                out.writeInt(v);
            }
            out.flush();
            return bos.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static CompactionCommittable fromBytes(byte[] bytes) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        int version = in.readInt();
        if (version != VERSION) {
            throw new IOException(
                    "unknown compaction committable version " + version + " (this build reads " + VERSION + ")");
        }
        CompactionCommittable c = new CompactionCommittable();
        c.table = in.readUTF();
        c.strategy = in.readUTF();
        c.plannedFromSnapshot = in.readLong();
        c.messageVersion = in.readInt();
        c.message = new byte[in.readInt()];
        in.readFully(c.message);
        c.rowsRead = in.readLong();
        c.rowsWritten = in.readLong();
        c.bytesRead = in.readLong();
        c.bytesWritten = in.readLong();
        c.changelogRows = in.readLong();
        c.rewriteMillis = in.readLong();
        c.sortedRunsBefore = in.readInt();
        c.sortedRunsAfter = in.readInt();
        c.level0FilesBefore = in.readInt();
        c.level0FilesAfter = in.readInt();
        return c;
    }

    @Override
    public String toString() {
        return isFailure()
                ? "CompactionCommittable{" + table + ", failed: " + failure + "}"
                : "CompactionCommittable{" + table + ", " + commitMessage() + "}";
    }
}
