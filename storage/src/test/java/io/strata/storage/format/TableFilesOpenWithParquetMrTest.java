package io.strata.storage.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import io.strata.storage.data.ValueCodec;
import io.strata.storage.schema.DataType;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The data files and manifests of a real Strata table are plain Parquet: parquet-mr's generic
 * reader (no Strata code reads them here) finds the columns and types the format promises
 * ({@link ParquetSchemas}; manifests: {@code ManifestFile}'s entry schema) and the values Strata
 * wrote: the records of every commit in the data files, and in the manifests an entry per data
 * file with its name, size, row counts, key and sequence range, bucket and partition.
 */
class TableFilesOpenWithParquetMrTest {
    private static final Configuration CONF = ParquetMr.conf();

    /** The user columns: every Strata type, DECIMAL of each size class. */
    private static final String[][] COLUMNS = {
        {"p", "INT NOT NULL"},
        {"k", "BIGINT NOT NULL"},
        {"flag", "BOOLEAN"},
        {"i", "INT"},
        {"f", "FLOAT"},
        {"d", "DOUBLE"},
        {"small", "DECIMAL(7, 2)"},
        {"medium", "DECIMAL(18, 4)"},
        {"large", "DECIMAL(38, 10)"},
        {"s", "STRING"},
        {"raw", "BYTES"},
        {"day", "DATE"},
        {"ms", "TIMESTAMP(3)"},
        {"us", "TIMESTAMP(6)"}
    };

    private static final int BUCKETS = 2;

    @TempDir
    java.nio.file.Path dir;

    /**
     * @param primaryKey a primary-key table partitioned by p, whose second commit also deletes;
     *                   else an append table bucketed by k
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void dataFilesAndManifestsReadWithParquetMrHoldWhatStrataWrote(boolean primaryKey) throws IOException {
        Schema.Builder b = Schema.newBuilder();
        for (String[] c : COLUMNS) {
            b.column(c[0], c[1]);
        }
        b.option("bucket", String.valueOf(BUCKETS)).option("write-only", "true");
        if (primaryKey) {
            b.primaryKey("p", "k").partitionKeys("p");
        } else {
            b.option("bucket-key", "k");
        }
        FileStoreTable t = Catalog.open(dir.toString()).createTable("db", "t", b.build());
        List<GenericRow> written = write(t, primaryKey);

        List<java.nio.file.Path> dataFiles = new ArrayList<>();
        List<java.nio.file.Path> manifests = new ArrayList<>();
        try (Stream<java.nio.file.Path> files = Files.walk(dir)) {
            files.filter(f -> f.getFileName().toString().endsWith(".parquet"))
                    .sorted()
                    .forEach(f ->
                            (f.getParent().getFileName().toString().equals("manifest") ? manifests : dataFiles).add(f));
        }
        assertThat(dataFiles).as("data files").isNotEmpty();
        assertThat(manifests).as("manifests").isNotEmpty();

        MessageType dataSchema = dataFileSchema(primaryKey);
        Map<String, DataFile> byName = new HashMap<>();
        List<GenericRow> read = new ArrayList<>();
        for (java.nio.file.Path f : dataFiles) {
            Path file = new Path(f.toUri());
            assertThat(ParquetMr.footer(file, CONF).getFileMetaData().getSchema())
                    .as("schema of %s", f)
                    .isEqualTo(dataSchema);
            DataFile df = new DataFile(f);
            for (Group g : ParquetMr.read(file, CONF)) {
                Object[] row = new Object[COLUMNS.length];
                for (int i = 0; i < COLUMNS.length; i++) {
                    row[i] = ParquetMr.value(g, COLUMNS[i][0], DataType.parse(COLUMNS[i][1]));
                }
                RowKind kind = RowKind.INSERT;
                if (primaryKey) {
                    kind = RowKind.fromByteValue(g.getInteger(ParquetSchemas.ROW_KIND_COLUMN, 0));
                    df.add(g.getLong(ParquetSchemas.SEQUENCE_COLUMN, 0), kind, row);
                } else {
                    df.add(0, kind, row);
                }
                read.add(new GenericRow(kind, row));
            }
            byName.put(f.getFileName().toString(), df);
        }
        assertThat(read).as("records of the data files").containsExactlyInAnyOrderElementsOf(written);
        assertThat(byName.values().stream().mapToLong(df -> df.deletes).sum())
                .as("deletes in the data files")
                .isEqualTo(primaryKey ? 40 : 0);

        Set<String> named = new HashSet<>();
        for (java.nio.file.Path m : manifests) {
            Path file = new Path(m.toUri());
            assertThat(ParquetMr.footer(file, CONF).getFileMetaData().getSchema())
                    .as("schema of %s", m)
                    .isEqualTo(manifestSchema());
            List<Group> entries = ParquetMr.read(file, CONF);
            assertThat(entries).as("entries of %s", m).isNotEmpty();
            for (Group e : entries) {
                String name = e.getString("file_name", 0);
                DataFile df = byName.get(name);
                assertThat(df).as("data file %s named by %s", name, m).isNotNull();
                named.add(name);
                checkEntry(e, df, primaryKey);
            }
        }
        assertThat(named).as("data files named by a manifest").isEqualTo(byName.keySet());
    }

    /** Two commits: 300 rows each (nulls in every nullable column); the second deletes 40 of the first's keys. */
    private static List<GenericRow> write(FileStoreTable t, boolean primaryKey) {
        Random rnd = new Random(14);
        List<GenericRow> written = new ArrayList<>();
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            for (int commit = 1; commit <= 2; commit++) {
                for (int n = 0; n < 300; n++) {
                    long k = commit * 1000L + n;
                    GenericRow row = GenericRow.insert(row(rnd, (int) (k % 3), k));
                    w.write(row);
                    written.add(row);
                }
                if (primaryKey && commit == 2) {
                    for (long k = 1000; k < 1040; k++) {
                        GenericRow row = GenericRow.delete(row(rnd, (int) (k % 3), k));
                        w.write(row);
                        written.add(row);
                    }
                }
                c.commit(commit, w.prepareCommit());
            }
        }
        return written;
    }

    private static Object[] row(Random rnd, int p, long k) {
        Object[] r = {
            p,
            k,
            rnd.nextBoolean(),
            rnd.nextInt(),
            rnd.nextFloat() * 100,
            rnd.nextGaussian(),
            BigDecimal.valueOf(rnd.nextInt(9_999_999) - 5_000_000, 2),
            BigDecimal.valueOf(rnd.nextLong() % 999_999_999_999_999_999L, 4),
            new BigDecimal(new BigInteger(120, rnd), 10),
            "value " + rnd.nextInt(50) + " é漢",
            randomBytes(rnd),
            rnd.nextInt(40_000),
            rnd.nextLong() >> 20,
            rnd.nextLong() >> 10
        };
        for (int i = 2; i < r.length; i++) {
            if (rnd.nextInt(5) == 0) {
                r[i] = null;
            }
        }
        return r;
    }

    private static byte[] randomBytes(Random rnd) {
        byte[] b = new byte[rnd.nextInt(12)];
        rnd.nextBytes(b);
        return b;
    }

    private static void checkEntry(Group e, DataFile df, boolean primaryKey) throws IOException {
        String name = df.path.getFileName().toString();
        assertThat(e.getInteger("kind", 0)).as("%s: kind (ADD)", name).isEqualTo(0);
        assertThat(e.getLong("file_size", 0)).as("%s: file_size", name).isEqualTo(Files.size(df.path));
        assertThat(e.getLong("row_count", 0)).as("%s: row_count", name).isEqualTo(df.rows);
        assertThat(e.getLong("delete_row_count", 0))
                .as("%s: delete_row_count", name)
                .isEqualTo(df.deletes);
        assertThat(e.getInteger("bucket", 0)).as("%s: bucket", name).isEqualTo(df.bucket());
        assertThat(e.getInteger("total_buckets", 0))
                .as("%s: total_buckets", name)
                .isEqualTo(BUCKETS);
        assertThat(e.getInteger("level", 0)).as("%s: level", name).isEqualTo(0);
        assertThat(e.getLong("schema_id", 0)).as("%s: schema_id", name).isEqualTo(0);
        assertThat(e.getInteger("file_source", 0))
                .as("%s: file_source (APPEND)", name)
                .isEqualTo(0);
        assertThat(e.getLong("creation_time", 0))
                .as("%s: creation_time", name)
                .isBetween(System.currentTimeMillis() - 600_000, System.currentTimeMillis());
        assertThat(e.getBinary("stats", 0).length()).as("%s: stats", name).isPositive();
        byte[] partition = e.getBinary("partition", 0).getBytes();
        byte[] minKey = e.getBinary("min_key", 0).getBytes();
        byte[] maxKey = e.getBinary("max_key", 0).getBytes();
        if (primaryKey) {
            // rows of a primary-key file are sorted by key, so its first and last rows hold its key range
            assertThat(partition).as("%s: partition", name).isEqualTo(ValueCodec.encodeTuple(new Object[] {df.first[0]
            }));
            assertThat(minKey).as("%s: min_key", name).isEqualTo(ValueCodec.encodeTuple(Arrays.copyOf(df.first, 2)));
            assertThat(maxKey).as("%s: max_key", name).isEqualTo(ValueCodec.encodeTuple(Arrays.copyOf(df.last, 2)));
            assertThat(e.getLong("min_sequence", 0))
                    .as("%s: min_sequence", name)
                    .isEqualTo(df.minSequence);
            assertThat(e.getLong("max_sequence", 0))
                    .as("%s: max_sequence", name)
                    .isEqualTo(df.maxSequence);
        } else {
            assertThat(partition).as("%s: partition", name).isEqualTo(ValueCodec.encodeTuple(new Object[0]));
            assertThat(minKey).as("%s: min_key", name).isEqualTo(ValueCodec.encodeTuple(new Object[0]));
            assertThat(maxKey).as("%s: max_key", name).isEqualTo(ValueCodec.encodeTuple(new Object[0]));
        }
    }

    /** What parquet-mr read from one data file. */
    private static final class DataFile {
        final java.nio.file.Path path;
        long rows;
        long deletes;
        long minSequence = Long.MAX_VALUE;
        long maxSequence = Long.MIN_VALUE;
        Object[] first;
        Object[] last;

        DataFile(java.nio.file.Path path) {
            this.path = path;
        }

        void add(long sequence, RowKind kind, Object[] row) {
            rows++;
            if (kind == RowKind.DELETE) {
                deletes++;
            }
            minSequence = Math.min(minSequence, sequence);
            maxSequence = Math.max(maxSequence, sequence);
            if (first == null) {
                first = row;
            }
            last = row;
        }

        /** The bucket of the file's directory, {@code bucket-<n>}. */
        int bucket() {
            return Integer.parseInt(path.getParent().getFileName().toString().substring("bucket-".length()));
        }
    }

    /** The Parquet schema of the table's data files, written out here as the format defines it. */
    private static MessageType dataFileSchema(boolean primaryKey) {
        Types.MessageTypeBuilder b = Types.buildMessage();
        if (primaryKey) {
            b.addField(Types.required(PrimitiveTypeName.INT64).named("_SEQUENCE_NUMBER"));
            b.addField(Types.required(PrimitiveTypeName.INT32).named("_ROW_KIND"));
            b.addField(Types.optional(PrimitiveTypeName.BINARY).named("_ORDERINGS")); // data file version 2
        }
        int id = 0;
        b.addField(Types.required(PrimitiveTypeName.INT32).id(id++).named("p"));
        b.addField(Types.required(PrimitiveTypeName.INT64).id(id++).named("k"));
        b.addField(Types.optional(PrimitiveTypeName.BOOLEAN).id(id++).named("flag"));
        b.addField(Types.optional(PrimitiveTypeName.INT32).id(id++).named("i"));
        b.addField(Types.optional(PrimitiveTypeName.FLOAT).id(id++).named("f"));
        b.addField(Types.optional(PrimitiveTypeName.DOUBLE).id(id++).named("d"));
        b.addField(Types.optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.decimalType(2, 7))
                .id(id++)
                .named("small"));
        b.addField(Types.optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.decimalType(4, 18))
                .id(id++)
                .named("medium"));
        b.addField(Types.optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.decimalType(10, 38))
                .id(id++)
                .named("large"));
        b.addField(Types.optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.stringType())
                .id(id++)
                .named("s"));
        b.addField(Types.optional(PrimitiveTypeName.BINARY).id(id++).named("raw"));
        b.addField(Types.optional(PrimitiveTypeName.INT32)
                .as(LogicalTypeAnnotation.dateType())
                .id(id++)
                .named("day"));
        b.addField(Types.optional(PrimitiveTypeName.INT64)
                .as(LogicalTypeAnnotation.timestampType(false, TimeUnit.MILLIS))
                .id(id++)
                .named("ms"));
        b.addField(Types.optional(PrimitiveTypeName.INT64)
                .as(LogicalTypeAnnotation.timestampType(false, TimeUnit.MICROS))
                .id(id)
                .named("us"));
        return b.named("strata");
    }

    /** The Parquet schema of manifests, written out here as the format defines it. */
    private static MessageType manifestSchema() {
        Object[][] columns = {
            {"kind", PrimitiveTypeName.INT32},
            {"partition", PrimitiveTypeName.BINARY},
            {"bucket", PrimitiveTypeName.INT32},
            {"total_buckets", PrimitiveTypeName.INT32},
            {"file_name", PrimitiveTypeName.BINARY},
            {"file_size", PrimitiveTypeName.INT64},
            {"row_count", PrimitiveTypeName.INT64},
            {"delete_row_count", PrimitiveTypeName.INT64},
            {"min_key", PrimitiveTypeName.BINARY},
            {"max_key", PrimitiveTypeName.BINARY},
            {"min_sequence", PrimitiveTypeName.INT64},
            {"max_sequence", PrimitiveTypeName.INT64},
            {"level", PrimitiveTypeName.INT32},
            {"schema_id", PrimitiveTypeName.INT64},
            {"stats", PrimitiveTypeName.BINARY},
            {"creation_time", PrimitiveTypeName.INT64},
            {"file_source", PrimitiveTypeName.INT32}
        };
        List<Type> fields = new ArrayList<>();
        for (int id = 0; id < columns.length; id++) {
            String name = (String) columns[id][0];
            Types.PrimitiveBuilder<PrimitiveType> p = Types.required((PrimitiveTypeName) columns[id][1]);
            if (name.equals("file_name")) {
                p = p.as(LogicalTypeAnnotation.stringType());
            }
            fields.add(p.id(id).named(name));
        }
        return new MessageType("strata", fields);
    }
}
