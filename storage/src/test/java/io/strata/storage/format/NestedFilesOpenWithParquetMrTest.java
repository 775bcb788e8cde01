package io.strata.storage.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import io.strata.storage.data.ValueComparators;
import io.strata.storage.read.Split;
import io.strata.storage.schema.DataField;
import io.strata.storage.schema.TableSchema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.TypedValues;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Strata data file with every type of issue 17 is standard Parquet: parquet-mr's example Group
 * reader (no Strata code reads the files here) finds the logical types and the three-level LIST and
 * MAP layouts of the Parquet specification, and assembles the records Strata wrote, nested nulls
 * and empty arrays and maps included. The manifest's statistics have min/max for the new scalar
 * types, equal to the written values' extremes, and none for ARRAY, MAP and ROW.
 */
class NestedFilesOpenWithParquetMrTest {
    private static final Configuration CONF = ParquetMr.conf();

    @TempDir
    java.nio.file.Path dir;

    @Test
    void dataFilesWithNestedTypesReadWithParquetMrHoldWhatStrataWrote() throws IOException {
        FileStoreTable t = Catalog.open(dir.toString())
                .createTable("db", "t", TypedValues.schema(false, Map.of("bucket", "2", "write-only", "true")));
        TableSchema schema = t.schema();
        List<GenericRow> written = new ArrayList<>();
        Random rnd = new Random(17);
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            for (long k = 0; k < 400; k++) {
                Object[] row = new Object[schema.fields().size()];
                row[0] = k;
                for (int i = 1; i < row.length; i++) {
                    row[i] = TypedValues.value(schema.fields().get(i).type(), rnd);
                }
                GenericRow r = GenericRow.insert(row);
                w.write(r);
                written.add(r);
            }
            c.commit(1, w.prepareCommit());
        }

        List<java.nio.file.Path> dataFiles;
        try (Stream<java.nio.file.Path> files = Files.walk(dir)) {
            dataFiles = files.filter(f -> f.getFileName().toString().startsWith("data-"))
                    .toList();
        }
        assertThat(dataFiles).hasSize(2);
        List<GenericRow> read = new ArrayList<>();
        for (java.nio.file.Path f : dataFiles) {
            Path file = new Path(f.toUri());
            checkParquetSchema(ParquetMr.footer(file, CONF).getFileMetaData().getSchema());
            for (Group g : ParquetMr.read(file, CONF)) {
                assertThat(g.getInteger(ParquetSchemas.ROW_KIND_COLUMN, 0)).isEqualTo(RowKind.INSERT.toByteValue());
                Object[] row = new Object[schema.fields().size()];
                for (int i = 0; i < row.length; i++) {
                    DataField field = schema.fields().get(i);
                    row[i] = ParquetMr.value(g, field.name(), field.type());
                }
                read.add(GenericRow.insert(row));
            }
        }
        assertThat(read).as("records parquet-mr assembles").containsExactlyInAnyOrderElementsOf(written);

