package io.strata.compaction.maintenance;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Versioned form of {@link FileTask} (version 1: the index, the path count, then each path and,
 * for deletes, its kind and size); and of the enumerator's checkpoint, the tasks not handed out
 * yet. Unknown versions are rejected.
 */
final class FileTaskSerializer implements SimpleVersionedSerializer<FileTask> {
    static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(FileTask t) throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bos);
        write(t, out);
        out.flush();
        return bos.toByteArray();
    }

    @Override
    public FileTask deserialize(int version, byte[] bytes) throws IOException {
        check(version);
        return read(new DataInputStream(new ByteArrayInputStream(bytes)));
    }

    private static void check(int version) throws IOException {
        if (version != VERSION) {
            throw new IOException(
                    "unknown maintenance task version " + version + " (this build reads " + VERSION + ")");
        }
    }

    static void write(FileTask t, DataOutputStream out) throws IOException {
        out.writeInt(t.index);
        out.writeInt(t.paths.length);
        out.writeBoolean(t.kinds != null);
        for (int i = 0; i < t.paths.length; i++) {
            out.writeUTF(t.paths[i]);
            if (t.kinds != null) {
                out.writeUTF(t.kinds[i]);
                out.writeLong(t.sizes[i]);
            }
        }
    }

    static FileTask read(DataInputStream in) throws IOException {
        int index = in.readInt();
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("corrupt maintenance task " + index + ": " + n + " paths");
        }
        boolean deletes = in.readBoolean();
        String[] paths = new String[n];
        String[] kinds = deletes ? new String[n] : null;
        long[] sizes = deletes ? new long[n] : null;
        for (int i = 0; i < n; i++) {
            paths[i] = in.readUTF();
            if (deletes) {
                kinds[i] = in.readUTF();
                sizes[i] = in.readLong();
            }
        }
        return new FileTask(index, paths, kinds, sizes);
    }

    /** The enumerator's checkpoint: the tasks not handed out yet. */
    static final class Pending implements SimpleVersionedSerializer<List<FileTask>> {
        @Override
        public int getVersion() {
            return VERSION;
        }

        @Override
        public byte[] serialize(List<FileTask> tasks) throws IOException {
            ByteArrayOutputStream bos = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bos);
            out.writeInt(tasks.size());
            for (FileTask t : tasks) {
                write(t, out);
            }
            out.flush();
            return bos.toByteArray();
        }

        @Override
        public List<FileTask> deserialize(int version, byte[] bytes) throws IOException {
            check(version);
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
            int n = in.readInt();
            List<FileTask> tasks = new ArrayList<>(Math.max(0, n));
            for (int i = 0; i < n; i++) {
                tasks.add(read(in));
            }
            return tasks;
        }
    }
}
