package io.strata.storage.mergetree;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import io.strata.storage.data.ValueCodec;
import io.strata.storage.util.CloseableIterator;
import io.strata.storage.util.LocalScratch;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A sorted run of a write buffer spilled to local disk: per record the sequence number, the row
 * kind, the row ({@link ValueCodec} tuple) and the ordering state (a {@link ValueCodec} value). Local scratch only, never part of a table: its owner
 * calls {@link #delete} once the run is merged or dropped, and on every failure path. The file
 * lives in this process's scratch directory ({@link LocalScratch}), so a crash leaves nothing that
 * a later process does not remove.
 */
final class SpillFile {
    private static final Logger LOG = LoggerFactory.getLogger(SpillFile.class);

    /** Bytes buffered by an open reader or writer of a spill file. */
    static final int BUFFER_BYTES = 1 << 16;

    private final File file;
    private final long records;

    private SpillFile(File file, long records) {
        this.file = file;
        this.records = records;
    }

    static SpillFile write(File dir, Iterator<KeyValue> sorted) throws IOException {
        File f = File.createTempFile("strata-spill-", ".bin", LocalScratch.processDir(dir));
        long n = 0;
        try (DataOutputStream out =
                new DataOutputStream(new BufferedOutputStream(new FileOutputStream(f), BUFFER_BYTES))) {
            while (sorted.hasNext()) {
                KeyValue kv = sorted.next();
                out.writeLong(kv.sequence());
                out.writeByte(kv.kind().toByteValue());
                ValueCodec.writeTuple(out, kv.row());
                ValueCodec.writeValue(out, kv.orderings());
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
        DataInputStream in = new DataInputStream(new BufferedInputStream(new FileInputStream(file), BUFFER_BYTES));
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
                    byte[] orderings = (byte[]) ValueCodec.readValue(in);
                    remaining--;
                    return new KeyValue(seq, kind, row, orderings);
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

    /**
     * Deletes the file. Not registered for deletion at exit when that fails (the JDK would keep
     * the path until the JVM ends, for every such file): a file left behind is logged and goes with
     * this process's scratch directory.
     */
    void delete() {
        try {
            Files.deleteIfExists(file.toPath());
        } catch (IOException e) {
            LOG.warn("cannot delete spill file {}: {}", file, e.toString());
        }
    }
}
