package io.strata.storage.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Random;
import java.util.zip.CRC32C;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.junit.jupiter.api.Test;

/**
 * {@link Crc32cOutputFile}: every way of writing (single bytes, whole arrays, slices) reaches the
 * file and the checksum alike, and positions are the wrapped stream's.
 */
class Crc32cOutputFileTest {
    /** An in-memory file whose stream reports positions from {@code start} on, and can fail its writes. */
    private static final class MemoryFile implements OutputFile {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final long start;
        boolean failWrites;
        boolean flushed;
        boolean closed;

        MemoryFile(long start) {
            this.start = start;
        }

        @Override
        public PositionOutputStream create(long blockSizeHint) {
            return new PositionOutputStream() {
                @Override
                public long getPos() {
                    return start + bytes.size();
                }

                @Override
                public void write(int b) throws IOException {
                    check();
                    bytes.write(b);
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    check();
                    bytes.write(b, off, len);
                }

                private void check() throws IOException {
                    if (failWrites) {
                        throw new IOException("No space left on device");
                    }
                }

                @Override
                public void flush() {
                    flushed = true;
                }

                @Override
                public void close() {
                    closed = true;
                }
            };
        }

        @Override
        public PositionOutputStream createOrOverwrite(long blockSizeHint) {
            return create(blockSizeHint);
        }

        @Override
        public boolean supportsBlockSize() {
            return true;
        }

        @Override
        public long defaultBlockSize() {
            return 42;
        }

        @Override
        public String getPath() {
            return "memory:/f";
        }
    }

    private static long crc32c(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return crc.getValue();
    }

    @Test
    void singleBytesArraysAndSlicesAllReachTheFileAndTheChecksum() throws IOException {
        MemoryFile memory = new MemoryFile(0);
        Crc32cOutputFile file = new Crc32cOutputFile(memory);
        Random random = new Random(7);
        try (PositionOutputStream out = file.create(0)) {
            for (int i = 0; i < 2000; i++) {
                byte[] chunk = new byte[random.nextInt(300)];
                random.nextBytes(chunk);
                switch (random.nextInt(3)) {
                    case 0:
                        out.write(chunk.length == 0 ? -1 : chunk[0]); // write(int) keeps the low 8 bits
                        break;
                    case 1:
                        out.write(chunk);
                        break;
                    default:
                        int off = chunk.length == 0 ? 0 : random.nextInt(chunk.length);
                        out.write(chunk, off, random.nextInt(chunk.length - off + 1));
                }
                assertThat(out.getPos()).isEqualTo(memory.bytes.size());
            }
            out.flush();
            assertThat(memory.flushed).isTrue();
        }
        assertThat(memory.closed).isTrue();
        byte[] written = memory.bytes.toByteArray();
        assertThat(written.length).isGreaterThan(100_000);
        assertThat(file.bytesWritten()).isEqualTo(written.length);
        assertThat(file.crc32c()).isEqualTo(crc32c(written));
    }

    @Test
    void positionsAreTheWrappedStreamsAndTheFilesPropertiesItsToo() throws IOException {
        MemoryFile memory = new MemoryFile(1000);
        Crc32cOutputFile file = new Crc32cOutputFile(memory);
        assertThat(file.supportsBlockSize()).isTrue();
        assertThat(file.defaultBlockSize()).isEqualTo(42);
        assertThat(file.getPath()).isEqualTo("memory:/f");
        PositionOutputStream out = file.createOrOverwrite(0);
        out.write(new byte[] {1, 2, 3});
        assertThat(out.getPos()).isEqualTo(1003);
    }

    @Test
    void aFailedWriteIsNotCountedAndASecondStreamIsRefused() throws IOException {
        MemoryFile memory = new MemoryFile(0);
        Crc32cOutputFile file = new Crc32cOutputFile(memory);
        PositionOutputStream out = file.create(0);
        out.write(new byte[] {1, 2, 3}, 1, 2);
        memory.failWrites = true;
        assertThatThrownBy(() -> out.write(new byte[] {4, 5})).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> out.write(6)).isInstanceOf(IOException.class);
        assertThat(file.bytesWritten()).isEqualTo(2);
        assertThat(file.crc32c()).isEqualTo(crc32c(new byte[] {2, 3}));
        assertThatThrownBy(() -> file.create(0)).isInstanceOf(IllegalStateException.class);
    }
}
