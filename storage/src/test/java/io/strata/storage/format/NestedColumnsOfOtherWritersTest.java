package io.strata.storage.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.ValueEquality;
import io.strata.storage.fs.FileIO;
import io.strata.storage.schema.DataField;
import io.strata.storage.schema.DataType;
import io.strata.storage.schema.TableSchema;
import io.strata.storage.testutil.TypedValues;
import io.strata.storage.util.CorruptFileException;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
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
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Differential test of Strata's reading of nested columns against parquet-mr's own writer: files
 * that parquet-mr's example Group writer wrote in the standard layouts (every type of {@link
 * TypedValues}, v1 and v2 pages, dictionaries on and off, every codec, tiny pages and row groups)
 * read back, through {@link DataFileReader}, as exactly the values written, whole and projected
 * (nested columns alone, flat alone, both); and a legacy two-level LIST is refused naming the
 * file and the column. Fixed seeds, each named on failure.
 */
class NestedColumnsOfOtherWritersTest {
    private static final Configuration CONF = ParquetMr.conf();
    private static final CompressionCodecName[] CODECS = {
        CompressionCodecName.UNCOMPRESSED,
        CompressionCodecName.SNAPPY,
        CompressionCodecName.ZSTD,
        CompressionCodecName.GZIP
    };

    @TempDir
    java.nio.file.Path dir;

    private static TableSchema schema() {
        List<DataField> fields = new ArrayList<>();
        fields.add(new DataField(0, "k", DataType.bigint().copy(false)));
        for (int i = 0; i < TypedValues.COLUMNS.length; i++) {
            fields.add(new DataField(i + 1, TypedValues.COLUMNS[i][0], DataType.parse(TypedValues.COLUMNS[i][1])));
        }
        return new TableSchema(0, fields, fields.size() - 1, List.of(), List.of(), Map.of(), 0);
    }

    @Test
    void filesParquetMrWroteInTheStandardLayoutsReadAsWritten() throws IOException {
        TableSchema schema = schema();
        FileIO io = FileIO.forWarehouse(dir.toString(), CONF);
        for (long seed = 1; seed <= 8; seed++) {
            Random rnd = new Random(seed * 0x9E3779B97F4A7C15L);
            boolean v2 = rnd.nextBoolean();
            boolean dictionary = rnd.nextBoolean();
            CompressionCodecName codec = CODECS[rnd.nextInt(CODECS.length)];
            int pageSize = new int[] {128, 1024, 1 << 20}[rnd.nextInt(3)];
            String settings = "seed " + seed + " (v2 " + v2 + ", dictionary " + dictionary + ", " + codec
                    + ", pages of " + pageSize + " bytes)";
            List<Object[]> rows = new ArrayList<>();
            for (int n = 0, count = rnd.nextInt(400); n < count; n++) {
                Object[] row = new Object[schema.fields().size()];
                row[0] = (long) n;
                for (int i = 1; i < row.length; i++) {
                    row[i] = TypedValues.value(schema.fields().get(i).type(), rnd);
                }
                rows.add(row);
            }
            Path file = new Path(dir.resolve("seed-" + seed + ".parquet").toUri());
            MessageType parquet = ParquetSchemas.messageType(schema.fields(), false);
            SimpleGroupFactory groups = new SimpleGroupFactory(parquet);
            try (ParquetWriter<Group> w = ExampleParquetWriter.builder(HadoopOutputFile.fromPath(file, CONF))
                    .withConf(CONF)
                    .withType(parquet)
                    .withExtraMetaData(Map.of(DataFileWriter.VERSION_KEY, DataFileWriter.VERSION))
                    .withWriterVersion(v2 ? WriterVersion.PARQUET_2_0 : WriterVersion.PARQUET_1_0)
                    .withCompressionCodec(codec)
                    .withPageSize(pageSize)
                    .withDictionaryPageSize(pageSize)
                    .withMinRowCountForPageSizeCheck(1)
                    .withRowGroupRowCountLimit(1 + rnd.nextInt(300))
                    .withDictionaryEncoding(dictionary)
                    .build()) {
                for (Object[] row : rows) {
                    Group g = groups.newGroup();
                    for (int i = 0; i < row.length; i++) {
                        append(
                                g,
                                schema.fields().get(i).name(),
                                schema.fields().get(i).type(),
                                row[i]);
                    }
                    w.write(g);
                }
            }
            for (String[] projection :
                    new String[][] {null, {"r", "m", "req"}, {"k", "vc", "lz3"}, {"dd", "ti", "mi"}}) {
                BitSet ids = null;
                if (projection != null) {
                    ids = new BitSet();
                    for (String name : projection) {
                        ids.set(schema.fields().get(schema.fieldIndex(name)).id());
                    }
                }
                List<Object[]> read = new ArrayList<>();
                try (DataFileReader r = DataFileReader.of(io, CONF, file, schema)
                        .projection(ids)
                        .open()) {
                    while (r.hasNext()) {
                        KeyValue kv = r.next();
                        read.add(kv.row());
                    }
                }
                assertThat(read).as("rows of %s", settings).hasSize(rows.size());
                for (int n = 0; n < rows.size(); n++) {
                    for (int i = 0; i < schema.fields().size(); i++) {
                        Object want = ids == null || ids.get(i) ? rows.get(n)[i] : null;
                        Object got = read.get(n)[i];
                        if (!ValueEquality.equals(got, want)) {
                            throw new AssertionError(settings + ", projection "
                                    + (projection == null ? "all" : List.of(projection))
                                    + ": row " + n + " field " + schema.fields().get(i) + ": wrote "
                                    + ValueEquality.toString(want) + ", read " + ValueEquality.toString(got));
                        }
                    }
                }
            }
        }
    }

