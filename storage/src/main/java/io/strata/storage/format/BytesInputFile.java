package io.strata.storage.format;

import java.io.ByteArrayInputStream;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/** Parquet's view of a file's content already in memory (a manifest read whole to check its checksum). */
final class BytesInputFile implements InputFile {
    private final String name;
    private final byte[] bytes;

    BytesInputFile(String name, byte[] bytes) {
        this.name = name;
        this.bytes = bytes;
    }

    @Override
    public long getLength() {
        return bytes.length;
    }

    @Override
    public SeekableInputStream newStream() {
        Positioned in = new Positioned(bytes);
        return new DelegatingSeekableInputStream(in) {
            @Override
            public long getPos() {
                return in.position();
            }

            @Override
            public void seek(long newPos) {
                in.seek((int) newPos);
            }
        };
    }

    @Override
    public String toString() {
        return name;
    }

    private static final class Positioned extends ByteArrayInputStream {
        Positioned(byte[] bytes) {
            super(bytes);
        }

        int position() {
            return pos;
        }

        void seek(int newPos) {
            pos = Math.min(Math.max(0, newPos), count);
        }
    }
}
