package io.strata.storage.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import io.strata.storage.fs.FileIO;
import io.strata.storage.schema.DataField;
import io.strata.storage.schema.DataType;
import io.strata.storage.schema.TableSchema;
import io.strata.storage.testutil.TestTables;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.EncodingStats;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.deltalengthbytearray.DeltaLengthByteArrayValuesWriter;
import org.apache.parquet.column.values.factory.DefaultValuesWriterFactory;
import org.apache.parquet.column.values.factory.ValuesWriterFactory;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Strata's reader ({@link DataFileReader}, decoding through {@link ColumnChunkDecoder}) against
 * parquet-mr's own reader, on files of random schemas over every Strata type, written by Strata's
 * writer, by Strata's row writer with the encodings of other writers, and by parquet-mr's
 * {@code ParquetWriter} with v1 and v2 pages (DECIMAL then as INT32, INT64, fixed-length or
 * variable-length bytes, as other writers store it). Both readers must return exactly the rows
 * written. Seeds are fixed; a failure names its seed and its file's settings, and
 * {@code -Dstrata.decoder.seed=N} runs that seed alone.
 *
 * <p>The test also checks that the files covered what it is for: every column type and null
 * density, v1 and v2 pages, every value encoding the decoder reads, and every physical type of DECIMAL.
 */
class ColumnChunkDecoderDifferentialTest {
    private static final int SEEDS = 64;
    private static final Configuration CONF = ParquetMr.conf();

    @TempDir
    java.nio.file.Path dir;

    /** Who writes a file and how. */
    private enum Writer {
        /** {@link DataFileWriter}: v1 pages, PLAIN or dictionary as Strata chooses, the on-disk format of tables. */
        STRATA,
        /**
         * {@link ParquetRowWriter} with v1 or v2 properties, byte-stream-split numbers and, at
         * times, DELTA_LENGTH_BYTE_ARRAY binaries.
         */
        STRATA_OTHER_ENCODINGS,
        /** parquet-mr's {@code ParquetWriter} with v1 pages. */
        PARQUET_MR_V1,
        /** parquet-mr's {@code ParquetWriter} with v2 pages (DELTA_*, RLE_DICTIONARY, RLE booleans). */
        PARQUET_MR_V2
    }

    /** One random file: schema, rows and writer settings. */
    private static final class Case {
        long seed;
        Writer writer;
        TableSchema schema;
        boolean primaryKey;
        /** Per field: how a parquet-mr writer stores it (DECIMAL: any of its physical types). */
        List<Type> mrColumns = new ArrayList<>();

        List<RandomColumns.Generator> generators = new ArrayList<>();
        List<KeyValue> rows = new ArrayList<>();
        CompressionCodecName codec;
        int pageSize;
        int pageRowLimit;
        long blockSize;
        /** Rows per row group of a parquet-mr writer (its size limit on tiny groups logs warnings). */
        int rowGroupRows;

