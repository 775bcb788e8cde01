package io.strata.storage.manifest;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import io.strata.storage.data.ValueCodec;
import io.strata.storage.data.ValueComparators;
import io.strata.storage.format.ColumnStats;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.format.DataFileReader;
import io.strata.storage.format.DataFileWriter;
import io.strata.storage.format.FileFormatConfig;
import io.strata.storage.format.FileSource;
import io.strata.storage.format.RollingFileWriter;
import io.strata.storage.fs.FileIO;
import io.strata.storage.fs.FileSizeMismatchException;
import io.strata.storage.fs.TablePaths;
import io.strata.storage.schema.DataField;
import io.strata.storage.schema.DataType;
import io.strata.storage.schema.TableSchema;
import io.strata.storage.util.CorruptFileException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32C;
import org.apache.hadoop.fs.Path;

/**
 * Reads and writes manifests: Parquet files (the data-file layout of an append table) whose rows
 * are {@link ManifestEntry}s. Columnar storage keeps planning a table of 100,000 files to a few
 * sequential reads; manifests roll at {@code manifest.target-file-size}.
 */
public final class ManifestFile {
    /** The fixed schema of manifest rows. Adding a column here means a new manifest version. */
    static final TableSchema ENTRY_SCHEMA = entrySchema();

    /** Column positions of an entry row ({@link #toRow}, {@link #fromRow}). */
    static final int KIND = 0,
            PARTITION = 1,
            BUCKET = 2,
            TOTAL_BUCKETS = 3,
            FILE_NAME = 4,
            FILE_SIZE = 5,
            ROW_COUNT = 6,
            DELETE_ROW_COUNT = 7,
            MIN_KEY = 8,
            MAX_KEY = 9,
            MIN_SEQ = 10,
            MAX_SEQ = 11,
            LEVEL = 12,
            SCHEMA_ID = 13,
            STATS = 14,
            CREATION_TIME = 15,
            FILE_SOURCE = 16;

    private final FileIO io;
    private final TablePaths paths;
    private final ManifestCache cache;
    private final FileFormatConfig format;
    private final DataFileWriter.Factory files;
    private final long targetSize;
    private final List<Comparator<Object>> partitionFieldComparators = new ArrayList<>();
    private final String uuid = UUID.randomUUID().toString();
    private final AtomicInteger counter = new AtomicInteger();

    /**
     * @param clock stamps the creation time of each manifest's Parquet file
     * @param cache where {@link #read} looks first
     */
    public ManifestFile(
            FileIO io,
            TablePaths paths,
            FileFormatConfig format,
            long targetSize,
            List<DataType> partitionTypes,
            Clock clock,
            ManifestCache cache) {
        this.io = io;
        this.paths = paths;
        this.cache = cache;
        this.format = format;
        this.files = DataFileWriter.durableOnFinish(io, ENTRY_SCHEMA, format, clock);
        this.targetSize = targetSize;
        for (DataType t : partitionTypes) {
            partitionFieldComparators.add(ValueComparators.forType(t));
        }
    }

    private static TableSchema entrySchema() {
        String[][] cols = {
            {"kind", "INT NOT NULL"},
            {"partition", "BYTES NOT NULL"},
            {"bucket", "INT NOT NULL"},
            {"total_buckets", "INT NOT NULL"},
            {"file_name", "STRING NOT NULL"},
            {"file_size", "BIGINT NOT NULL"},
            {"row_count", "BIGINT NOT NULL"},
            {"delete_row_count", "BIGINT NOT NULL"},
            {"min_key", "BYTES NOT NULL"},
            {"max_key", "BYTES NOT NULL"},
            {"min_sequence", "BIGINT NOT NULL"},
            {"max_sequence", "BIGINT NOT NULL"},
            {"level", "INT NOT NULL"},
            {"schema_id", "BIGINT NOT NULL"},
            {"stats", "BYTES NOT NULL"},
            {"creation_time", "BIGINT NOT NULL"},
            {"file_source", "INT NOT NULL"}
        };
        List<DataField> fields = new ArrayList<>();
        for (int i = 0; i < cols.length; i++) {
            fields.add(new DataField(i, cols[i][0], DataType.parse(cols[i][1])));
        }
        return new TableSchema(0, fields, cols.length - 1, List.of(), List.of(), Map.of(), 0);
    }

