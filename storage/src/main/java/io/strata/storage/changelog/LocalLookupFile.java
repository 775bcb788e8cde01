package io.strata.storage.changelog;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import io.strata.storage.data.ValueCodec;
import io.strata.storage.data.ValueComparators;
import io.strata.storage.util.CloseableIterator;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.codec.digest.MurmurHash3;

/**
 * A local, read-only hash index of one data file: key to the key's versions, on local disk and
 * memory-mapped (so neither the index nor the data occupies the Java heap). Built once per data
 * file by reading it sequentially; a probe costs one hash-slot walk and the decoding of that
 * key's versions only.
 *
 * <p>One data file's lookup file must stay below 2 GB (data files roll at target-file-size).
 *
 * <p>Layout: header (int slot count, long data offset, long slots offset), data section
 * (per key: int length, key tuple bytes, int version count, per version: long sequence, byte kind,
 * row tuple, ordering state as one value), slot section (per slot: int hash, long data offset + 1, 0 for empty).
 */
final class LocalLookupFile implements AutoCloseable {
    private static final int HEADER = 4 + 8 + 8;
    private static final int SLOT = 12;

    private final File file;
    private final RandomAccessFile raf;
    private final MappedByteBuffer map;
    private final int slots;
    private final long slotsOffset;

    private LocalLookupFile(File file) throws IOException {
        this.file = file;
        this.raf = new RandomAccessFile(file, "r");
        FileChannel ch = raf.getChannel();
        try {
            this.map = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
        } catch (IOException | RuntimeException e) {
            raf.close();
            throw e;
        }
        this.slots = map.getInt(0);
        this.slotsOffset = map.getLong(12);
    }

    long diskSize() {
        return file.length();
    }

