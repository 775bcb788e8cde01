package io.strata.compaction.source;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/** Versioned form of {@link CompactionWork}; unknown versions are rejected. */
public final class CompactionWorkSerializer implements SimpleVersionedSerializer<CompactionWork> {
    static final int VERSION = 1;

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
        out.flush();
        return bos.toByteArray();
    }

    @Override
    public CompactionWork deserialize(int version, byte[] bytes) throws IOException {
        if (version != VERSION) {
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
        return w;
    }
}
