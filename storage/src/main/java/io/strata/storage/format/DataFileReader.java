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
import java.io.UncheckedIOException;
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
import org.apache.parquet.conf.HadoopParquetConfiguration;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.api.InitContext;
import org.apache.parquet.hadoop.api.ReadSupport;
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
    private final Path path;
    private final long fileSize;
    private final ParquetReader<KeyValue> reader;
    private KeyValue next;
    private boolean done;

    private DataFileReader(FileIO io, Path path, long fileSize, ParquetReader<KeyValue> reader) {
        this.io = io;
        this.path = path;
        this.fileSize = fileSize;
        this.reader = reader;
    }

    /**
     * @param readSchema   the schema rows are laid out in
     * @param projection   field ids to decode; null for all
     * @param primaryKey   whether the file has the system columns
     * @param fileSize     the file's size from the manifest (saves a round trip), or -1
     */
    public static DataFileReader open(FileIO io, Configuration conf, Path path, TableSchema readSchema,
                                      BitSet projection, boolean primaryKey, long fileSize) {
        InputFile in = ParquetFiles.input(io, path, fileSize);
        try {
            ParquetReader<KeyValue> r = new Builder(in, conf,
                    new KeyValueReadSupport(readSchema, projection, primaryKey, path)).withConf(conf).build();
            return new DataFileReader(io, path, fileSize, r);
        } catch (FileNotFoundException e) {
            throw new CorruptFileException(path, MISSING, e);
        } catch (IOException | RuntimeException e) {
            throw new CorruptFileException(path, "cannot open data file: " + reason(io, path, fileSize, e), e);
        }
    }

    @Override
    public boolean hasNext() {
        if (next == null && !done) {
            try {
                next = reader.read();
            } catch (FileNotFoundException e) {
                // Parquet opens the file on the first read, not when the reader is built
                throw new CorruptFileException(path, MISSING, e);
            } catch (IOException | RuntimeException e) {
                throw new CorruptFileException(path, "cannot read data file: " + reason(io, path, fileSize, e), e);
            }
            if (next == null) {
                done = true;
            }
        }
        return next != null;
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
    public KeyValue next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        KeyValue kv = next;
        next = null;
        return kv;
    }

    @Override
    public void close() {
        try {
            reader.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close " + path, e);
        }
    }

    private static final class Builder extends ParquetReader.Builder<KeyValue> {
        private final ReadSupport<KeyValue> support;

        /**
         * Passes {@code conf} to Parquet's constructor: the one-argument constructor builds a fresh
         * Hadoop Configuration (parsing core-default.xml, ~20 ms) for every file opened.
         */
        Builder(InputFile file, Configuration conf, ReadSupport<KeyValue> support) {
            super(file, new HadoopParquetConfiguration(conf));
            this.support = support;
        }

        @Override
        protected ReadSupport<KeyValue> getReadSupport() {
            return support;
        }
    }

    /** Requests the projected columns present in the file and maps them to read-schema positions. */
    private static final class KeyValueReadSupport extends ReadSupport<KeyValue> {
        private final TableSchema readSchema;
        private final BitSet projection;
        private final boolean primaryKey;
        private final Path path;

        KeyValueReadSupport(TableSchema readSchema, BitSet projection, boolean primaryKey, Path path) {
            this.readSchema = readSchema;
            this.projection = projection;
            this.primaryKey = primaryKey;
            this.path = path;
        }

        @Override
        public ReadContext init(InitContext context) {
            MessageType file = context.getFileSchema();
            String version = context.getKeyValueMetadata().containsKey(DataFileWriter.VERSION_KEY)
                    ? context.getKeyValueMetadata().get(DataFileWriter.VERSION_KEY).iterator().next() : null;
            if (!DataFileWriter.VERSION.equals(version)) {
                throw new CorruptFileException(path, "not a Strata data file of version " + DataFileWriter.VERSION
                        + " (found " + version + ")");
            }
            List<Type> requested = new ArrayList<>();
            if (primaryKey) {
                requested.add(file.getType(ParquetSchemas.SEQUENCE_COLUMN));
                requested.add(file.getType(ParquetSchemas.ROW_KIND_COLUMN));
            }
            for (Type t : file.getFields()) {
                if (t.getId() != null && wanted(t.getId().intValue())) {
                    requested.add(t);
                }
            }
            return new ReadContext(new MessageType(file.getName(), requested));
        }

        private boolean wanted(int fieldId) {
            boolean inSchema = false;
            for (DataField f : readSchema.fields()) {
                if (f.id() == fieldId) {
                    inSchema = true;
                    break;
                }
            }
            return inSchema && (projection == null || projection.get(fieldId));
        }

        @Override
        public RecordMaterializer<KeyValue> prepareForRead(Configuration conf, Map<String, String> meta,
                                                           MessageType fileSchema, ReadContext context) {
            return new KeyValueMaterializer(context.getRequestedSchema(), readSchema, primaryKey);
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
