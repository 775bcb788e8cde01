package io.strata.storage.format;

import io.strata.storage.data.KeyValue;
import io.strata.storage.schema.DataField;
import io.strata.storage.schema.DataType;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;

/**
 * Writes {@link KeyValue}s into one Parquet file. Rows of a flat schema go through Parquet's column
 * writers directly: each value goes to its column's writer with its definition level, with no
 * record shredding in between (what {@code ParquetWriter} does through a record consumer). Rows of
 * a schema with an ARRAY, MAP or ROW column go through Parquet's record shredding instead
 * ({@link RecordShredder}), which computes their repetition levels.
 * Row groups, pages, statistics, column indexes and the footer are Parquet's own, produced with
 * the same settings as {@code ParquetWriter} with the given properties; the row-group size check
 * follows {@code InternalParquetRecordWriter}'s.
 *
 * <p>A STRING, CHAR or VARCHAR value may be a {@link String} or its UTF-8 bytes ({@code byte[]}).
 */
final class ParquetRowWriter {
    private static final int MIN_RECORDS_FOR_CHECK = 100;
    private static final int MAX_RECORDS_FOR_CHECK = 10000;

    private final ParquetFileWriter file;
    private final MessageType schema;
    private final ParquetProperties props;
    private final CodecFactory codecs;
    private final CompressionCodecFactory.BytesInputCompressor compressor;
    private final long rowGroupSize;
    private final boolean systemColumns;
    private final DataType.Root[] roots;
    private final int[] maxDefinition;
    private final Map<String, String> extraMetaData;
    /** Null for a flat schema. */
    private final RecordShredder shredder;

    private ColumnChunkPageWriteStore pageStore;
    private ColumnWriteStore columnStore;
    private ColumnWriter[] writers;
    private long recordCount;
    private long recordCountForNextCheck = MIN_RECORDS_FOR_CHECK;
    private long nextRowGroupSize;
    private long lastRowGroupEndPos;
    private int rowGroupOrdinal;
    private boolean closed;

    ParquetRowWriter(
            OutputFile out,
            MessageType schema,
            List<DataField> fields,
            boolean systemColumns,
            ParquetProperties props,
            Configuration conf,
            CompressionCodecName codec,
            long rowGroupSize,
            Map<String, String> extraMetaData)
            throws IOException {
        this.schema = schema;
        this.props = props;
        this.rowGroupSize = rowGroupSize;
        this.nextRowGroupSize = rowGroupSize;
        this.systemColumns = systemColumns;
        this.extraMetaData = extraMetaData;
        this.roots = new DataType.Root[fields.size()];
        for (int i = 0; i < roots.length; i++) {
            roots[i] = fields.get(i).type().root();
        }
        List<ColumnDescriptor> columns = schema.getColumns();
        this.maxDefinition = new int[columns.size()];
        for (int i = 0; i < maxDefinition.length; i++) {
            maxDefinition[i] = columns.get(i).getMaxDefinitionLevel();
        }
        this.shredder = ParquetSchemas.hasNested(fields) ? new RecordShredder(schema, fields, systemColumns) : null;
        this.codecs = new CodecFactory(conf, props.getPageSizeThreshold());
        this.compressor = codecs.getCompressor(codec);
        ParquetFileWriter f = null;
        try {
            f = new ParquetFileWriter(
                    out,
                    schema,
                    ParquetFileWriter.Mode.CREATE,
                    rowGroupSize,
                    ParquetWriter.MAX_PADDING_SIZE_DEFAULT,
                    null,
                    props);
            f.start();
        } catch (IOException | RuntimeException e) {
            codecs.release();
            throw e;
        }
        this.file = f;
        initStore();
    }

    private void initStore() {
        pageStore = new ColumnChunkPageWriteStore(
                compressor,
                schema,
                props.getAllocator(),
                props.getColumnIndexTruncateLength(),
                props.getPageWriteChecksumEnabled(),
                null,
                rowGroupOrdinal);
        columnStore = props.newColumnWriteStore(schema, pageStore, pageStore);
        List<ColumnDescriptor> columns = schema.getColumns();
        writers = new ColumnWriter[columns.size()];
        for (int i = 0; i < writers.length; i++) {
            writers[i] = columnStore.getColumnWriter(columns.get(i));
        }
        if (shredder != null) {
            shredder.writeTo(columnStore);
        }
    }

    void write(KeyValue kv) throws IOException {
        if (shredder != null) {
            shredder.write(kv);
        } else {
            writeFlat(kv);
        }
        recordCount++;
        if (recordCount >= recordCountForNextCheck) {
            checkRowGroupSize();
        }
    }

