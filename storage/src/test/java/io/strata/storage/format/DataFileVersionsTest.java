package io.strata.storage.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.commit.CommitMessage;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.BucketId;
import io.strata.storage.data.GenericRow;
import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import io.strata.storage.fs.FileIO;
import io.strata.storage.schema.DataField;
import io.strata.storage.schema.DataType;
import io.strata.storage.schema.TableSchema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.TestTables;
import io.strata.storage.util.CorruptFileException;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Data file versions (docs/FORMAT.md, "Data files"): version 2 adds the {@code _ORDERINGS} system
 * column; a version 1 file, written here with parquet-mr in the layout version 1 writers used
 * (no {@code _ORDERINGS}), still reads, its records without ordering state, and a table whose
 * files are of version 1 merges them with later files as if each row ordered as itself.
 */
class DataFileVersionsTest {
    private static final Configuration CONF = ParquetMr.conf();

    @TempDir
    java.nio.file.Path dir;

    /** Writes {@code rows} (sequence, kind, values) as a version 1 primary-key data file of {@code schema}. */
    private static void writeVersionOne(Path file, TableSchema schema, List<Object[]> rows) throws IOException {
        Types.MessageTypeBuilder b = Types.buildMessage();
        b.addField(Types.required(PrimitiveTypeName.INT64).named(ParquetSchemas.SEQUENCE_COLUMN));
        b.addField(Types.required(PrimitiveTypeName.INT32).named(ParquetSchemas.ROW_KIND_COLUMN));
        for (DataField f : schema.fields()) {
            b.addField(ParquetSchemas.columnType(f));
        }
        MessageType type = b.named("strata");
        try (ParquetWriter<Group> w = ExampleParquetWriter.builder(HadoopOutputFile.fromPath(file, CONF))
                .withConf(CONF)
                .withType(type)
                .withExtraMetaData(Map.of(DataFileWriter.VERSION_KEY, "1", "strata.schema-id", "0"))
                .build()) {
            for (Object[] r : rows) {
                Group g = new SimpleGroupFactory(type).newGroup();
                g.append(ParquetSchemas.SEQUENCE_COLUMN, (Long) r[0]);
                g.append(ParquetSchemas.ROW_KIND_COLUMN, (int) ((RowKind) r[1]).toByteValue());
                for (int i = 0; i < schema.fields().size(); i++) {
                    Object v = r[2 + i];
                    String name = schema.fields().get(i).name();
                    if (v instanceof Integer) {
                        g.append(name, (Integer) v);
                    } else if (v instanceof Long) {
                        g.append(name, (Long) v);
                    } else if (v instanceof Double) {
                        g.append(name, (Double) v);
                    } else if (v instanceof String) {
                        g.append(name, Binary.fromString((String) v));
                    }
                }
                w.write(g);
            }
        }
    }

    private static TableSchema pkSchema() {
        return new TableSchema(
                0,
                List.of(
                        new DataField(0, "id", DataType.bigint().copy(false)),
                        new DataField(1, "v", DataType.string())),
                1,
                List.of(),
                List.of("id"),
                Map.of(),
                0);
    }

    private List<KeyValue> readAll(Path file, TableSchema schema) {
        List<KeyValue> out = new ArrayList<>();
        try (DataFileReader r = DataFileReader.of(FileIO.forWarehouse(dir.toString(), CONF), CONF, file, schema)
                .open()) {
            r.forEachRemaining(out::add);
        }
        return out;
    }

    @Test
    void versionOneFileReadsWithoutOrderingState() throws IOException {
        Path file = new Path(dir.resolve("v1.parquet").toUri());
        writeVersionOne(file, pkSchema(), List.of(new Object[] {3L, RowKind.INSERT, 1L, "one"}, new Object[] {
            4L, RowKind.DELETE, 2L, null
        }));
        List<KeyValue> read = readAll(file, pkSchema());
        assertThat(read).hasSize(2);
        assertThat(read.get(0).sequence()).isEqualTo(3L);
        assertThat(read.get(0).row()).containsExactly(1L, "one");
        assertThat(read.get(0).orderings()).isNull();
        assertThat(read.get(1).kind()).isEqualTo(RowKind.DELETE);
        assertThat(read.get(1).orderings()).isNull();
    }

