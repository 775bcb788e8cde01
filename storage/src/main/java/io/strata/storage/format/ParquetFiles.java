package io.strata.storage.format;

import io.strata.storage.fs.FileIO;
import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.util.HadoopStreams;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.io.SeekableInputStream;

/** Parquet's file abstractions over {@link FileIO}, so Parquet uses the table's file system as configured. */
final class ParquetFiles {
    private ParquetFiles() {
    }

    static InputFile input(FileIO io, Path path, long knownLength) {
        return new InputFile() {
            @Override
            public long getLength() throws IOException {
                return knownLength >= 0 ? knownLength : io.length(path);
            }

            @Override
            public SeekableInputStream newStream() throws IOException {
                return HadoopStreams.wrap(io.open(path));
            }

            @Override
            public String toString() {
                return path.toString();
            }
        };
    }

    static OutputFile output(FileIO io, Path path) {
        return new OutputFile() {
            @Override
            public PositionOutputStream create(long blockSizeHint) throws IOException {
                return HadoopStreams.wrap(io.create(path));
            }

            @Override
            public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
                throw new IOException("data files are never overwritten: " + path);
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
        };
    }
}