    /**
     * Builds the index of {@code records} (sorted by key, versions of a key adjacent) into {@code
     * file}, which {@link #close} deletes; when building fails the file is deleted before this
     * throws. {@code records} is closed either way.
     */
    static LocalLookupFile build(File file, CloseableIterator<KeyValue> records, int[] keyIndexes) throws IOException {
        try {
            return writeAndOpen(file, records, keyIndexes);
        } catch (IOException | RuntimeException | Error e) {
            try {
                Files.deleteIfExists(file.toPath());
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private static LocalLookupFile writeAndOpen(File file, CloseableIterator<KeyValue> records, int[] keyIndexes)
            throws IOException {
        List<long[]> entries = new ArrayList<>(); // {hash, offset}: 16 bytes per key while building, then dropped
        long slotsOffset;
        int slotCount;
        try (DataOutputStream out = new DataOutputStream(new UnsynchronizedBuffer(new FileOutputStream(file)))) {
            out.writeInt(0);
            out.writeLong(0);
            out.writeLong(0);
            byte[] currentKey = null;
            List<KeyValue> versions = new ArrayList<>();
            while (records.hasNext()) {
                KeyValue kv = records.next();
                byte[] key = keyBytes(kv.row(), keyIndexes);
                if (currentKey != null && !Arrays.equals(currentKey, key)) {
                    entries.add(new long[] {hash(currentKey), out.size()});
                    writeEntry(out, currentKey, versions);
                    versions.clear();
                }
                currentKey = key;
                versions.add(kv);
            }
            if (currentKey != null) {
                entries.add(new long[] {hash(currentKey), out.size()});
                writeEntry(out, currentKey, versions);
            }
            // DataOutputStream counts in an int: the 2 GB limit of one lookup file (see above)
            slotsOffset = out.size();
            slotCount = Math.max(1, Integer.highestOneBit(Math.max(1, entries.size() * 2)) << 1);
            long[] table = new long[slotCount * 2];
            for (long[] e : entries) {
                int slot = (int) (e[0] & (slotCount - 1));
                while (table[slot * 2 + 1] != 0) {
                    slot = (slot + 1) & (slotCount - 1);
                }
                table[slot * 2] = e[0];
                table[slot * 2 + 1] = e[1] + 1;
            }
            for (int i = 0; i < slotCount; i++) {
                out.writeInt((int) table[i * 2]);
                out.writeLong(table[i * 2 + 1]);
            }
        } finally {
            records.close();
        }
        try (RandomAccessFile header = new RandomAccessFile(file, "rw")) {
            header.writeInt(slotCount);
            header.writeLong(HEADER);
            header.writeLong(slotsOffset);
        }
        return new LocalLookupFile(file);
    }

    private static void writeEntry(DataOutputStream out, byte[] key, List<KeyValue> versions) throws IOException {
        out.writeInt(key.length);
        out.write(key);
        out.writeInt(versions.size());
        for (KeyValue kv : versions) {
            out.writeLong(kv.sequence());
            out.writeByte(kv.kind().toByteValue());
            ValueCodec.writeTuple(out, kv.row());
            ValueCodec.writeValue(out, kv.orderings());
        }
    }

    /**
     * The probe key of a row: its key fields encoded with {@link ValueCodec}, except that a single
     * BIGINT or INT key is its tag and big-endian bytes (no stream, no projection; the same bytes
     * either way for a given key type, which is all a local lookup file needs).
     */
    static byte[] keyBytes(Object[] row, int[] keyIndexes) {
        if (keyIndexes.length == 1) {
            Object v = row[keyIndexes[0]];
            if (v instanceof Long || v instanceof Integer) {
                boolean isLong = v instanceof Long;
                long x = ((Number) v).longValue();
                int n = isLong ? 8 : 4;
                byte[] b = new byte[1 + n];
                b[0] = (byte) (isLong ? 3 : 2);
                for (int i = 0; i < n; i++) {
                    b[1 + i] = (byte) (x >>> (8 * (n - 1 - i)));
                }
                return b;
            }
        }
        return ValueCodec.encodeTuple(ValueComparators.project(row, keyIndexes));
    }

    private static int hash(byte[] key) {
        return MurmurHash3.hash32x86(key, 0, key.length, 7);
    }

    /** The versions of {@code key} (encoded with {@link #keyBytes}) in this file, oldest first; empty if none. */
    List<KeyValue> get(byte[] key) throws IOException {
        int h = hash(key);
        int slot = h & (slots - 1);
        while (true) {
            long base = slotsOffset + (long) slot * SLOT;
            long offset = map.getLong((int) base + 4) - 1;
            if (offset < 0) {
                return List.of();
            }
            if (map.getInt((int) base) == h && keyEquals((int) offset, key)) {
                return readVersions((int) offset + 4 + key.length);
            }
            slot = (slot + 1) & (slots - 1);
        }
    }

    private boolean keyEquals(int offset, byte[] key) {
        if (map.getInt(offset) != key.length) {
            return false;
        }
        for (int i = 0; i < key.length; i++) {
            if (map.get(offset + 4 + i) != key[i]) {
                return false;
            }
        }
        return true;
    }

    private List<KeyValue> readVersions(int offset) throws IOException {
        int n = map.getInt(offset);
        int pos = offset + 4;
        // decode from a view of the mapped region; tuples are self-delimiting
        ByteBuffer view = map.duplicate();
        view.position(pos);
        DataInputStream in = new DataInputStream(new ByteBufferInput(view));
        List<KeyValue> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long seq = in.readLong();
            RowKind kind = RowKind.fromByteValue(in.readByte());
            Object[] row = ValueCodec.readTuple(in);
            out.add(new KeyValue(seq, kind, row, (byte[]) ValueCodec.readValue(in)));
        }
        return out;
    }

    /** Closes and deletes the file (the mapping goes with the buffer, when it is collected). */
    @Override
    public void close() throws IOException {
        try {
            raf.close();
        } finally {
            Files.deleteIfExists(file.toPath());
        }
    }

    /**
     * A write buffer without {@code BufferedOutputStream}'s per-call lock: {@link DataOutputStream}
     * writes ints and tags a byte at a time, which made the lock the cost of building a file.
     */
    private static final class UnsynchronizedBuffer extends OutputStream {
        private final FileOutputStream out;
        private final byte[] buf = new byte[1 << 16];
        private int pos;

        UnsynchronizedBuffer(FileOutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            if (pos == buf.length) {
                flushBuffer();
            }
            buf[pos++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (len > buf.length - pos) {
                flushBuffer();
                if (len > buf.length) {
                    out.write(b, off, len);
                    return;
                }
            }
            System.arraycopy(b, off, buf, pos, len);
            pos += len;
        }

        private void flushBuffer() throws IOException {
            out.write(buf, 0, pos);
            pos = 0;
        }

        @Override
        public void flush() throws IOException {
            flushBuffer();
        }

        @Override
        public void close() throws IOException {
            try {
                flushBuffer();
            } finally {
                out.close();
            }
        }
    }

    /** An InputStream over a ByteBuffer's remaining bytes. */
    private static final class ByteBufferInput extends InputStream {
        private final ByteBuffer buf;

        ByteBufferInput(ByteBuffer buf) {
            this.buf = buf;
        }

        @Override
        public int read() {
            return buf.hasRemaining() ? buf.get() & 0xFF : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (!buf.hasRemaining()) {
                return -1;
            }
            int n = Math.min(len, buf.remaining());
            buf.get(b, off, n);
            return n;
        }
    }
}
