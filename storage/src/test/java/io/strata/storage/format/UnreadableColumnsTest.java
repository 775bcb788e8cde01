package io.strata.storage.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import io.strata.storage.fs.FileIO;
import io.strata.storage.schema.DataField;
import io.strata.storage.schema.DataType;
import io.strata.storage.schema.TableSchema;
import io.strata.storage.util.CorruptFileException;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.factory.DefaultValuesWriterFactory;
import org.apache.parquet.column.values.factory.ValuesWriterFactory;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridValuesWriter;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Files Strata's reader refuses rather than decode into wrong values: a page in an encoding the
 * decoder does not read for its column's type, and a column whose Parquet type cannot hold the
 * read schema's type. The failure names the file and the column (and the encoding or the types).
 */
class UnreadableColumnsTest {
    private static final Configuration CONF = ParquetMr.conf();

    @TempDir
    java.nio.file.Path dir;

    /** INT32 values in RLE, which Parquet defines for booleans (and levels) only; parquet-mr refuses them too. */
    @ParameterizedTest
    @EnumSource(value = WriterVersion.class)
    void aPageInAnEncodingNotReadForItsTypeFailsNamingFileColumnAndEncoding(WriterVersion version) throws IOException {
        List<DataField> fields = List.of(
                new DataField(0, "k", DataType.bigint().copy(false)), new DataField(1, "n", DataType.intType()));
        TableSchema schema = new TableSchema(0, fields, 1, List.of(), List.of(), Map.of(), 0);
        Path file = new Path(dir.resolve("rle-ints-" + version + ".parquet").toUri());
        ParquetProperties props = ParquetProperties.builder()
                .withWriterVersion(version)
                .withValuesWriterFactory(new RleInts())
                .build();
        ParquetRowWriter w = new ParquetRowWriter(
                HadoopOutputFile.fromPath(file, CONF),
                ParquetSchemas.messageType(fields, false),
                fields,
                false,
                props,
                CONF,
                CompressionCodecName.UNCOMPRESSED,
                128L << 20,
                Map.of(DataFileWriter.VERSION_KEY, DataFileWriter.VERSION));
        for (int i = 0; i < 50; i++) {
            w.write(new KeyValue(0, RowKind.INSERT, new Object[] {(long) i, i % 3 == 0 ? null : i + 1}));
        }
        w.close();

        assertThatThrownBy(() -> readAll(file, schema))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining(file.getName())
                .hasMessageContaining("column n")
                .hasMessageContaining("encoded RLE")
                .hasMessageContaining("INT32");
        assertThatThrownBy(() -> ParquetMr.read(file, CONF))
                .hasRootCauseMessage("Unsupported encoding for values: RLE");
    }

