package io.strata.compaction.source;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Versioned form of {@link CompactionWork}; unknown versions are rejected. Version 2 added the
 * shipped file list (a length, -1 for none, then the bytes); version 1 is still read (no list).
 */
public final class CompactionWorkSerializer implements SimpleVersionedSerializer<CompactionWork> {
    static final int VERSION = 2;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(CompactionWork w) throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bos);
        out.writeUTF(w.table);
        out.writeInt(w.partition.length);
        out.write(w.partition);
        out.writeInt(w.bucket);
        out.writeLong(w.snapshotId);
        out.writeUTF(w.strategy);
        out.writeInt(w.files == null ? -1 : w.files.length);
        if (w.files != null) {
            out.write(w.files);
        }
        out.flush();
        return bos.toByteArray();
    }

    @Override
    public CompactionWork deserialize(int version, byte[] bytes) throws IOException {
        if (version != 1 && version != VERSION) {
            throw new IOException("unknown compaction work version " + version + " (this build reads " + VERSION + ")");
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        CompactionWork w = new CompactionWork();
        w.table = in.readUTF();
        w.partition = new byte[in.readInt()];
        in.readFully(w.partition);
        w.bucket = in.readInt();
        w.snapshotId = in.readLong();
        w.strategy = in.readUTF();
        if (version >= 2) {
            int n = in.readInt();
            if (n < -1 || n > bytes.length) {
                throw new IOException("corrupt compaction work " + w.table + ": file list of " + n + " bytes");
            }
            if (n >= 0) {
                w.files = new byte[n];
                in.readFully(w.files);
            }
        }
        return w;
    }
}
