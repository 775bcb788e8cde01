package io.strata.storage.fs;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * Parquet's view of a local file to read, over a {@link FileChannel}: a column chunk is read
 * straight into the buffer Parquet allocated for it (parquet-mr's {@code LocalInputFile} reads it
 * into a temporary array first and copies, a second allocation and copy of every byte a
 * compaction reads). Positional reads only; the stream's position is its own.
 */
final class LocalChannelInputFile implements InputFile {
    private final Path path;
    private final String name;
    private long length;
    /** The length recorded for the file (a stream of a file of another length fails), else negative. */
    private final long expected;

    /** @param knownLength the file's length when known (saves a stat), else negative */
    LocalChannelInputFile(Path path, String name, long knownLength) {
        this.path = path;
        this.name = name;
        this.length = knownLength;
        this.expected = knownLength;
    }

    @Override
    public long getLength() throws IOException {
        if (length < 0) {
            length = Files.size(path);
        }
        return length;
    }

    @Override
    public SeekableInputStream newStream() throws IOException {
        FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
        if (expected >= 0) {
            long actual;
            try {
                actual = channel.size(); // fstat of the open file: the bytes this stream reads
            } catch (IOException e) {
                channel.close();
                throw e;
            }
            if (actual != expected) {
                channel.close();
                throw new FileSizeMismatchException(name, expected, actual);
            }
        }
        return new SeekableInputStream() {
            private long pos;
            private final byte[] one = new byte[1];

            @Override
            public long getPos() {
                return pos;
            }

            @Override
            public void seek(long newPos) {
                pos = newPos;
            }

            @Override
            public int read() throws IOException {
                int n;
                do {
                    n = read(one, 0, 1);
                } while (n == 0);
                return n < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return read(ByteBuffer.wrap(b, off, len));
            }

            @Override
            public void readFully(byte[] bytes) throws IOException {
                readFully(ByteBuffer.wrap(bytes));
            }

            @Override
            public void readFully(byte[] bytes, int start, int len) throws IOException {
                readFully(ByteBuffer.wrap(bytes, start, len));
            }

            @Override
            public int read(ByteBuffer buf) throws IOException {
                if (!buf.hasRemaining()) {
                    return 0;
                }
                int n = channel.read(buf, pos);
                if (n > 0) {
                    pos += n;
                }
                return n;
            }

            @Override
            public void readFully(ByteBuffer buf) throws IOException {
                while (buf.hasRemaining()) {
                    int n = channel.read(buf, pos);
                    if (n < 0) {
                        throw new EOFException(name + ": unexpected end of file at byte " + pos + " (" + buf.remaining()
                                + " more bytes expected)");
                    }
                    pos += n;
                }
            }

            @Override
            public void close() throws IOException {
                channel.close();
            }
        };
    }

    @Override
    public String toString() {
        return name;
    }
}
