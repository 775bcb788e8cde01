package io.strata.storage.commit;

import io.strata.storage.data.ValueCodec;
import io.strata.storage.format.ColumnStats;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.format.FileSource;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Versioned binary form of {@link CommitMessage}s, for shipping committables from writer tasks to
 * a committer and storing them in checkpoints. {@link #deserialize} switches on the version and
 * rejects versions it does not know; old versions stay readable.
 */
public final class CommitMessageSerializer {
    public static final int CURRENT_VERSION = 1;

    public int version() {
        return CURRENT_VERSION;
    }

    public byte[] serialize(CommitMessage m) throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bos);
        ValueCodec.writeTuple(out, m.partition());
        out.writeInt(m.bucket());
        out.writeInt(m.totalBuckets());
        writeFiles(out, m.appendFiles());
        writeFiles(out, m.compactBefore());
        writeFiles(out, m.compactAfter());
        writeFiles(out, m.changelogFiles());
        writeFiles(out, m.compactChangelogFiles());
        out.flush();
        return bos.toByteArray();
    }

    public CommitMessage deserialize(int version, byte[] bytes) throws IOException {
        if (version != 1) {
            throw new IOException("unknown commit message version " + version + " (this build reads 1)");
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        Object[] partition = ValueCodec.readTuple(in);
        int bucket = in.readInt();
        int total = in.readInt();
        CommitMessage m = new CommitMessage(
                partition, bucket, total, readFiles(in), readFiles(in), readFiles(in), readFiles(in), readFiles(in));
        if (in.available() != 0) {
            throw new IOException("corrupt commit message: " + in.available() + " trailing bytes");
        }
        return m;
    }

    /** Serializes a list of messages, each prefixed by its length. */
    public byte[] serializeList(List<CommitMessage> messages) throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bos);
        out.writeInt(messages.size());
        for (CommitMessage m : messages) {
            byte[] b = serialize(m);
            out.writeInt(b.length);
            out.write(b);
        }
        return bos.toByteArray();
    }

    public List<CommitMessage> deserializeList(int version, byte[] bytes) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        int n = in.readInt();
        List<CommitMessage> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            byte[] b = new byte[in.readInt()];
            in.readFully(b);
            out.add(deserialize(version, b));
        }
        return out;
    }

    /**
     * Writes a list of file metadata in this serializer's current form (as inside a commit message);
     * {@link #readFiles} reads it back. For other versioned forms that carry file lists (the
     * compaction job's work items), which record {@link #CURRENT_VERSION} beside it.
     */
    public static void writeFiles(DataOutputStream out, List<DataFileMeta> files) throws IOException {
        out.writeInt(files.size());
        for (DataFileMeta f : files) {
            writeFile(out, f);
        }
    }

    static void writeFile(DataOutputStream out, DataFileMeta f) throws IOException {
        out.writeUTF(f.fileName());
        out.writeLong(f.fileSize());
        out.writeLong(f.rowCount());
        out.writeLong(f.deleteRowCount());
        ValueCodec.writeTuple(out, f.minKey());
        ValueCodec.writeTuple(out, f.maxKey());
        out.writeLong(f.minSequence());
        out.writeLong(f.maxSequence());
        out.writeInt(f.level());
        out.writeLong(f.schemaId());
        out.writeInt(f.stats().size());
        for (ColumnStats s : f.stats()) {
            out.writeInt(s.fieldId());
            ValueCodec.writeValue(out, s.min());
            ValueCodec.writeValue(out, s.max());
            out.writeLong(s.nullCount());
        }
        out.writeLong(f.creationTimeMillis());
        out.writeByte(f.source().ordinal());
    }

    /** Reads what {@link #writeFiles} wrote; a count out of range fails as corrupt. */
    public static List<DataFileMeta> readFiles(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > 10_000_000) {
            throw new IOException("corrupt commit message: " + n + " files");
        }
        List<DataFileMeta> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(readFile(in));
        }
        return out;
    }

    static DataFileMeta readFile(DataInputStream in) throws IOException {
        String name = in.readUTF();
        long size = in.readLong();
        long rows = in.readLong();
        long deletes = in.readLong();
        Object[] minKey = ValueCodec.readTuple(in);
        Object[] maxKey = ValueCodec.readTuple(in);
        long minSeq = in.readLong();
        long maxSeq = in.readLong();
        int level = in.readInt();
        long schemaId = in.readLong();
        int ns = in.readInt();
        List<ColumnStats> stats = new ArrayList<>(ns);
        for (int i = 0; i < ns; i++) {
            stats.add(new ColumnStats(in.readInt(), ValueCodec.readValue(in), ValueCodec.readValue(in), in.readLong()));
        }
        long created = in.readLong();
        FileSource source = FileSource.fromOrdinal(in.readByte());
        return new DataFileMeta(
                name, size, rows, deletes, minKey, maxKey, minSeq, maxSeq, level, schemaId, stats, created, source);
    }
}