        checkStats(t, written);
    }

    /** The standard logical types and layouts, checked on the Parquet schema itself. */
    private static void checkParquetSchema(MessageType s) {
        assertThat(s.getType("ti").getLogicalTypeAnnotation()).isEqualTo(LogicalTypeAnnotation.intType(8, true));
        assertThat(s.getType("si").getLogicalTypeAnnotation()).isEqualTo(LogicalTypeAnnotation.intType(16, true));
        assertThat(s.getType("ch").getLogicalTypeAnnotation()).isEqualTo(LogicalTypeAnnotation.stringType());
        assertThat(s.getType("vc").getLogicalTypeAnnotation()).isEqualTo(LogicalTypeAnnotation.stringType());
        assertThat(s.getType("tm").asPrimitiveType().getPrimitiveTypeName()).isEqualTo(PrimitiveTypeName.INT32);
        assertThat(s.getType("tm").getLogicalTypeAnnotation())
                .isEqualTo(LogicalTypeAnnotation.timeType(false, TimeUnit.MILLIS));
        assertThat(s.getType("lz3").getLogicalTypeAnnotation())
                .isEqualTo(LogicalTypeAnnotation.timestampType(true, TimeUnit.MILLIS));
        assertThat(s.getType("lz6").getLogicalTypeAnnotation())
                .isEqualTo(LogicalTypeAnnotation.timestampType(true, TimeUnit.MICROS));

        GroupType arr = s.getType("arr").asGroupType();
        assertThat(arr.getLogicalTypeAnnotation()).isEqualTo(LogicalTypeAnnotation.listType());
        assertThat(arr.getId().intValue()).isEqualTo(9);
        GroupType list = arr.getType("list").asGroupType();
        assertThat(list.isRepetition(Type.Repetition.REPEATED)).isTrue();
        assertThat(list.getType("element").isRepetition(Type.Repetition.OPTIONAL))
                .isTrue();
        assertThat(s.getType("strs")
                        .asGroupType()
                        .getType("list")
                        .asGroupType()
                        .getType("element")
                        .getRepetition())
                .isEqualTo(Type.Repetition.REQUIRED);

        GroupType map = s.getType("m").asGroupType();
        assertThat(map.getLogicalTypeAnnotation()).isEqualTo(LogicalTypeAnnotation.mapType());
        GroupType kv = map.getType("key_value").asGroupType();
        assertThat(kv.isRepetition(Type.Repetition.REPEATED)).isTrue();
        assertThat(kv.getType("key").isRepetition(Type.Repetition.REQUIRED)).isTrue();
        assertThat(kv.getType("key").getLogicalTypeAnnotation()).isEqualTo(LogicalTypeAnnotation.stringType());
        assertThat(kv.getType("value").isRepetition(Type.Repetition.OPTIONAL)).isTrue();

        GroupType row = s.getType("r").asGroupType();
        assertThat(row.getLogicalTypeAnnotation()).isNull();
        assertThat(row.getFields()).extracting(Type::getName).containsExactly("a", "b", "c");
        assertThat(s.getType("req").isRepetition(Type.Repetition.REQUIRED)).isTrue();
    }

    private static void checkStats(FileStoreTable t, List<GenericRow> written) {
        TableSchema schema = t.schema();
        List<Split> splits = t.newReadBuilder().plan();
        for (int i = 1; i < schema.fields().size(); i++) {
            DataField f = schema.fields().get(i);
            int at = i;
            for (Split split : splits) {
                for (DataFileMeta file : split.files()) {
                    ColumnStats st = file.statsOf(f.id());
                    if (f.type().isNested()) {
                        assertThat(st.min()).as("min of %s", f).isNull();
                        assertThat(st.max()).as("max of %s", f).isNull();
                        assertThat(st.nullCount()).as("null count of %s", f).isEqualTo(-1);
                    }
                }
            }
            if (f.type().isNested()) {
                continue;
            }
            Comparator<Object> cmp = ValueComparators.forType(f.type());
            List<Object> values = written.stream()
                    .map(r -> r.get(at))
                    .filter(Objects::nonNull)
                    .sorted(cmp)
                    .toList();
            Object min = null;
            Object max = null;
            long nulls = 0;
            for (Split split : splits) {
                for (DataFileMeta file : split.files()) {
                    ColumnStats st = file.statsOf(f.id());
                    min = min == null || cmp.compare(st.min(), min) < 0 ? st.min() : min;
                    max = max == null || cmp.compare(st.max(), max) > 0 ? st.max() : max;
                    nulls += st.nullCount();
                }
            }
            assertThat(min).as("min of %s", f).isEqualTo(values.get(0));
            assertThat(max).as("max of %s", f).isEqualTo(values.get(values.size() - 1));
            assertThat(nulls).as("nulls of %s", f).isEqualTo(written.size() - values.size());
            assertThat(min.getClass())
                    .as("class of the min of %s", f)
                    .isEqualTo(f.type().root().javaClass());
        }
    }
}