    /** A STRING, CHAR, VARCHAR or BYTES value as Parquet binary (a String's UTF-8 bytes). */
    static Binary binary(Object v) {
        return v instanceof byte[] ? Binary.fromConstantByteArray((byte[]) v) : Binary.fromString((String) v);
    }

    private void writeFlat(KeyValue kv) {
        ColumnWriter[] w = writers;
        int c = 0;
        if (systemColumns) {
            w[0].write(kv.sequence(), 0, 0);
            w[1].write((int) kv.kind().toByteValue(), 0, 0);
            byte[] orderings = kv.orderings();
            if (orderings == null) {
                w[2].writeNull(0, 0);
            } else {
                w[2].write(Binary.fromConstantByteArray(orderings), 0, 1);
            }
            c = ParquetSchemas.SYSTEM_COLUMNS;
        }
        Object[] row = kv.row();
        DataType.Root[] r = roots;
        for (int i = 0; i < r.length; i++, c++) {
            Object v = row[i];
            ColumnWriter cw = w[c];
            if (v == null) {
                cw.writeNull(0, 0);
                continue;
            }
            int d = maxDefinition[c];
            switch (r[i]) {
                case BOOLEAN:
                    cw.write((Boolean) v, 0, d);
                    break;
                case INT:
                case DATE:
                case TIME:
                    cw.write((Integer) v, 0, d);
                    break;
                case TINYINT:
                case SMALLINT:
                    cw.write(((Number) v).intValue(), 0, d);
                    break;
                case BIGINT:
                case TIMESTAMP:
                case TIMESTAMP_LTZ:
                    cw.write((Long) v, 0, d);
                    break;
                case FLOAT:
                    cw.write((Float) v, 0, d);
                    break;
                case DOUBLE:
                    cw.write((Double) v, 0, d);
                    break;
                case STRING:
                case CHAR:
                case VARCHAR:
                    cw.write(binary(v), 0, d);
                    break;
                case BYTES:
                    cw.write(Binary.fromConstantByteArray((byte[]) v), 0, d);
                    break;
                case DECIMAL:
                    cw.write(
                            Binary.fromConstantByteArray(
                                    ((BigDecimal) v).unscaledValue().toByteArray()),
                            0,
                            d);
                    break;
                default:
                    throw new IllegalStateException("unsupported " + r[i]);
            }
        }
        columnStore.endRecord();
    }

    private void checkRowGroupSize() throws IOException {
        long memSize = columnStore.getBufferedSize();
        long recordSize = memSize / recordCount;
        if (memSize > nextRowGroupSize - 2 * recordSize) {
            flushRowGroup();
            initStore();
            recordCountForNextCheck = Math.min(Math.max(MIN_RECORDS_FOR_CHECK, recordCount / 2), MAX_RECORDS_FOR_CHECK);
            lastRowGroupEndPos = file.getPos();
        } else {
            recordCountForNextCheck = Math.min(
                    Math.max(
                            MIN_RECORDS_FOR_CHECK,
                            (recordCount + (long) (nextRowGroupSize / (float) Math.max(1, recordSize))) / 2),
                    recordCount + MAX_RECORDS_FOR_CHECK);
        }
    }

    private void flushRowGroup() throws IOException {
        if (recordCount > 0) {
            file.startBlock(recordCount);
            if (shredder != null) {
                shredder.flush();
            }
            columnStore.flush();
            pageStore.flushToFileWriter(file);
            recordCount = 0;
            file.endBlock();
            rowGroupOrdinal++;
            nextRowGroupSize = Math.min(file.getNextRowGroupSize(), rowGroupSize);
        }
        columnStore.close();
        pageStore.close();
    }

    /** Bytes written plus buffered. */
    long dataSize() {
        return lastRowGroupEndPos + columnStore.getBufferedSize();
    }

    /** Writes the last row group and the footer. */
    void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            flushRowGroup();
            file.end(extraMetaData);
        } finally {
            codecs.release();
        }
    }

    /** Releases buffers without completing the file (the caller deletes it). Never throws. */
    void abort() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            columnStore.close();
            pageStore.close();
        } catch (RuntimeException ignored) {
            // discarding
        }
        try {
            file.abort();
            file.close(); // releases the output stream; the caller deletes the partial file
        } catch (IOException | RuntimeException ignored) {
            // discarding
        }
        codecs.release();
    }

    ParquetMetadata footer() {
        return file.getFooter();
    }
}
