package io.strata.storage.fs;

import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/** Parquet's view of a new table file: created once, never overwritten. */
abstract class NoOverwriteOutputFile implements OutputFile {
    private final Path path;

    NoOverwriteOutputFile(Path path) {
        this.path = path;
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
        throw new IOException("table files are never overwritten: " + path);
    }

    @Override
    public boolean supportsBlockSize() {
        return false;
    }

    @Override
    public long defaultBlockSize() {
        return 0;
    }

    @Override
    public String getPath() {
        return path.toString();
    }
}
