package io.strata.storage.fs;

import java.io.IOException;
import org.apache.hadoop.fs.Path;

/**
 * HDFS (and other file systems whose rename is atomic and refuses to overwrite): write a hidden
 * temporary file, then rename it to the target. HDFS's rename returns false when the target
 * exists, leaving it untouched.
 */
final class RenamePublisher implements AtomicPublisher {
    private final HadoopFileIO io;

    RenamePublisher(HadoopFileIO io) {
        this.io = io;
    }

    @Override
    public boolean publish(Path target, byte[] content) throws IOException {
        Path tmp = FileIO.tempSibling(target);
        io.writeNew(tmp, content);
        boolean renamed = false;
        try {
            renamed = io.renameNoOverwrite(tmp, target);
            return renamed;
        } finally {
            if (!renamed) {
                io.delete(tmp);
            }
        }
    }

    @Override
    public String describe() {
        return "rename without overwrite";
    }
}