        boolean dictionary;
        boolean byteStreamSplit;
        boolean deltaLengthBinaries;
        boolean v2;
        boolean raw;
        BitSet projection;

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder()
                    .append(writer)
                    .append(v2 ? " v2" : " v1")
                    .append(", ")
                    .append(rows.size())
                    .append(" rows, ")
                    .append(codec)
                    .append(", page ")
                    .append(pageSize)
                    .append(" B / ")
                    .append(pageRowLimit)
                    .append(" rows, row group ")
                    .append(blockSize)
                    .append(" B / ")
                    .append(rowGroupRows)
                    .append(" rows")
                    .append(dictionary ? ", dictionary" : "")
                    .append(byteStreamSplit ? ", byte-stream-split" : "")
                    .append(deltaLengthBinaries ? ", delta-length binaries" : "")
                    .append(raw ? ", raw" : "")
                    .append(projection != null ? ", projection " + projection : "")
                    .append(", columns [");
            if (primaryKey) {
                sb.append("(system) ");
            }
            for (int i = 0; i < schema.fields().size(); i++) {
                DataField f = schema.fields().get(i);
                RandomColumns.Generator g = generators.get(i);
                sb.append(i == 0 ? "" : ", ")
                        .append(f.name())
                        .append('#')
                        .append(f.id())
                        .append(' ')
                        .append(f.type())
                        .append(" nulls ")
                        .append(g.nullDensity())
                        .append(g.repeats() ? " repeated" : " distinct");
                if (writer == Writer.PARQUET_MR_V1 || writer == Writer.PARQUET_MR_V2) {
                    sb.append(" as ").append(mrColumns.get(i).asPrimitiveType().getPrimitiveTypeName());
                }
            }
            return sb.append(']').toString();
        }
    }

    @Test
    void randomFilesOfEveryWriterReadBackEqualThroughStrataAndParquetMr() throws IOException {
        Set<Encoding> encodings = EnumSet.noneOf(Encoding.class);
        Set<String> pages = new TreeSet<>();
        Set<PrimitiveTypeName> decimals = EnumSet.noneOf(PrimitiveTypeName.class);
        Set<DataType.Root> types = EnumSet.noneOf(DataType.Root.class);
        Set<Double> nullDensities = new TreeSet<>();
        Long only = Long.getLong("strata.decoder.seed");
        int seeds = SEEDS * TestTables.iterations();
        for (long seed = 1; seed <= seeds; seed++) {
            if (only != null && seed != only) {
                continue;
            }
            Case c = generate(seed);
            try {
                Path file = write(c);
                for (BlockMetaData block : ParquetMr.footer(file, CONF).getBlocks()) {
                    for (ColumnChunkMetaData col : block.getColumns()) {
                        EncodingStats stats = col.getEncodingStats();
                        encodings.addAll(stats.getDataEncodings());
                        pages.add(stats.usesV2Pages() ? "v2" : "v1");
                        if (col.getPrimitiveType().getLogicalTypeAnnotation()
                                instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) {
                            decimals.add(col.getPrimitiveType().getPrimitiveTypeName());
                        }
                    }
                }
                compare(c, file);
                for (int i = 0; i < c.generators.size() && !c.rows.isEmpty(); i++) {
                    types.add(c.schema.fields().get(i).type().root());
                    nullDensities.add(c.generators.get(i).nullDensity());
                }
            } catch (Throwable t) {
                throw new AssertionError(
                        "seed " + seed + " (rerun alone with -Dstrata.decoder.seed=" + seed + "): " + c + ": " + t, t);
            }
        }
        if (only == null) {
            assertThat(pages).as("page versions written").containsExactly("v1", "v2");
            assertThat(encodings)
                    .as("value encodings written")
                    .contains(
                            Encoding.PLAIN,
                            Encoding.PLAIN_DICTIONARY,
                            Encoding.RLE_DICTIONARY,
                            Encoding.RLE,
                            Encoding.DELTA_BINARY_PACKED,
                            Encoding.DELTA_LENGTH_BYTE_ARRAY,
                            Encoding.DELTA_BYTE_ARRAY,
                            Encoding.BYTE_STREAM_SPLIT);
            // nested types are read by parquet-mr's own record assembly (NestedTypesTest), not decoded here
            assertThat(types)
                    .as("flat column types written")
                    .containsExactlyInAnyOrder(Arrays.stream(DataType.Root.values())
                            .filter(r -> r != DataType.Root.ARRAY && r != DataType.Root.MAP && r != DataType.Root.ROW)
                            .toArray(DataType.Root[]::new));
            assertThat(nullDensities).as("null densities written").containsExactly(0.0, 0.1, 0.5, 1.0);
            assertThat(decimals)
                    .as("DECIMAL physical types written")
                    .containsExactlyInAnyOrder(
                            PrimitiveTypeName.INT32,
                            PrimitiveTypeName.INT64,
                            PrimitiveTypeName.BINARY,
                            PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY);
        }
    }

    private static Case generate(long seed) {
        // consecutive seeds of java.util.Random start alike: spread them first
        Random rnd = new Random(seed * 0x9E3779B97F4A7C15L);
        Case c = new Case();
        c.seed = seed;
        c.writer = Writer.values()[(int) (seed % Writer.values().length)];
        c.primaryKey = rnd.nextBoolean();
        int columns = 1 + rnd.nextInt(7);
        List<DataField> fields = new ArrayList<>();
        int id = rnd.nextInt(4);
        for (int i = 0; i < columns; i++, id += 1 + rnd.nextInt(3)) {
            DataType type = RandomColumns.type(rnd);
            boolean nullable = !(c.primaryKey && i == 0) && rnd.nextInt(4) != 0;
            DataField f = new DataField(id, "c" + i, type.copy(nullable));
            fields.add(f);
            c.generators.add(new RandomColumns.Generator(f.type(), rnd));
            c.mrColumns.add(mrColumn(f, rnd));
        }
        c.codec = new CompressionCodecName[] {
                    CompressionCodecName.UNCOMPRESSED,
                    CompressionCodecName.SNAPPY,
                    CompressionCodecName.ZSTD,
                    CompressionCodecName.GZIP
                }
                [rnd.nextInt(4)];
        boolean tiny = rnd.nextBoolean();
        c.pageSize = tiny ? new int[] {64, 512, 4096}[rnd.nextInt(3)] : 1 << 20;
        c.pageRowLimit =
                tiny && rnd.nextBoolean() ? 1 + rnd.nextInt(50) : ParquetProperties.DEFAULT_PAGE_ROW_COUNT_LIMIT;
        boolean parquetMr = c.writer == Writer.PARQUET_MR_V1 || c.writer == Writer.PARQUET_MR_V2;
        boolean smallGroups = rnd.nextBoolean();
        c.blockSize = smallGroups && !parquetMr ? new int[] {2048, 16384}[rnd.nextInt(2)] : 128L << 20;
        c.rowGroupRows =
                smallGroups && parquetMr ? 1 + rnd.nextInt(300) : ParquetProperties.DEFAULT_ROW_GROUP_ROW_COUNT_LIMIT;
        c.dictionary = rnd.nextInt(4) != 0;
        c.byteStreamSplit = c.writer == Writer.STRATA_OTHER_ENCODINGS
                ? rnd.nextInt(3) != 0
                : c.writer == Writer.PARQUET_MR_V2 && rnd.nextBoolean();
        c.deltaLengthBinaries = c.writer == Writer.STRATA_OTHER_ENCODINGS && rnd.nextBoolean();
        c.v2 = c.writer == Writer.PARQUET_MR_V2 || c.writer == Writer.STRATA_OTHER_ENCODINGS && rnd.nextBoolean();
        c.raw = rnd.nextInt(4) == 0;
        if (!c.raw && rnd.nextInt(4) == 0) {
            c.projection = new BitSet();
            for (DataField f : fields) {
                if (rnd.nextBoolean()) {
                    c.projection.set(f.id());
                }
            }
        }
        Map<String, String> options = new HashMap<>();
        options.put("file.compression", c.codec.name().toLowerCase(Locale.ROOT));
        options.put("file.page-size", String.valueOf(c.pageSize));
        options.put("file.block-size", String.valueOf(c.blockSize));
        c.schema = new TableSchema(0, fields, id, List.of(), c.primaryKey ? List.of("c0") : List.of(), options, 0);
        int rows = new int[] {0, 1, 5, 100, 700, 2500}[rnd.nextInt(6)];
        if (rows == 0 && c.primaryKey && c.writer == Writer.STRATA) {
            rows = 1; // Strata writes no empty primary-key file (its key range would be undefined)
        }
        for (int r = 0; r < rows; r++) {
            Object[] row = new Object[columns];
            for (int i = 0; i < columns; i++) {
                row[i] = c.generators.get(i).next(rnd);
            }
            long sequence = c.primaryKey ? rnd.nextLong() & Long.MAX_VALUE >> rnd.nextInt(63) : 0;
            RowKind kind = c.primaryKey ? RowKind.fromByteValue(rnd.nextInt(4)) : RowKind.INSERT;
            c.rows.add(new KeyValue(sequence, kind, row));
        }
        return c;
    }

    /**
     * How another writer may store {@code f}: as Strata does, except DECIMAL in fixed-length or
     * variable-length bytes, or in INT32 up to 9 digits and INT64 from 10 to 18 (as the Parquet
     * specification recommends).
     */
    private static Type mrColumn(DataField f, Random rnd) {
        DataType t = f.type();
        if (t.root() != DataType.Root.DECIMAL) {
            return ParquetSchemas.columnType(f);
        }
        List<PrimitiveTypeName> physical =
                new ArrayList<>(List.of(PrimitiveTypeName.BINARY, PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY));
        if (t.precision() <= 9) {
            physical.add(PrimitiveTypeName.INT32);
        } else if (t.precision() <= 18) {
            physical.add(PrimitiveTypeName.INT64);
        }
        PrimitiveTypeName p = physical.get(rnd.nextInt(physical.size()));
        Type.Repetition rep = t.isNullable() ? Type.Repetition.OPTIONAL : Type.Repetition.REQUIRED;
        return Types.primitive(p, rep)
                .length(p == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY ? fixedLength(t) : 0)
                .as(LogicalTypeAnnotation.decimalType(t.scale(), t.precision()))
                .id(f.id())
                .named(f.name());
    }

    /** The fewest bytes whose two's complement holds every unscaled value of {@code t}'s precision. */
    private static int fixedLength(DataType t) {
        return (BigInteger.TEN.pow(t.precision()).bitLength() + 1 + 7) / 8;
    }

    private Path write(Case c) throws IOException {
        java.nio.file.Path local = dir.resolve("seed-" + c.seed + ".parquet");
        Path file = new Path(local.toUri());
        Map<String, String> meta = Map.of(DataFileWriter.VERSION_KEY, DataFileWriter.VERSION);
        switch (c.writer) {
            case STRATA:
                FileIO io = FileIO.forWarehouse(dir.toString(), CONF);
                DataFileWriter w = DataFileWriter.durableOnFinish(
                                io, c.schema, new FileFormatConfig(CONF, c.schema.tableOptions()), Clock.systemUTC())
                        .create(file, 0, FileSource.APPEND);
                for (KeyValue kv : c.rows) {
                    w.write(kv);
                }
                w.finish();
                break;
            case STRATA_OTHER_ENCODINGS:
                ParquetProperties.Builder props = ParquetProperties.builder()
                        .withWriterVersion(c.v2 ? WriterVersion.PARQUET_2_0 : WriterVersion.PARQUET_1_0)
                        .withPageSize(c.pageSize)
                        .withDictionaryPageSize(c.pageSize)
                        .withPageRowCountLimit(c.pageRowLimit)
                        .withMinRowCountForPageSizeCheck(1)
                        .withDictionaryEncoding(c.dictionary)
                        .withByteStreamSplitEncoding(c.byteStreamSplit)
                        .withExtendedByteStreamSplitEncoding(c.byteStreamSplit);
                if (c.deltaLengthBinaries) {
                    props.withValuesWriterFactory(new DeltaLengthBinaries());
                }
                ParquetRowWriter rw = new ParquetRowWriter(
                        HadoopOutputFile.fromPath(file, CONF),
                        ParquetSchemas.messageType(c.schema.fields(), c.primaryKey),
                        c.schema.fields(),
                        c.primaryKey,
                        props.build(),
                        CONF,
                        c.codec,
                        c.blockSize,
                        meta);
                for (KeyValue kv : c.rows) {
                    rw.write(kv);
                }
                rw.close();
                break;
            default:
                writeWithParquetMr(c, file, meta);
        }
        return file;
    }

    private static void writeWithParquetMr(Case c, Path file, Map<String, String> meta) throws IOException {
        Types.MessageTypeBuilder b = Types.buildMessage();
        if (c.primaryKey) {
            b.addField(Types.required(PrimitiveTypeName.INT64).named(ParquetSchemas.SEQUENCE_COLUMN));
            b.addField(Types.required(PrimitiveTypeName.INT32).named(ParquetSchemas.ROW_KIND_COLUMN));
        }
        c.mrColumns.forEach(b::addField);
        MessageType schema = b.named("other");
        SimpleGroupFactory groups = new SimpleGroupFactory(schema);
        try (ParquetWriter<Group> w = ExampleParquetWriter.builder(HadoopOutputFile.fromPath(file, CONF))
                .withConf(CONF)
                .withType(schema)
                .withExtraMetaData(meta)
                .withWriterVersion(c.v2 ? WriterVersion.PARQUET_2_0 : WriterVersion.PARQUET_1_0)
                .withCompressionCodec(c.codec)
                .withPageSize(c.pageSize)
                .withDictionaryPageSize(c.pageSize)
                .withPageRowCountLimit(c.pageRowLimit)
                .withMinRowCountForPageSizeCheck(1)
                .withRowGroupSize(c.blockSize)
                .withRowGroupRowCountLimit(c.rowGroupRows)
                .withDictionaryEncoding(c.dictionary)
                .withByteStreamSplitEncoding(c.byteStreamSplit)
                .build()) {
            for (KeyValue kv : c.rows) {
                Group g = groups.newGroup();
                if (c.primaryKey) {
                    g.append(ParquetSchemas.SEQUENCE_COLUMN, kv.sequence());
                    g.append(ParquetSchemas.ROW_KIND_COLUMN, (int) kv.kind().toByteValue());
                }
                for (int i = 0; i < kv.row().length; i++) {
                    Object v = kv.row()[i];
                    if (v != null) {
                        append(g, c.mrColumns.get(i), v);
                    }
                }
                w.write(g);
            }
        }
    }

    private static void append(Group g, Type column, Object v) {
        String name = column.getName();
        PrimitiveTypeName p = column.asPrimitiveType().getPrimitiveTypeName();
        if (v instanceof BigDecimal) {
            BigInteger unscaled = ((BigDecimal) v).unscaledValue();
            switch (p) {
                case INT32:
                    g.append(name, unscaled.intValueExact());
                    return;
                case INT64:
                    g.append(name, unscaled.longValueExact());
                    return;
                case FIXED_LEN_BYTE_ARRAY:
                    g.append(
                            name,
                            Binary.fromConstantByteArray(signExtended(
                                    unscaled, column.asPrimitiveType().getTypeLength())));
                    return;
                default:
                    g.append(name, Binary.fromConstantByteArray(unscaled.toByteArray()));
                    return;
            }
        }
        if (v instanceof Boolean) {
            g.append(name, (Boolean) v);
        } else if (v instanceof Byte || v instanceof Short) {
            g.append(name, ((Number) v).intValue());
        } else if (v instanceof Integer) {
            g.append(name, (Integer) v);
        } else if (v instanceof Long) {
            g.append(name, (Long) v);
        } else if (v instanceof Float) {
            g.append(name, (Float) v);
        } else if (v instanceof Double) {
            g.append(name, (Double) v);
        } else if (v instanceof String) {
            g.append(name, Binary.fromString((String) v));
        } else {
            g.append(name, Binary.fromConstantByteArray((byte[]) v));
        }
    }

    private static byte[] signExtended(BigInteger unscaled, int length) {
        byte[] minimal = unscaled.toByteArray();
        byte[] out = new byte[length];
        Arrays.fill(out, 0, length - minimal.length, (byte) (unscaled.signum() < 0 ? 0xff : 0));
        System.arraycopy(minimal, 0, out, length - minimal.length, minimal.length);
        return out;
    }

    /** Reads {@code file} with both readers and compares each with the rows written. */
    private void compare(Case c, Path file) throws IOException {
        FileIO io = FileIO.forWarehouse(dir.toString(), CONF);
        long size = Files.size(java.nio.file.Path.of(file.toUri()));
        List<KeyValue> strata = new ArrayList<>();
        DataFileReader.Options read = DataFileReader.of(io, CONF, file, c.schema)
                .projection(c.projection)
                .fileSize(size);
        try (DataFileReader r = c.raw ? read.rawStrings().open() : read.open()) {
            while (r.hasNext()) {
                strata.add(r.next());
            }
        }
        List<Group> mr = ParquetMr.read(file, CONF);
        assertThat(strata).as("rows read by Strata").hasSize(c.rows.size());
        assertThat(mr).as("rows read by parquet-mr").hasSize(c.rows.size());
        List<DataField> fields = c.schema.fields();
        for (int r = 0; r < c.rows.size(); r++) {
            KeyValue expected = c.rows.get(r);
            KeyValue s = strata.get(r);
            Group g = mr.get(r);
            if (c.primaryKey) {
                check(
                        r,
                        ParquetSchemas.SEQUENCE_COLUMN,
                        expected.sequence(),
                        s.sequence(),
                        g.getLong(ParquetSchemas.SEQUENCE_COLUMN, 0));
                check(
                        r,
                        ParquetSchemas.ROW_KIND_COLUMN,
                        expected.kind(),
                        s.kind(),
                        RowKind.fromByteValue(g.getInteger(ParquetSchemas.ROW_KIND_COLUMN, 0)));
            }
            for (int i = 0; i < fields.size(); i++) {
                DataField f = fields.get(i);
                Object want = expected.row()[i];
                Object got = s.row()[i];
                if (c.raw && f.type().root() == DataType.Root.STRING && got != null) {
                    got = new String((byte[]) got, StandardCharsets.UTF_8);
                }
                boolean projected = c.projection == null || c.projection.get(f.id());
                check(r, f.name(), want, projected ? got : want, ParquetMr.value(g, f.name(), f.type()));
                if (!projected) {
                    assertThat(got)
                            .as("row %d, column %s outside the projection", r, f.name())
                            .isNull();
                }
            }
        }
    }

    private static void check(int row, String column, Object expected, Object strata, Object parquetMr) {
        if (!Objects.deepEquals(expected, strata) || !Objects.deepEquals(expected, parquetMr)) {
            throw new AssertionError("row " + row + ", column " + column + ": wrote " + show(expected)
                    + ", Strata read " + show(strata) + ", parquet-mr read " + show(parquetMr));
        }
    }

    private static String show(Object v) {
        return v instanceof byte[] ? Arrays.toString((byte[]) v) : String.valueOf(v);
    }

    /**
     * Parquet's default value writers, except BINARY columns in DELTA_LENGTH_BYTE_ARRAY, which no
     * default of parquet-mr writes but other writers do.
     */
    private static final class DeltaLengthBinaries implements ValuesWriterFactory {
        private final ValuesWriterFactory defaults = new DefaultValuesWriterFactory();
        private ParquetProperties props;

        @Override
        public void initialize(ParquetProperties properties) {
            props = properties;
            defaults.initialize(properties);
        }

        @Override
        public ValuesWriter newValuesWriter(ColumnDescriptor column) {
            if (column.getPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.BINARY) {
                return new DeltaLengthByteArrayValuesWriter(64, props.getPageSizeThreshold(), props.getAllocator());
            }
            return defaults.newValuesWriter(column);
        }
    }
}
