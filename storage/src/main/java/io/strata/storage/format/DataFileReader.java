package io.strata.storage.format;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import io.strata.storage.fs.FileIO;
import io.strata.storage.fs.FileSizeMismatchException;
import io.strata.storage.schema.DataField;
import io.strata.storage.schema.TableSchema;
import io.strata.storage.util.CloseableIterator;
import io.strata.storage.util.CorruptFileException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.HadoopParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Streams the records of one data file as {@link KeyValue}s whose row is laid out in the
 * <em>reading</em> schema (the table's current schema): columns are matched by field id, so a
 * file written before a column was added yields null for it. Only the field ids in
 * {@code projection} are decoded (others stay null). Memory: one Parquet row group at a time.
 *
 * <p>Decoding goes column by column, a page at a time ({@link ColumnChunkDecoder}), with no record
 * assembly: a row takes the next decoded value of each requested column. Dictionaries are
 * decoded once per column chunk. Columns of nested types (ARRAY, MAP, ROW) are assembled by
 * parquet-mr instead ({@link NestedColumnReader}), beside the flat ones; a read that requests no
 * nested column never assembles records.
 *
 * <p>A reader opened with {@link Options#rawStrings() raw strings} keeps STRING values as their UTF-8 bytes
 * ({@code byte[]}) instead of decoding them to {@link String}: for paths that only move rows
 * from file to file (compaction), which compare them with {@link
 * io.strata.storage.data.ValueComparators#forFields(int[], List, boolean) raw comparators} and
 * write them back unchanged ({@link DataFileWriter} accepts both forms).
 *
 * <p>A missing file, or one that is not a readable Parquet file, fails with an exception that
 * names the file; so does a column that cannot hold its read type's values, or a page in an
 * encoding the decoder does not read ({@link ReadableColumns}), which also names the column.
 * Every page that carries a CRC (the page header's {@code crc}, which {@link DataFileWriter}
 * always writes) is verified before any value of its row group is returned; a mismatch, or a page
 * header that does not parse, fails naming the file, the column, the row group and the page
 * ({@link PageChecksums}). A file opened with its {@link Options#fileSize recorded size} that has
 * another size fails naming both sizes before anything of it is read.
 */
public final class DataFileReader implements CloseableIterator<KeyValue> {
    private static final String MISSING = "data file is missing (named by the manifest, absent on the file system)";

    private final FileIO io;
    private final long fileSize;
    private final Path path;
    private final InputFile in;
    private final ParquetFileReader reader;
    /** Every leaf column read (flat and nested): the ones a damaged page is looked for in. */
    private final List<ColumnDescriptor> leaves;
    /** The row group {@link #hasNext} reads next, counted from 0. */
    private int rowGroupIndex;

    private final PageDecompression decompression;
    /** Every pooled buffer this reader borrows (Parquet's column chunks, decompressed pages). */
    private final BufferPool.Scope buffers;

    /** The flat columns read, decoded by {@link ColumnChunkDecoder}s (the system columns first). */
    private final List<ColumnDescriptor> descriptors;

    private final boolean primaryKey;
    private final int arity;
    /** Whether the file has the {@code _ORDERINGS} column (data file version 2); read third when it has. */
    private final boolean orderingsColumn;
    /** Flat system columns read before the user columns: 2 or 3 in a primary-key file, else 0. */
    private final int systemColumns;
    /** Per flat column: its position in the row (system columns: unused). */
    private final int[] positions;
    /** The nested columns read, assembled by parquet-mr; null when none is read. */
    private final NestedColumnReader nested;

    private final ColumnChunkDecoder.Kind[] kinds;
    private final int[] scales;
    private ColumnChunkDecoder[] columns;
    private long rowsLeftInGroup;
    private boolean done;
    /** The row group being read; closed (its buffers released) before the next one is read. */
    private PageReadStore rowGroup;

    private DataFileReader(
            FileIO io,
            long fileSize,
            Path path,
            InputFile in,
            ParquetFileReader reader,
            BufferPool.Scope buffers,
            PageDecompression decompression,
            MessageType requested,
            TableSchema readSchema,
            boolean primaryKey,
            boolean rawStrings,
            String createdBy) {
        this.io = io;
        this.fileSize = fileSize;
        this.path = path;
        this.in = in;
        this.reader = reader;
        this.leaves = requested.getColumns();
        this.decompression = decompression;
        this.buffers = buffers;
        this.primaryKey = primaryKey;
        this.arity = readSchema.fields().size();
        ColumnPlan plan = new ColumnPlan(requested, readSchema, primaryKey, rawStrings);
        this.descriptors = plan.flat;
        this.orderingsColumn = plan.orderingsColumn;
        this.systemColumns = plan.systemColumns;
        this.positions = plan.flatPositions.stream().mapToInt(Integer::intValue).toArray();
        this.kinds = plan.flatKinds.toArray(new ColumnChunkDecoder.Kind[0]);
        this.scales = plan.flatScales.stream().mapToInt(Integer::intValue).toArray();
        this.nested = plan.nestedColumns.isEmpty()
                ? null
                : new NestedColumnReader(
                        new MessageType(requested.getName(), plan.nestedColumns),
                        plan.nestedTypes,
                        plan.nestedPositions.stream()
                                .mapToInt(Integer::intValue)
                                .toArray(),
                        createdBy,
                        decompression);
    }

    /**
     * Starts opening the data file at {@code path}, its rows laid out in {@code readSchema}; by
     * default every column is decoded, STRING values are {@link String}s and the file's size is
     * asked of the file system. The file has the system columns (sequence number, row kind and,
     * from version 2, ordering state) exactly when {@code readSchema} has a primary key, as {@link
     * DataFileWriter} writes them; a version 1 file yields records without ordering state.
     */
    public static Options of(FileIO io, Configuration conf, Path path, TableSchema readSchema) {
        return new Options(io, conf, path, readSchema);
    }

    /** What to read of one data file; {@link #open()} opens it. Not thread-safe. */
    public static final class Options {
        private final FileIO io;
        private final Configuration conf;
        private final Path path;
        private final TableSchema readSchema;
        private BitSet projection;
        private long fileSize = -1;
        private boolean rawStrings;
        private byte[] contents;

        private Options(FileIO io, Configuration conf, Path path, TableSchema readSchema) {
            this.io = io;
            this.conf = conf;
            this.path = path;
            this.readSchema = readSchema;
        }

        /** Decodes only these field ids (the others stay null); null for all. */
        public Options projection(BitSet fieldIds) {
            this.projection = fieldIds;
            return this;
        }

        /**
         * The file's size from the manifest (saves a round trip); -1 if unknown. A file of another
         * size fails to open, naming both sizes.
         */
        public Options fileSize(long bytes) {
            this.fileSize = bytes;
            return this;
        }

        /**
         * Parses {@code bytes}, the file's whole content already read (and checked) by the caller,
         * instead of reading the file.
         */
        public Options contents(byte[] bytes) {
            this.contents = bytes;
            return this;
        }

        /**
         * STRING values are {@code byte[]} holding their UTF-8 bytes. Rows read this way must not
         * reach readers of the table API.
         */
        public Options rawStrings() {
            this.rawStrings = true;
            return this;
        }

        /** Opens the file; fails, naming it, if it is missing or not a readable Strata data file. */
        public DataFileReader open() {
            boolean primaryKey = readSchema.hasPrimaryKey();
            InputFile in =
                    contents != null ? new BytesInputFile(path.toString(), contents) : io.inputFile(path, fileSize);
            ParquetFileReader reader;
            BufferPool.Scope buffers = BufferPool.shared().scope();
            PageDecompression decompression = new PageDecompression(conf, buffers);
            try {
                ParquetReadOptions options = ParquetReadOptions.builder(new HadoopParquetConfiguration(conf))
                        .withCodecFactory(decompression)
                        .withAllocator(buffers)
                        .usePageChecksumVerification(true)
                        .build();
                reader = new ParquetFileReader(in, options);
            } catch (FileNotFoundException | NoSuchFileException e) {
                buffers.close();
                throw new CorruptFileException(path, MISSING, e);
            } catch (FileSizeMismatchException e) {
                buffers.close();
                throw new CorruptFileException(
                        path,
                        "the file has " + e.actual() + " bytes, the manifest records " + e.expected()
                                + ": it was truncated or replaced, and is not read",
                        e);
            } catch (IOException | RuntimeException e) {
                buffers.close();
                throw new CorruptFileException(path, "cannot open data file: " + reason(io, path, fileSize, e), e);
            }
            try {
                FileMetaData meta = reader.getFileMetaData();
                String version = meta.getKeyValueMetaData().get(DataFileWriter.VERSION_KEY);
                if (!DataFileWriter.READABLE_VERSIONS.contains(version)) {
                    throw new CorruptFileException(
                            path,
                            "not a Strata data file of version 1 or " + DataFileWriter.VERSION + " (found " + version
                                    + ")");
                }
                MessageType fileSchema = meta.getSchema();
                boolean newerSchema = writtenUnderSchema(meta) > readSchema.id();
                MessageType requested = requestedSchema(fileSchema, readSchema, projection, primaryKey, newerSchema);
                reader.setRequestedSchema(requested);
                return new DataFileReader(
                        io,
                        fileSize,
                        path,
                        in,
                        reader,
                        buffers,
                        decompression,
                        requested,
                        readSchema,
                        primaryKey,
                        rawStrings,
                        meta.getCreatedBy());
            } catch (RuntimeException e) {
                closeQuietly(reader, decompression, buffers);
                throw e instanceof CorruptFileException
                        ? e
                        : new CorruptFileException(path, "unexpected data file layout: " + e.getMessage(), e);
            }
        }
    }

    /** The projected columns present in the file; columns are matched to the read schema by field id. */
    /** The id of the schema the file was written with (footer {@code strata.schema-id}); -1 when it does not parse. */
    private static long writtenUnderSchema(FileMetaData meta) {
        try {
            return Long.parseLong(meta.getKeyValueMetaData().getOrDefault(DataFileWriter.SCHEMA_ID_KEY, "-1"));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * @param newerSchema the file was written under a schema newer than {@code readSchema} (by a
     *                    writer that evolved the table after this reader's handle was opened)
     */
    private static MessageType requestedSchema(
            MessageType file, TableSchema readSchema, BitSet projection, boolean primaryKey, boolean newerSchema) {
        BitSet inSchema = new BitSet();
        for (DataField f : readSchema.fields()) {
            inSchema.set(f.id());
        }
        List<Type> requested = new ArrayList<>();
        if (primaryKey) {
            requested.add(file.getType(ParquetSchemas.SEQUENCE_COLUMN));
            requested.add(file.getType(ParquetSchemas.ROW_KIND_COLUMN));
            if (file.containsField(ParquetSchemas.ORDERINGS_COLUMN)) {
                requested.add(file.getType(ParquetSchemas.ORDERINGS_COLUMN));
            }
        }
        BitSet inFile = new BitSet();
        for (Type t : file.getFields()) {
            if (t.getId() != null) {
                int id = t.getId().intValue();
                // field ids are never reused and columns never dropped, so the reading schema has
                // every id of a file written under it or an older one (a file of a newer schema may
                // have higher ids: columns added since, not read): another id, or one twice, is a
                // damaged footer, and the column would silently read as null
                boolean known = inSchema.get(id) || (newerSchema && id > readSchema.highestFieldId());
                if (!known || inFile.get(id)) {
                    throw new IllegalStateException("column " + t.getName() + " has field id " + id + ", which "
                            + (inFile.get(id)
                                    ? "another column of the file has too"
                                    : "the table's schema does not have"));
                }
                inFile.set(id);
                if (inSchema.get(id) && (projection == null || projection.get(id))) {
                    requested.add(t);
                }
            } else if (!ParquetSchemas.isSystemColumn(t.getName())) {
                throw new IllegalStateException("column " + t.getName() + " has no field id");
            }
        }
        for (DataField f : readSchema.fields()) {
            // columns are only ever added nullable: a NOT NULL column is in every file
            if (!f.type().isNullable() && !inFile.get(f.id())) {
                throw new IllegalStateException(
                        "the file has no column with the field id " + f.id() + " of NOT NULL column " + f.name());
            }
        }
        return new MessageType(file.getName(), requested);
    }

    @Override
    public boolean hasNext() {
        if (done) {
            return false;
        }
        try {
            while (rowsLeftInGroup == 0) {
                releaseRowGroup();
                PageReadStore pages = readNextRowGroup();
                if (pages == null) {
                    done = true;
                    return false;
                }
                rowGroup = pages;
                checkValueCounts(pages);
                rowGroupIndex++;
                rowsLeftInGroup = pages.getRowCount();
                if (nested != null) {
                    nested.startRowGroup(pages);
                }
                columns = new ColumnChunkDecoder[descriptors.size()];
                for (int i = 0; i < columns.length; i++) {
                    ColumnDescriptor d = descriptors.get(i);
                    columns[i] = new ColumnChunkDecoder(
                            d, pages.getPageReader(d), decompression, kinds[i], scales[i], primaryKey && i < 2);
                }
            }
            return true;
        } catch (CorruptFileException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new CorruptFileException(path, "cannot read data file: " + reason(io, path, fileSize, e), e);
        }
    }

    /**
     * A flat column has one value (null included) per row: a row group whose row count and a
     * column's value count differ has a damaged footer, and is not read (its first rows would
     * read fine, its last ones not at all, or rows would be cut short).
     */
    private void checkValueCounts(PageReadStore pages) {
        for (ColumnDescriptor d : descriptors) {
            long values = pages.getPageReader(d).getTotalValueCount();
            if (values != pages.getRowCount()) {
                throw new CorruptFileException(
                        path,
                        "row group " + rowGroupIndex + " has " + pages.getRowCount() + " rows, but its column "
                                + String.join(".", d.getPath()) + " has " + values + " values");
            }
        }
    }

    /**
     * The next row group, its pages' CRCs verified (Parquet checks each page that has one as it
     * reads the chunk). A failure names the damaged column and page when one is found.
     */
    private PageReadStore readNextRowGroup() {
        try {
            return reader.readNextRowGroup();
        } catch (IOException | RuntimeException e) {
            List<BlockMetaData> groups = reader.getRowGroups();
            String where = rowGroupIndex < groups.size()
                    ? PageChecksums.locate(in, groups.get(rowGroupIndex), rowGroupIndex, leaves)
                            .map(p -> "damaged page: " + p)
                            .orElse(null)
                    : null;
            throw new CorruptFileException(
                    path, "cannot read data file: " + (where != null ? where : reason(io, path, fileSize, e)), e);
        }
    }

    @Override
    public KeyValue next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        try {
            ColumnChunkDecoder[] cs = columns;
            long seq = 0;
            RowKind kind = RowKind.INSERT;
            byte[] orderings = null;
            if (primaryKey) {
                seq = cs[0].nextLong();
                kind = RowKind.fromByteValue(cs[1].nextInt());
                if (orderingsColumn) {
                    orderings = (byte[]) cs[2].next();
                }
            }
            Object[] row = new Object[arity];
            int[] pos = positions;
            for (int i = systemColumns; i < cs.length; i++) {
                row[pos[i]] = cs[i].next();
            }
            if (nested != null) {
                nested.readInto(row);
            }
            rowsLeftInGroup--;
            return new KeyValue(seq, kind, row, orderings);
        } catch (RuntimeException e) {
            throw new CorruptFileException(path, "cannot decode data file: " + reason(io, path, fileSize, e), e);
        }
    }

    /**
     * The failure's message (Parquet's EOF errors have none) and, when the file's length differs
     * from the size the manifest recorded, both sizes: the usual sign of a truncated copy.
     */
    private static String reason(FileIO io, Path path, long expectedSize, Exception e) {
        String r = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        if (expectedSize >= 0) {
            try {
                long actual = io.length(path);
                if (actual != expectedSize) {
                    r += " (the file has " + actual + " bytes, the manifest records " + expectedSize + ")";
                }
            } catch (IOException | RuntimeException ignored) {
                // only an extra hint for the message
            }
        }
        return r;
    }

    /**
     * Hands the current row group's buffers back to {@link BufferPool}: its decoders' decompressed
     * pages, then its column chunks (Parquet leaves that to whoever reads the row group). Every
     * value the decoders returned is a copy, never a view of those buffers.
     */
    private void releaseRowGroup() {
        if (nested != null) {
            nested.endRowGroup();
        }
        ColumnChunkDecoder[] cs = columns;
        columns = null;
        if (cs != null) {
            for (ColumnChunkDecoder c : cs) {
                if (c != null) {
                    c.close();
                }
            }
        }
        if (rowGroup != null) {
            PageReadStore r = rowGroup;
            rowGroup = null;
            try {
                r.close();
            } catch (Exception e) {
                throw new IllegalStateException("cannot release a row group of " + path, e);
            }
        }
    }

    @Override
    public void close() {
        try {
            releaseRowGroup();
        } finally {
            closeQuietly(reader, decompression, buffers);
        }
    }

    /** Closes the file, then takes back every buffer still lent: nothing reads them any more. */
    private static void closeQuietly(ParquetFileReader r, PageDecompression decompression, BufferPool.Scope buffers) {
        try {
            r.close();
        } catch (IOException ignored) {
            // read-only handle; nothing to lose
        } finally {
            decompression.release();
            buffers.close();
        }
    }
}