    /**
     * Writes {@code entries} into one or more new manifests. Deletes what it wrote if it fails. Each
     * manifest's CRC32C is computed over its bytes as they are written, which are the bytes a reader
     * finds ({@link DataFileWriter.Factory#reportingCrc32c}): no manifest is read back.
     */
    public List<ManifestFileMeta> write(List<ManifestEntry> entries) throws IOException {
        List<ManifestFileMeta> out = new ArrayList<>();
        int from = 0;
        Map<String, Long> crc32cs = new HashMap<>();
        RollingFileWriter writer = new RollingFileWriter(
                files.reportingCrc32c(crc32cs::put), this::newManifestPath, 0, FileSource.APPEND, targetSize, null);
        try {
            for (ManifestEntry e : entries) {
                writer.write(new KeyValue(0, RowKind.INSERT, toRow(e)));
            }
            List<DataFileMeta> files = writer.finish();
            for (DataFileMeta f : files) {
                List<ManifestEntry> part = entries.subList(from, from + (int) f.rowCount());
                from += (int) f.rowCount();
                out.add(describe(f.fileName(), f.fileSize(), hex(crc32cs.get(f.fileName())), part));
            }
            return out;
        } catch (IOException | RuntimeException e) {
            writer.abort();
            throw e;
        }
    }

    private static String crc32c(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return hex(crc.getValue());
    }

    /** A CRC32C as manifest lists record it: 8 lowercase hex digits. */
    private static String hex(long crc32c) {
        return String.format("%08x", crc32c);
    }

    private ManifestFileMeta describe(String name, long size, String crc32c, List<ManifestEntry> part) {
        long added = 0;
        long deleted = 0;
        Object[] min = null;
        Object[] max = null;
        int minBucket = Integer.MAX_VALUE;
        int maxBucket = Integer.MIN_VALUE;
        for (ManifestEntry e : part) {
            if (e.kind() == FileKind.ADD) {
                added++;
            } else {
                deleted++;
            }
            Object[] p = e.partition();
            if (min == null) {
                min = p.clone();
                max = p.clone();
            } else {
                for (int i = 0; i < p.length; i++) {
                    if (fieldCompare(i, p[i], min[i]) < 0) {
                        min[i] = p[i];
                    }
                    if (fieldCompare(i, p[i], max[i]) > 0) {
                        max[i] = p[i];
                    }
                }
            }
            minBucket = Math.min(minBucket, e.bucket());
            maxBucket = Math.max(maxBucket, e.bucket());
        }
        return new ManifestFileMeta(
                name,
                size,
                crc32c,
                added,
                deleted,
                min == null ? new Object[0] : min,
                max == null ? new Object[0] : max,
                minBucket,
                maxBucket);
    }

    private int fieldCompare(int field, Object a, Object b) {
        return partitionFieldComparators.get(field).compare(a, b);
    }

    /** Reads every entry of a manifest. Fails naming the manifest if it is missing or corrupt. */
    public List<ManifestEntry> read(String fileName) {
        Path path = paths.manifestFile(fileName);
        return cache.get(path, () -> readFile(path, -1));
    }

    /**
     * Reads every entry of the manifest {@code meta} describes, of the size its manifest list
     * records: a manifest of another length (truncated, or replaced by another one) fails naming
     * both sizes instead of being read as what the list names. Its pages' CRCs are verified like
     * a data file's.
     */
    public List<ManifestEntry> read(ManifestFileMeta meta) {
        Path path = paths.manifestFile(meta.fileName());
        return cache.get(
                path, () -> meta.crc32c() == null ? readFile(path, meta.fileSize()) : readVerified(path, meta));
    }

    /**
     * Reads the manifest whole (one read; manifests are small), checks its size and CRC32C against
     * what its list records, and parses the bytes checked. A manifest replaced by another of the
     * same size (manifests of commits that touch as many files often are) fails here.
     */
    private List<ManifestEntry> readVerified(Path path, ManifestFileMeta meta) {
        byte[] bytes;
        try {
            bytes = io.readFully(path);
        } catch (FileNotFoundException | NoSuchFileException e) {
            throw new CorruptFileException(
                    path, "manifest is missing (named by a manifest list, absent on the file system)", e);
        } catch (IOException e) {
            throw new CorruptFileException(path, "manifest cannot be read: " + e.getMessage(), e);
        }
        if (bytes.length != meta.fileSize()) {
            throw new CorruptFileException(
                    path,
                    "manifest has " + bytes.length + " bytes but its manifest list records " + meta.fileSize()
                            + ": it was truncated or replaced, and is not read");
        }
        String actual = crc32c(bytes);
        if (!actual.equals(meta.crc32c())) {
            throw new CorruptFileException(
                    path,
                    "manifest's CRC32C is " + actual + " but its manifest list records " + meta.crc32c()
                            + ": it was damaged or replaced, and is not read" + whereDamaged(path, bytes));
        }
        return readFile(path, bytes.length, bytes);
    }

    /** Where a manifest whose checksum failed is damaged, if parsing it says (its entries are dropped). */
    private String whereDamaged(Path path, byte[] bytes) {
        try {
            readFile(path, bytes.length, bytes);
            return "";
        } catch (CorruptFileException e) {
            return "; " + e.reason();
        }
    }

    private List<ManifestEntry> readFile(Path path, long expectedSize) {
        return readFile(path, expectedSize, null);
    }

