package io.strata.storage.format;

import java.io.IOException;
import java.util.zip.CRC32C;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * An {@link OutputFile} whose one stream computes the CRC32C of the bytes it passes on, as they go:
 * once the stream is closed, {@link #crc32c()} is the CRC32C of the file's bytes as stored, without
 * reading them back. It counts the bytes too ({@link #bytesWritten()}), so that a caller can check
 * that the file holds exactly what went through the stream.
 *
 * <p>Parquet writes a file only through the {@link PositionOutputStream} it creates here, and asks
 * it for positions (offsets in the footer), which come from the stream wrapped. Not thread-safe,
 * like the streams it wraps.
 */
final class Crc32cOutputFile implements OutputFile {
    private final OutputFile file;
    private final CRC32C crc = new CRC32C();
    private long bytes;
    private boolean created;

    Crc32cOutputFile(OutputFile file) {
        this.file = file;
    }

    @Override
    public PositionOutputStream create(long blockSizeHint) throws IOException {
        checkFirstStream();
        return new Stream(file.create(blockSizeHint));
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
        checkFirstStream();
        return new Stream(file.createOrOverwrite(blockSizeHint));
    }

    /** One stream a file: a second one would mix two contents into one checksum. */
    private void checkFirstStream() {
        if (created) {
            throw new IllegalStateException("a second stream for " + file.getPath());
        }
        created = true;
    }

    @Override
    public boolean supportsBlockSize() {
        return file.supportsBlockSize();
    }

    @Override
    public long defaultBlockSize() {
        return file.defaultBlockSize();
    }

    @Override
    public String getPath() {
        return file.getPath();
    }

    /** The CRC32C of every byte written so far (unsigned 32 bits). */
    long crc32c() {
        return crc.getValue();
    }

    /** How many bytes went through the stream. */
    long bytesWritten() {
        return bytes;
    }

    /** Passes every write on first, then adds what it accepted to the checksum. */
    private final class Stream extends PositionOutputStream {
        private final PositionOutputStream out;

        Stream(PositionOutputStream out) {
            this.out = out;
        }

        @Override
        public long getPos() throws IOException {
            return out.getPos();
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            crc.update(b);
            bytes++;
        }

        @Override
        public void write(byte[] b) throws IOException {
            write(b, 0, b.length);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            crc.update(b, off, len);
            bytes += len;
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }
}
