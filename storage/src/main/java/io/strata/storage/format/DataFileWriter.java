package io.strata.storage.format;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.ValueComparators;
import io.strata.storage.fs.FileIO;
import io.strata.storage.schema.DataField;
import io.strata.storage.schema.DataType;
import io.strata.storage.schema.TableSchema;
import java.io.Closeable;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ObjLongConsumer;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;

/**
 * Writes one Parquet data file from records in the order given (a primary-key writer gives them
 * sorted by key and sequence) and produces its {@link DataFileMeta}. Column statistics come from
 * Parquet's own footer, so writing does no extra per-value comparisons.
 *
 * <p>On failure the partial file is deleted by {@link #abort()}; a file is part of the table only
 * once a snapshot names it.
 */
public final class DataFileWriter implements Closeable {
    /** Footer key: the Strata data file format version. */
    public static final String VERSION_KEY = "strata.data-file.version";

    /** Footer key: the id of the schema the file was written with. */
    static final String SCHEMA_ID_KEY = "strata.schema-id";

    /**
     * The version this writer writes: 2 adds the {@code _ORDERINGS} system column to primary-key
     * files ({@link ParquetSchemas}); readers also read version 1, whose records carry no ordering
     * state.
     */
    public static final String VERSION = "2";

    /** Data file versions a reader accepts. */
    static final java.util.Set<String> READABLE_VERSIONS = java.util.Set.of("1", "2");

    /**
     * Rows buffered before the Parquet writer is created: their distinct values decide which
     * columns get dictionary encoding (see {@link #dictionaryColumns}).
     */
    static final int SAMPLE_ROWS = 1024;
    /** A column whose sample is at least this share distinct values is written without a dictionary. */
    private static final double HIGH_CARDINALITY = 0.8;
    /** Below this many sampled rows, Parquet's defaults apply (a tiny sample says nothing). */
    private static final int MIN_SAMPLE = 64;

    /**
     * How the data files of one table are written: where (file IO), in which layout (schema,
     * format), when they become durable, and the clock that stamps their creation time. Immutable;
     * one instance serves any number of files.
     */
    public static final class Factory {
        private final FileIO io;
        private final TableSchema schema;
        private final FileFormatConfig format;
        private final Clock clock;
        private final boolean committedLater;
        /** Null: the files' CRC32Cs are not computed. */
        private final ObjLongConsumer<String> crc32cSink;

        private Factory(
                FileIO io,
                TableSchema schema,
                FileFormatConfig format,
                Clock clock,
                boolean committedLater,
                ObjLongConsumer<String> crc32cSink) {
            this.io = io;
            this.schema = schema;
            this.format = format;
            this.clock = clock;
            this.committedLater = committedLater;
            this.crc32cSink = crc32cSink;
        }

        /**
         * This factory's files, each of which, when {@link DataFileWriter#finish()} has closed it,
         * hands {@code sink} its name and the CRC32C of its bytes (unsigned 32 bits). The CRC32C is
         * computed over the bytes as they go to the file ({@link Crc32cOutputFile}), so it is what a
         * reader of the file finds there, at no extra read; finish fails instead when the file's
         * length differs from the bytes counted.
         */
        public Factory reportingCrc32c(ObjLongConsumer<String> sink) {
            return new Factory(io, schema, format, clock, committedLater, sink);
        }

        /**
         * A writer of one file at {@code path}. The file itself is created with the first {@link
         * DataFileWriter#SAMPLE_ROWS} rows (or at {@link DataFileWriter#estimatedSize()} or {@link
         * DataFileWriter#finish()}, whichever comes first).
         */
        public DataFileWriter create(Path path, int level, FileSource source) {
            return new DataFileWriter(this, path, level, source);
        }

        public FileIO fileIO() {
            return io;
        }
    }

    /**
     * Data and changelog files, which only a later commit names: their durability is settled by
     * that commit ({@link FileIO#dataOutputFile}, {@link FileIO#makeDurable}) instead of at
     * {@link #finish()}.
     */
    public static Factory forCommit(FileIO io, TableSchema schema, FileFormatConfig format, Clock clock) {
        return new Factory(io, schema, format, clock, true, null);
    }

    /**
     * Files durable once {@link #finish()} returns ({@link FileIO#outputFile}): manifests, which a
     * snapshot names directly, and files written outside a table's commit.
     */
    public static Factory durableOnFinish(FileIO io, TableSchema schema, FileFormatConfig format, Clock clock) {
        return new Factory(io, schema, format, clock, false, null);
    }

    private final Factory files;
    private final FileIO io;
    private final Path path;
    private final TableSchema schema;
    private final FileFormatConfig format;
    private final boolean primaryKey;
    private final int[] keyIndexes;
    private final int level;
    private final FileSource source;
    private ParquetRowWriter writer;
    /** The file, when the factory reports CRC32Cs; else null. */
    private Crc32cOutputFile checksummed;

    private List<KeyValue> sample = new ArrayList<>();