    /** @param bytes the manifest's content, already read and checked; null: read it from the file system */
    private List<ManifestEntry> readFile(Path path, long expectedSize, byte[] bytes) {
        List<ManifestEntry> out = new ArrayList<>();
        DataFileReader.Options options =
                DataFileReader.of(io, format.conf(), path, ENTRY_SCHEMA).fileSize(expectedSize);
        if (bytes != null) {
            options.contents(bytes);
        }
        try (DataFileReader r = options.open()) {
            while (r.hasNext()) {
                out.add(fromRow(r.next().row(), path));
            }
        } catch (CorruptFileException e) {
            throw new CorruptFileException(path, whyUnreadable(e), e);
        }
        return out;
    }

    /** Why the manifest cannot be read, in the manifest's terms (the data file reader reads it). */
    private static String whyUnreadable(CorruptFileException e) {
        for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof FileSizeMismatchException) {
                FileSizeMismatchException size = (FileSizeMismatchException) t;
                return "manifest has " + size.actual() + " bytes but its manifest list records " + size.expected()
                        + ": it was truncated or replaced, and is not read";
            }
            if (t instanceof FileNotFoundException || t instanceof NoSuchFileException) {
                return "manifest is missing (named by a manifest list, absent on the file system)";
            }
        }
        return "manifest cannot be read: " + e.reason().replaceFirst("^cannot (open|read|decode) data file: ", "");
    }

    static Object[] toRow(ManifestEntry e) throws IOException {
        DataFileMeta f = e.file();
        Object[] r = new Object[ENTRY_SCHEMA.fields().size()];
        r[KIND] = (int) e.kind().value();
        r[PARTITION] = ValueCodec.encodeTuple(e.partition());
        r[BUCKET] = e.bucket();
        r[TOTAL_BUCKETS] = e.totalBuckets();
        r[FILE_NAME] = f.fileName();
        r[FILE_SIZE] = f.fileSize();
        r[ROW_COUNT] = f.rowCount();
        r[DELETE_ROW_COUNT] = f.deleteRowCount();
        r[MIN_KEY] = ValueCodec.encodeTuple(f.minKey());
        r[MAX_KEY] = ValueCodec.encodeTuple(f.maxKey());
        r[MIN_SEQ] = f.minSequence();
        r[MAX_SEQ] = f.maxSequence();
        r[LEVEL] = f.level();
        r[SCHEMA_ID] = f.schemaId();
        r[STATS] = encodeStats(f.stats());
        r[CREATION_TIME] = f.creationTimeMillis();
        r[FILE_SOURCE] = f.source().ordinal();
        return r;
    }

    static ManifestEntry fromRow(Object[] r, Path manifest) {
        try {
            DataFileMeta f = new DataFileMeta(
                    (String) r[FILE_NAME],
                    (Long) r[FILE_SIZE],
                    (Long) r[ROW_COUNT],
                    (Long) r[DELETE_ROW_COUNT],
                    ValueCodec.decodeTuple((byte[]) r[MIN_KEY]),
                    ValueCodec.decodeTuple((byte[]) r[MAX_KEY]),
                    (Long) r[MIN_SEQ],
                    (Long) r[MAX_SEQ],
                    (Integer) r[LEVEL],
                    (Long) r[SCHEMA_ID],
                    decodeStats((byte[]) r[STATS]),
                    (Long) r[CREATION_TIME],
                    FileSource.fromOrdinal((Integer) r[FILE_SOURCE]));
            return new ManifestEntry(
                    FileKind.fromValue((Integer) r[KIND]),
                    ValueCodec.decodeTuple((byte[]) r[PARTITION]),
                    (Integer) r[BUCKET],
                    (Integer) r[TOTAL_BUCKETS],
                    f);
        } catch (IOException | RuntimeException e) {
            throw new CorruptFileException(manifest, "bad manifest entry: " + e.getMessage(), e);
        }
    }

    static byte[] encodeStats(List<ColumnStats> stats) throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bos);
        out.writeInt(stats.size());
        for (ColumnStats s : stats) {
            out.writeInt(s.fieldId());
            ValueCodec.writeValue(out, s.min());
            ValueCodec.writeValue(out, s.max());
            out.writeLong(s.nullCount());
        }
        return bos.toByteArray();
    }

    static List<ColumnStats> decodeStats(byte[] bytes) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        int n = in.readInt();
        if (n < 0 || n > 100_000) {
            throw new IOException("corrupt stats: " + n + " columns");
        }
        List<ColumnStats> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new ColumnStats(in.readInt(), ValueCodec.readValue(in), ValueCodec.readValue(in), in.readLong()));
        }
        return out;
    }

    /** A new manifest name: {@code manifest-<uuid>-<n>.parquet}. */
    private Path newManifestPath() {
        return paths.manifestFile("manifest-" + uuid + "-" + counter.getAndIncrement() + ".parquet");
    }
}
