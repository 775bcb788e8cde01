package io.strata.storage.mergetree;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import io.strata.storage.data.ValueCodec;
import io.strata.storage.util.CloseableIterator;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A sorted run of a write buffer spilled to local disk: per record the sequence number, the row
 * kind and the row ({@link ValueCodec}). Local scratch only, deleted once merged; never part of
 * a table.
 */
final class SpillFile {
    private final File file;
    private final long records;

    private SpillFile(File file, long records) {
        this.file = file;
        this.records = records;
    }

    static SpillFile write(File dir, Iterator<KeyValue> sorted) throws IOException {
        Files.createDirectories(dir.toPath());
        File f = File.createTempFile("strata-spill-", ".bin", dir);
        long n = 0;
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(f), 1 << 16))) {
            while (sorted.hasNext()) {
                KeyValue kv = sorted.next();
                out.writeLong(kv.sequence());
                out.writeByte(kv.kind().toByteValue());
                ValueCodec.writeTuple(out, kv.row());
                n++;
            }
        } catch (IOException | RuntimeException e) {
            f.delete();
            throw e;
        }
        return new SpillFile(f, n);
    }

    long records() {
        return records;
    }

    CloseableIterator<KeyValue> read() throws IOException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(new FileInputStream(file), 1 << 16));
        return new CloseableIterator<>() {
            private long remaining = records;

            @Override
            public boolean hasNext() {
                return remaining > 0;
            }

            @Override
            public KeyValue next() {
                if (remaining <= 0) {
                    throw new NoSuchElementException();
                }
                try {
                    long seq = in.readLong();
                    RowKind kind = RowKind.fromByteValue(in.readByte());
                    Object[] row = ValueCodec.readTuple(in);
                    remaining--;
                    return new KeyValue(seq, kind, row);
                } catch (EOFException e) {
                    throw new UncheckedIOException("spill file " + file + " is truncated", e);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read spill file " + file, e);
                }
            }

            @Override
            public void close() {
                try {
                    in.close();
                } catch (IOException ignored) {
                    // a local scratch file; nothing to recover
                }
            }
        };
    }

    void delete() {
        if (!file.delete() && file.exists()) {
            file.deleteOnExit();
        }
    }
}