    @Test
    void versionTwoFileCarriesOrderingState() throws IOException {
        Path file = new Path(dir.resolve("v2.parquet").toUri());
        TableSchema schema = pkSchema();
        DataFileWriter w = DataFileWriter.durableOnFinish(
                        FileIO.forWarehouse(dir.toString(), CONF),
                        schema,
                        new FileFormatConfig(CONF, schema.tableOptions()),
                        Clock.systemUTC())
                .create(file, 0, FileSource.APPEND);
        w.write(new KeyValue(1, RowKind.INSERT, new Object[] {1L, "a"}, new byte[] {1, 2, 3}));
        w.write(new KeyValue(2, RowKind.INSERT, new Object[] {2L, "b"}));
        w.finish();
        assertThat(ParquetMr.footer(file, CONF).getFileMetaData().getKeyValueMetaData())
                .containsEntry(DataFileWriter.VERSION_KEY, "2");
        List<KeyValue> read = readAll(file, schema);
        assertThat(read.get(0).orderings()).containsExactly(1, 2, 3);
        assertThat(read.get(1).orderings()).isNull();
        assertThat(read.get(1).row()).containsExactly(2L, "b");
    }

    @Test
    void unknownVersionIsRejectedNamingTheFile() throws IOException {
        Path file = new Path(dir.resolve("v9.parquet").toUri());
        MessageType type = Types.buildMessage()
                .addField(Types.required(PrimitiveTypeName.INT64).named("x"))
                .named("other");
        try (ParquetWriter<Group> w = ExampleParquetWriter.builder(HadoopOutputFile.fromPath(file, CONF))
                .withConf(CONF)
                .withType(type)
                .withExtraMetaData(Map.of(DataFileWriter.VERSION_KEY, "9"))
                .build()) {
            w.write(new SimpleGroupFactory(type).newGroup().append("x", 1L));
        }
        assertThatThrownBy(() -> readAll(file, pkSchema()))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("v9.parquet")
                .hasMessageContaining("found 9");
    }

    /**
     * A version 1 file committed to a partial-update table under {@code sequence.field}: its rows
     * carry no ordering state, so each value orders as its row (sequence-field value, sequence
     * number); late rows written after it lose or win by that, before and after compaction.
     */
    @Test
    void versionOneRowsOrderAsThemselvesInAnOrderedTable() throws IOException {
        FileStoreTable t = Catalog.open(dir.resolve("wh").toString())
                .createTable(
                        "db",
                        "pu",
                        TestTables.modelSchema(
                                false,
                                1,
                                Map.of(
                                        "merge-engine", "partial-update",
                                        "sequence.field", "ts",
                                        "ignore-delete", "true",
                                        "write-only", "true")));
        TableSchema schema = t.schema();
        BucketId bucket = BucketId.of(new Object[0], 0);
        Path file = t.context().bucketPaths(bucket).newPath("data");
        // p, id, a, b, c, d, e, ts
        writeVersionOne(
                file,
                schema,
                List.of(
                        new Object[] {0L, RowKind.INSERT, 0, 1, 1L, null, null, null, null, 5L},
                        new Object[] {1L, RowKind.INSERT, 0, 2, 7L, null, null, null, null, 1L}));
        List<ColumnStats> stats = new ArrayList<>();
        for (DataField f : schema.fields()) {
            stats.add(new ColumnStats(f.id(), null, null, -1));
        }
        DataFileMeta meta = new DataFileMeta(
                file.getName(),
                t.fileIO().length(file),
                2,
                0,
                new Object[] {0, 1},
                new Object[] {0, 2},
                0,
                1,
                0,
                schema.id(),
                stats,
                0,
                FileSource.APPEND);
        try (TableCommit c = t.newCommit("old")) {
            c.commit(1, List.of(CommitMessage.append(new Object[0], 0, 1, List.of(meta))));
        }
        try (TableWrite w = t.newWrite("u");
                TableCommit c = t.newCommit("u")) {
            w.write(new GenericRow(RowKind.INSERT, 0, 1, 2L, null, null, null, null, 3L)); // late: a stays 1
            w.write(new GenericRow(RowKind.INSERT, 0, 1, null, 4, null, null, null, 9L));
            w.write(new GenericRow(RowKind.INSERT, 0, 2, 8L, 5, null, null, null, 0L)); // late: a stays 7
            c.commit(1, w.prepareCommit());
        }
        List<List<Object>> expected = List.of(
                Arrays.asList(0, 1, 1L, 4, null, null, null, 9L), Arrays.asList(0, 2, 7L, 5, null, null, null, 1L));
        assertThat(rows(t)).isEqualTo(expected);
        t.newCompactor().compact(CompactStrategy.FULL, "compactor", 1);
        assertThat(rows(t)).as("after full compaction").isEqualTo(expected);
    }

    private static List<List<Object>> rows(FileStoreTable t) {
        List<List<Object>> out = new ArrayList<>();
        for (GenericRow r : TestTables.scan(t)) {
            out.add(Arrays.asList(r.fields()));
        }
        return out;
    }
}
