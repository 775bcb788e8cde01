package io.strata.storage.format;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import io.strata.storage.fs.FileIO;
import io.strata.storage.schema.DataField;
import io.strata.storage.schema.DataType;
import io.strata.storage.schema.TableSchema;
import io.strata.storage.util.CloseableIterator;
import io.strata.storage.util.CorruptFileException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.Dictionary;
import java.nio.file.NoSuchFileException;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.HadoopParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.hadoop.util.HadoopCodecs;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Streams the records of one data file as {@link KeyValue}s whose row is laid out in the
 * <em>reading</em> schema (the table's current schema): columns are matched by field id, so a
 * file written before a column was added yields null for it. Only the field ids in
 * {@code projection} are decoded (others stay null). Memory: one Parquet row group at a time.
 *
 * <p>A missing file, or one that is not a readable Parquet file, fails with an exception that
 * names the file.
 */
public final class DataFileReader implements CloseableIterator<KeyValue> {
    private static final String MISSING = "data file is missing (named by the manifest, absent on the file system)";

    private final FileIO io;
    private final long fileSize;
    private final Path path;
    private final ParquetFileReader reader;
    private final MessageColumnIO columnIO;
    private final KeyValueMaterializer materializer;
    private RecordReader<KeyValue> records;
    private long rowsLeftInGroup;
    private boolean done;

    private DataFileReader(FileIO io, long fileSize, Path path, ParquetFileReader reader, MessageColumnIO columnIO,
                           KeyValueMaterializer materializer) {
        this.io = io;
        this.fileSize = fileSize;
        this.path = path;
        this.reader = reader;
        this.columnIO = columnIO;
        this.materializer = materializer;
    }

    /**
     * @param readSchema   the schema rows are laid out in
     * @param projection   field ids to decode; null for all
     * @param primaryKey   whether the file has the system columns
     * @param fileSize     the file's size from the manifest (saves a round trip), or -1
     */
    public static DataFileReader open(FileIO io, Configuration conf, Path path, TableSchema readSchema,
                                      BitSet projection, boolean primaryKey, long fileSize) {
        InputFile in = io.inputFile(path, fileSize);
        ParquetFileReader reader;
        try {
            ParquetReadOptions options = ParquetReadOptions.builder(new HadoopParquetConfiguration(conf))
                    .withCodecFactory(HadoopCodecs.newFactory(conf, 0)).build();
            reader = new ParquetFileReader(in, options);
        } catch (FileNotFoundException | NoSuchFileException e) {
            throw new CorruptFileException(path, MISSING, e);
        } catch (IOException | RuntimeException e) {
            throw new CorruptFileException(path, "cannot open data file: " + reason(io, path, fileSize, e), e);
        }
        try {
            FileMetaData meta = reader.getFileMetaData();
            String version = meta.getKeyValueMetaData().get(DataFileWriter.VERSION_KEY);
            if (!DataFileWriter.VERSION.equals(version)) {
                throw new CorruptFileException(path, "not a Strata data file of version " + DataFileWriter.VERSION
                        + " (found " + version + ")");
            }
            MessageType fileSchema = meta.getSchema();
            MessageType requested = requestedSchema(fileSchema, readSchema, projection, primaryKey);
            reader.setRequestedSchema(requested);
            MessageColumnIO columnIO = new ColumnIOFactory(meta.getCreatedBy()).getColumnIO(requested, fileSchema, true);
            return new DataFileReader(io, fileSize, path, reader, columnIO, new KeyValueMaterializer(requested, readSchema, primaryKey));
        } catch (RuntimeException e) {
            closeQuietly(reader);
            throw e instanceof CorruptFileException ? e
                    : new CorruptFileException(path, "unexpected data file layout: " + e.getMessage(), e);
        }
    }

    /** The projected columns present in the file; columns are matched to the read schema by field id. */
    private static MessageType requestedSchema(MessageType file, TableSchema readSchema, BitSet projection,
                                               boolean primaryKey) {
        BitSet inSchema = new BitSet();
        for (DataField f : readSchema.fields()) {
            inSchema.set(f.id());
        }
        List<Type> requested = new ArrayList<>();
        if (primaryKey) {
            requested.add(file.getType(ParquetSchemas.SEQUENCE_COLUMN));
            requested.add(file.getType(ParquetSchemas.ROW_KIND_COLUMN));
        }
        for (Type t : file.getFields()) {
            if (t.getId() != null) {
                int id = t.getId().intValue();
                if (inSchema.get(id) && (projection == null || projection.get(id))) {
                    requested.add(t);
                }
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
                PageReadStore pages = reader.readNextRowGroup();
                if (pages == null) {
                    done = true;
                    return false;
                }
                rowsLeftInGroup = pages.getRowCount();
                records = columnIO.getRecordReader(pages, materializer);
            }
            return true;
        } catch (IOException | RuntimeException e) {
            throw new CorruptFileException(path, "cannot read data file: " + reason(io, path, fileSize, e), e);
        }
    }

    @Override
    public KeyValue next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        try {
            KeyValue kv = records.read();
            rowsLeftInGroup--;
            return kv;
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

    @Override
    public void close() {
        closeQuietly(reader);
    }

    private static void closeQuietly(ParquetFileReader r) {
        try {
            r.close();
        } catch (IOException ignored) {
            // read-only handle; nothing to lose
        }
    }

    /** Builds one KeyValue per record. */
    private static final class KeyValueMaterializer extends RecordMaterializer<KeyValue> {
        private final RootConverter root;

        KeyValueMaterializer(MessageType requested, TableSchema readSchema, boolean primaryKey) {
            this.root = new RootConverter(requested, readSchema, primaryKey);
        }

        @Override
        public KeyValue getCurrentRecord() {
            return new KeyValue(root.seq, root.kind, root.row);
        }

        @Override
        public GroupConverter getRootConverter() {
            return root;
        }
    }

    private static final class RootConverter extends GroupConverter {
        private final Converter[] converters;
        private final int arity;
        long seq;
        RowKind kind = RowKind.INSERT;
        Object[] row;

        RootConverter(MessageType requested, TableSchema readSchema, boolean primaryKey) {
            this.arity = readSchema.fields().size();
            Map<Integer, Integer> positionById = new HashMap<>();
            for (int i = 0; i < arity; i++) {
                positionById.put(readSchema.fields().get(i).id(), i);
            }
            List<Type> fields = requested.getFields();
            converters = new Converter[fields.size()];
            int start = 0;
            if (primaryKey) {
                converters[0] = new PrimitiveConverter() {
                    @Override
                    public void addLong(long value) {
                        seq = value;
                    }
                };
                converters[1] = new PrimitiveConverter() {
                    @Override
                    public void addInt(int value) {
                        kind = RowKind.fromByteValue(value);
                    }
                };
                start = ParquetSchemas.SYSTEM_COLUMNS;
            }
            for (int i = start; i < fields.size(); i++) {
                int pos = positionById.get(fields.get(i).getId().intValue());
                converters[i] = valueConverter(pos, readSchema.fields().get(pos).type());
            }
        }

        private Converter valueConverter(int pos, DataType type) {
            switch (type.root()) {
                case STRING: return new StringConverter(pos);
                case BYTES: return new PrimitiveConverter() {
                    @Override
                    public void addBinary(Binary value) {
                        row[pos] = value.getBytes();
                    }
                };
                case DECIMAL: return new PrimitiveConverter() {
                    @Override
                    public void addBinary(Binary value) {
                        row[pos] = new BigDecimal(new BigInteger(value.getBytes()), type.scale());
                    }
                };
                default: return new PrimitiveConverter() {
                    @Override
                    public void addBoolean(boolean value) {
                        row[pos] = value;
                    }

                    @Override
                    public void addInt(int value) {
                        row[pos] = value;
                    }

                    @Override
                    public void addLong(long value) {
                        row[pos] = value;
                    }

                    @Override
                    public void addFloat(float value) {
                        row[pos] = value;
                    }

                    @Override
                    public void addDouble(double value) {
                        row[pos] = value;
                    }
                };
            }
        }

        /** Decodes a dictionary page once, so repeated strings are not decoded per row. */
        private final class StringConverter extends PrimitiveConverter {
            private final int pos;
            private String[] dict;

            StringConverter(int pos) {
                this.pos = pos;
            }

            @Override
            public boolean hasDictionarySupport() {
                return true;
            }

            @Override
            public void setDictionary(Dictionary dictionary) {
                dict = new String[dictionary.getMaxId() + 1];
                for (int i = 0; i < dict.length; i++) {
                    dict[i] = dictionary.decodeToBinary(i).toStringUsingUTF8();
                }
            }

            @Override
            public void addValueFromDictionary(int dictionaryId) {
                row[pos] = dict[dictionaryId];
            }

            @Override
            public void addBinary(Binary value) {
                row[pos] = value.toStringUsingUTF8();
            }
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return converters[fieldIndex];
        }

        @Override
        public void start() {
            row = new Object[arity];
            kind = RowKind.INSERT;
            seq = 0;
        }

        @Override
        public void end() {
        }
    }
}