    /** Field {@code name} of {@code g} holding {@code v} of {@code type}, in the standard layouts; nothing for null. */
    private static void append(Group g, String name, DataType type, Object v) {
        if (v == null) {
            return;
        }
        switch (type.root()) {
            case ARRAY: {
                Group array = g.addGroup(name);
                for (Object e : (List<?>) v) {
                    append(array.addGroup("list"), "element", type.elementType(), e);
                }
                return;
            }
            case MAP: {
                Group map = g.addGroup(name);
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    Group kv = map.addGroup("key_value");
                    append(kv, "key", type.keyType(), e.getKey());
                    append(kv, "value", type.valueType(), e.getValue());
                }
                return;
            }
            case ROW: {
                Group row = g.addGroup(name);
                Object[] values = (Object[]) v;
                for (int i = 0; i < values.length; i++) {
                    append(
                            row,
                            type.fields().get(i).name(),
                            type.fields().get(i).type(),
                            values[i]);
                }
                return;
            }
            default:
        }
        if (v instanceof Boolean) {
            g.append(name, (Boolean) v);
        } else if (v instanceof Byte || v instanceof Short || v instanceof Integer) {
            g.append(name, ((Number) v).intValue());
        } else if (v instanceof Long) {
            g.append(name, (Long) v);
        } else if (v instanceof Float) {
            g.append(name, (Float) v);
        } else if (v instanceof Double) {
            g.append(name, (Double) v);
        } else if (v instanceof String) {
            g.append(name, Binary.fromString((String) v));
        } else if (v instanceof BigDecimal) {
            g.append(
                    name,
                    Binary.fromConstantByteArray(
                            ((BigDecimal) v).unscaledValue().toByteArray()));
        } else {
            g.append(name, Binary.fromConstantByteArray((byte[]) v));
        }
    }

    @Test
    void aLegacyTwoLevelListIsRefusedNamingTheFileAndColumn() throws IOException {
        TableSchema schema = new TableSchema(
                0,
                List.of(
                        new DataField(0, "k", DataType.bigint()),
                        new DataField(1, "tags", DataType.parse("ARRAY<INT>"))),
                1,
                List.of(),
                List.of(),
                Map.of(),
                0);
        MessageType legacy = Types.buildMessage()
                .addField(Types.optional(PrimitiveTypeName.INT64).id(0).named("k"))
                .addField(Types.optionalGroup()
                        .as(LogicalTypeAnnotation.listType())
                        .addField(Types.repeated(PrimitiveTypeName.INT32).named("array"))
                        .id(1)
                        .named("tags"))
                .named("legacy");
        Path file = new Path(dir.resolve("legacy.parquet").toUri());
        try (ParquetWriter<Group> w = ExampleParquetWriter.builder(HadoopOutputFile.fromPath(file, CONF))
                .withConf(CONF)
                .withType(legacy)
                .withExtraMetaData(Map.of(DataFileWriter.VERSION_KEY, DataFileWriter.VERSION))
                .build()) {
            Group g = new SimpleGroupFactory(legacy).newGroup();
            g.append("k", 1L);
            g.addGroup("tags").append("array", 5);
            w.write(g);
        }
        FileIO io = FileIO.forWarehouse(dir.toString(), CONF);
        assertThatThrownBy(() -> DataFileReader.of(io, CONF, file, schema).open())
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("legacy.parquet")
                .hasMessageContaining("column tags")
                .hasMessageContaining("three-level LIST");
    }
}