    private long rowCount;
    private long deleteCount;
    private long minSeq = Long.MAX_VALUE;
    private long maxSeq = Long.MIN_VALUE;
    private Object[] firstRow;
    private Object[] lastRow;
    private boolean closed;

    private DataFileWriter(Factory files, Path path, int level, FileSource source) {
        this.files = files;
        this.io = files.io;
        this.path = path;
        this.schema = files.schema;
        this.format = files.format;
        this.primaryKey = schema.hasPrimaryKey();
        this.keyIndexes = schema.primaryKeyIndexes();
        this.level = level;
        this.source = source;
    }

    /**
     * Creates the Parquet writer and writes the sampled rows. Dictionary encoding is disabled
     * where it would only be built to be thrown away: the sequence number and the key of a
     * primary-key file (unique within a sorted file), and every column whose sampled values are
     * nearly all distinct (Parquet would fill a dictionary page with them and then fall back,
     * re-encoding everything; with ids from a page-sized dictionary it gains nothing anyway).
     */
    private void open() throws IOException {
        MessageType type = ParquetSchemas.messageType(schema.fields(), primaryKey);
        ParquetProperties.Builder props = ParquetProperties.builder()
                .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0)
                .withAllocator(BufferPool.shared())
                .withPageSize(format.pageSize())
                .withDictionaryPageSize(format.pageSize())
                .withDictionaryEncoding(true)
                // every page carries the CRC32 of its stored bytes, which every read verifies
                .withPageWriteChecksumEnabled(true);
        boolean[] dictionary = dictionaryColumns(sample);
        if (primaryKey) {
            props.withDictionaryEncoding(ParquetSchemas.SEQUENCE_COLUMN, false);
        }
        for (int i = 0; i < dictionary.length; i++) {
            if (!dictionary[i]) {
                props.withDictionaryEncoding(schema.fields().get(i).name(), false);
            }
        }
        OutputFile out = files.committedLater ? io.dataOutputFile(path) : io.outputFile(path);
        if (files.crc32cSink != null) {
            checksummed = new Crc32cOutputFile(out);
            out = checksummed;
        }
        writer = new ParquetRowWriter(
                out,
                type,
                schema.fields(),
                primaryKey,
                props.build(),
                format.conf(),
                format.codec(),
                format.blockSize(),
                Map.of(VERSION_KEY, VERSION, SCHEMA_ID_KEY, String.valueOf(schema.id())));
        List<KeyValue> rows = sample;
        sample = null;
        for (KeyValue kv : rows) {
            writer.write(kv);
        }
    }

    /** Per field: whether its column may use dictionary encoding, judged on {@code rows}. */
    private boolean[] dictionaryColumns(List<KeyValue> rows) {
        boolean[] out = new boolean[schema.fields().size()];
        Arrays.fill(out, true);
        if (primaryKey) {
            for (int i : keyIndexes) {
                out[i] = false;
            }
        }
        if (rows.size() < MIN_SAMPLE) {
            return out;
        }
        Set<Object> distinct = new HashSet<>();
        for (int i = 0; i < out.length; i++) {
            DataType t = schema.fields().get(i).type();
            // a nested column's leaves are not named by the field: Parquet's defaults apply to them
            if (!out[i] || t.root() == DataType.Root.BOOLEAN || t.isNested()) {
                continue;
            }
            distinct.clear();
            int nonNull = 0;
            for (KeyValue kv : rows) {
                Object v = kv.row()[i];
                if (v != null) {
                    nonNull++;
                    // byte[] (BYTES, raw STRING) compare by identity; wrap them to compare by content
                    distinct.add(v instanceof byte[] ? ByteBuffer.wrap((byte[]) v) : v);
                }
            }
            out[i] = nonNull < MIN_SAMPLE || distinct.size() < HIGH_CARDINALITY * nonNull;
        }
        return out;
    }

    public void write(KeyValue kv) throws IOException {
        if (writer != null) {
            writer.write(kv);
        } else {
            sample.add(kv);
            if (sample.size() >= SAMPLE_ROWS) {
                open();
            }
        }
        rowCount++;
        if (kv.kind().isRetract()) {
            deleteCount++;
        }
        long seq = kv.sequence();
        if (seq < minSeq) {
            minSeq = seq;
        }
        if (seq > maxSeq) {
            maxSeq = seq;
        }
        if (firstRow == null) {
            firstRow = kv.row();
        }
        lastRow = kv.row();
    }

    public long rowCount() {
        return rowCount;
    }

    /** Bytes written plus buffered: an estimate of the final size, for rolling. */
    public long estimatedSize() throws IOException {
        if (writer == null) {
            open();
        }
        return writer.dataSize();
    }

    public Path path() {
        return path;
    }

    /** The last row written, or null. */
    public Object[] lastRow() {
        return lastRow;
    }

    /** Closes the file and returns its metadata, created at the factory clock's current time. */
    public DataFileMeta finish() throws IOException {
        if (writer == null) {
            open();
        }
        writer.close();
        closed = true;
        long size = io.length(path);
        if (checksummed != null) {
            if (checksummed.bytesWritten() != size) {
                throw new IOException("file " + path + " has " + size + " bytes but " + checksummed.bytesWritten()
                        + " were written to it: the CRC32C computed while writing is not the file's");
            }
            files.crc32cSink.accept(path.getName(), checksummed.crc32c());
        }
        ParquetMetadata footer = writer.footer();
        Object[] minKey = primaryKey ? keyOf(firstRow) : new Object[0];
        Object[] maxKey = primaryKey ? keyOf(lastRow) : new Object[0];
        return new DataFileMeta(
                path.getName(),
                size,
                rowCount,
                deleteCount,
                minKey,
                maxKey,
                rowCount == 0 ? 0 : minSeq,
                rowCount == 0 ? 0 : maxSeq,
                level,
                schema.id(),
                statsFromFooter(footer, schema.fields()),
                files.clock.millis(),
                source);
    }

    /** The key of {@code row} with API value types (a raw STRING value decoded), for the manifest. */
    private Object[] keyOf(Object[] row) {
        Object[] key = ValueComparators.project(row, keyIndexes);
        for (int i = 0; i < key.length; i++) {
            if (key[i] instanceof byte[]
                    && schema.fields().get(keyIndexes[i]).type().root() == DataType.Root.STRING) {
                key[i] = ValueComparators.asString(key[i]);
            }
        }
        return key;
    }

    /** Closes and deletes the partial file. Never throws. */
    public void abort() {
        try {
            if (!closed) {
                closed = true;
                if (writer != null) {
                    writer.abort();
                }
            }
        } catch (RuntimeException ignored) {
            // the file is being discarded; its content does not matter
        }
        try {
            io.delete(path);
        } catch (IOException ignored) {
            // an unreferenced file is harmless; orphan cleanup removes it
        }
    }

    @Override
    public void close() throws IOException {
        if (!closed) {
            abort();
        }
    }

    static List<ColumnStats> statsFromFooter(ParquetMetadata footer, List<DataField> fields) {
        Map<String, DataField> byName = new HashMap<>();
        for (DataField f : fields) {
            // ARRAY, MAP and ROW keep no statistics: their leaves' have no order of the whole value
            if (!f.type().isNested()) {
                byName.put(f.name(), f);
            }
        }
        Map<String, Object[]> acc = new HashMap<>(); // name -> {min, max, nullCount(Long), known(Boolean)}
        for (BlockMetaData block : footer.getBlocks()) {
            for (ColumnChunkMetaData col : block.getColumns()) {
                if (col.getPath().size() != 1) {
                    continue; // a leaf of a nested column
                }
                String name = col.getPath().toDotString();
                DataField f = byName.get(name);
                if (f == null) {
                    continue;
                }
                Object[] a = acc.computeIfAbsent(name, k -> new Object[] {null, null, 0L, Boolean.TRUE});
                Statistics<?> st = col.getStatistics();
                if (st == null || st.isEmpty() || !st.isNumNullsSet()) {
                    a[3] = Boolean.FALSE;
                    continue;
                }
                a[2] = (Long) a[2] + st.getNumNulls();
                if (st.hasNonNullValue()) {
                    Comparator<Object> cmp = ValueComparators.forType(f.type());
                    Object min = toValue(f.type(), st.genericGetMin());
                    Object max = toValue(f.type(), st.genericGetMax());
                    a[0] = a[0] == null || cmp.compare(min, a[0]) < 0 ? min : a[0];
                    a[1] = a[1] == null || cmp.compare(max, a[1]) > 0 ? max : a[1];
                } else if (col.getValueCount() > st.getNumNulls()) {
                    a[3] = Boolean.FALSE;
                }
            }
        }
        List<ColumnStats> out = new ArrayList<>();
        for (DataField f : fields) {
            Object[] a = acc.get(f.name());
            if (a == null || !((Boolean) a[3])) {
                out.add(new ColumnStats(f.id(), null, null, -1));
            } else {
                out.add(new ColumnStats(f.id(), a[0], a[1], (Long) a[2]));
            }
        }
        return out;
    }

    private static Object toValue(DataType type, Object parquetValue) {
        if (type.root() == DataType.Root.TINYINT) {
            return ((Integer) parquetValue).byteValue();
        }
        if (type.root() == DataType.Root.SMALLINT) {
            return ((Integer) parquetValue).shortValue();
        }
        if (parquetValue instanceof Binary) {
            Binary b = (Binary) parquetValue;
            switch (type.root()) {
                case STRING:
                case CHAR:
                case VARCHAR:
                    return b.toStringUsingUTF8();
                case DECIMAL:
                    return new BigDecimal(new BigInteger(b.getBytes()), type.scale());
                default:
                    return b.getBytes();
            }
        }
        return parquetValue;
    }
}