    @Test
    void aColumnThatCannotHoldItsReadTypeFailsNamingFileAndColumn() throws IOException {
        Path strings = singleColumn(
                "strings",
                Types.optional(PrimitiveTypeName.BINARY)
                        .as(LogicalTypeAnnotation.stringType())
                        .id(1)
                        .named("v"),
                g -> g.append("v", Binary.fromString("x")));
        assertThatThrownBy(() -> readAll(strings, schemaOf(DataType.bigint())))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining(strings.getName())
                .hasMessageContaining("column v")
                .hasMessageContaining("cannot be read as BIGINT");

        Path cents = singleColumn(
                "cents",
                Types.optional(PrimitiveTypeName.INT64)
                        .as(LogicalTypeAnnotation.decimalType(2, 12))
                        .id(1)
                        .named("v"),
                g -> g.append("v", 1234L));
        assertThatThrownBy(() -> readAll(cents, schemaOf(DataType.decimal(12, 3))))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining(cents.getName())
                .hasMessageContaining("column v")
                .hasMessageContaining("another scale than DECIMAL(12, 3)");
        assertThat(readAll(cents, schemaOf(DataType.decimal(12, 2))))
                .extracting(kv -> kv.row()[0])
                .containsExactly(new BigDecimal("12.34"));

        Path millis = singleColumn(
                "millis",
                Types.optional(PrimitiveTypeName.INT64)
                        .as(LogicalTypeAnnotation.timestampType(false, LogicalTypeAnnotation.TimeUnit.MILLIS))
                        .id(1)
                        .named("v"),
                g -> g.append("v", 5L));
        assertThatThrownBy(() -> readAll(millis, schemaOf(DataType.timestamp(6))))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining(millis.getName())
                .hasMessageContaining("column v")
                .hasMessageContaining("another unit than TIMESTAMP(6)");

        Path optionalSequence =
                new Path(dir.resolve("optional-sequence.parquet").toUri());
        MessageType type = Types.buildMessage()
                .addField(Types.optional(PrimitiveTypeName.INT64).named(ParquetSchemas.SEQUENCE_COLUMN))
                .addField(Types.required(PrimitiveTypeName.INT32).named(ParquetSchemas.ROW_KIND_COLUMN))
                .addField(Types.required(PrimitiveTypeName.INT64).id(1).named("v"))
                .named("other");
        write(
                optionalSequence,
                type,
                g -> g.append(ParquetSchemas.SEQUENCE_COLUMN, 1L)
                        .append(ParquetSchemas.ROW_KIND_COLUMN, 0)
                        .append("v", 1L));
        TableSchema pk = new TableSchema(
                0,
                List.of(new DataField(1, "v", DataType.bigint().copy(false))),
                1,
                List.of(),
                List.of("v"),
                Map.of(),
                0);
        assertThatThrownBy(() -> readAll(optionalSequence, pk))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining(optionalSequence.getName())
                .hasMessageContaining("column " + ParquetSchemas.SEQUENCE_COLUMN)
                .hasMessageContaining("is optional");
    }

    private static TableSchema schemaOf(DataType type) {
        return new TableSchema(0, List.of(new DataField(1, "v", type)), 1, List.of(), List.of(), Map.of(), 0);
    }

    private Path singleColumn(String name, Type column, Consumer<Group> value) throws IOException {
        Path file = new Path(dir.resolve(name + ".parquet").toUri());
        write(file, Types.buildMessage().addField(column).named("other"), value);
        return file;
    }

    /** A one-row file of {@code type} by parquet-mr's writer, marked as a Strata data file. */
    private static void write(Path file, MessageType type, Consumer<Group> row) throws IOException {
        try (ParquetWriter<Group> w = ExampleParquetWriter.builder(HadoopOutputFile.fromPath(file, CONF))
                .withConf(CONF)
                .withType(type)
                .withExtraMetaData(Map.of(DataFileWriter.VERSION_KEY, DataFileWriter.VERSION))
                .build()) {
            Group g = new SimpleGroupFactory(type).newGroup();
            row.accept(g);
            w.write(g);
        }
    }

    private List<KeyValue> readAll(Path file, TableSchema schema) {
        List<KeyValue> out = new ArrayList<>();
        try (DataFileReader r = DataFileReader.of(FileIO.forWarehouse(dir.toString(), CONF), CONF, file, schema)
                .open()) {
            r.forEachRemaining(out::add);
        }
        return out;
    }

    /** Parquet's default value writers, except INT32 columns in RLE with 8-bit values. */
    private static final class RleInts implements ValuesWriterFactory {
        private final ValuesWriterFactory defaults = new DefaultValuesWriterFactory();

        @Override
        public void initialize(ParquetProperties properties) {
            defaults.initialize(properties);
        }

        @Override
        public ValuesWriter newValuesWriter(ColumnDescriptor column) {
            if (column.getPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.INT32) {
                return new RunLengthBitPackingHybridValuesWriter(8, 64, 1 << 16, HeapByteBufferAllocator.getInstance());
            }
            return defaults.newValuesWriter(column);
        }
    }
}
