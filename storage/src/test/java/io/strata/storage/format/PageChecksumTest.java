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
import java.nio.file.Files;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.apache.parquet.io.ParquetDecodingException;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Page CRCs (docs/FORMAT.md, "Data files"): every page Strata writes carries the CRC32 of its
 * stored bytes, every read verifies it before returning any row of the row group, and a damaged
 * page, page header, dictionary page or footer fails the read naming the file (and the column and
 * page where one is damaged), never returning rows. Files without CRCs still read.
 */
class PageChecksumTest {
    private static final Configuration CONF = ParquetMr.conf();
    private static final long SEED = 20261204L;

    @TempDir
    java.nio.file.Path dir;

    /** id (the key, plain), ts (random, plain), v (8 distinct values: dictionary-encoded). */
    private static TableSchema schema(String compression) {
        return new TableSchema(
                0,
                List.of(
                        new DataField(0, "id", DataType.bigint().copy(false)),
                        new DataField(1, "ts", DataType.bigint()),
                        new DataField(2, "v", DataType.string())),
                2,
                List.of(),
                List.of("id"),
                Map.of("file.compression", compression, "file.page-size", "4kb"),
                0);
    }

    private static List<Object[]> rows(int n) {
        Random random = new Random(SEED);
        List<Object[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new Object[] {(long) i, random.nextLong(), "value-" + random.nextInt(8)});
        }
        return out;
    }

    private FileIO io() {
        return FileIO.forWarehouse(dir.toString(), CONF);
    }

    /** Writes {@code rows} as one Strata data file (one row group) and returns its local path. */
    private java.nio.file.Path write(String name, TableSchema schema, List<Object[]> rows) throws IOException {
        java.nio.file.Path file = dir.resolve(name);
        DataFileWriter w = DataFileWriter.durableOnFinish(
                        io(), schema, new FileFormatConfig(CONF, schema.tableOptions()), Clock.systemUTC())
                .create(new Path(file.toUri()), 0, FileSource.APPEND);
        long seq = 0;
        for (Object[] r : rows) {
            w.write(new KeyValue(seq++, RowKind.INSERT, r.clone()));
        }
        w.finish();
        return file;
    }

    /** Reads the file with Strata's reader, collecting rows as they come (so a failure shows what it let through). */
    private List<Object[]> read(java.nio.file.Path file, TableSchema schema, long recordedSize, List<Object[]> got) {
        try (DataFileReader r = DataFileReader.of(io(), CONF, new Path(file.toUri()), schema)
                .fileSize(recordedSize)
                .open()) {
            while (r.hasNext()) {
                got.add(r.next().row());
            }
        }
        return got;
    }

    private void expectFailure(java.nio.file.Path file, TableSchema schema, long recordedSize, String... parts) {
        List<Object[]> got = new ArrayList<>();
        assertThatThrownBy(() -> read(file, schema, recordedSize, got))
                .isInstanceOf(CorruptFileException.class)
                .satisfies(
                        e -> assertThat(((CorruptFileException) e).file()).isEqualTo(new Path(file.toUri()).toString()))
                .hasMessageContaining(file.toString())
                .hasMessageContainingAll(parts);
        assertThat(got).as("rows returned from a damaged file").isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"zstd", "uncompressed", "snappy"})
    void everyPageCarriesACrcAndParquetMrVerifiesThem(String compression) throws IOException {
        TableSchema schema = schema(compression);
        List<Object[]> rows = rows(3000);
        java.nio.file.Path file = write("data.parquet", schema, rows);

        List<PageMap.Page> pages = PageMap.pages(file);
        assertThat(pages).hasSizeGreaterThan(6); // several pages per column, and v's dictionary
        assertThat(pages)
                .allSatisfy(p -> assertThat(p.hasCrc()).as(p.toString()).isTrue());
        assertThat(pages).anySatisfy(p -> assertThat(p.dictionary()).isTrue());

        // parquet-mr, verifying every page's CRC, reads every page and record Strata wrote
        Configuration verifying = new Configuration(CONF);
        verifying.setBoolean("parquet.page.verify-checksum.enabled", true);
        try (ParquetFileReader r = ParquetFileReader.open(
                HadoopInputFile.fromPath(new Path(file.toUri()), verifying),
                HadoopReadOptions.builder(verifying)
                        .usePageChecksumVerification(true)
                        .build())) {
            long n = 0;
            for (PageReadStore g = r.readNextRowGroup(); g != null; g = r.readNextRowGroup()) {
                n += g.getRowCount();
            }
            assertThat(n).isEqualTo(rows.size());
        }
        List<Group> groups = ParquetMr.read(new Path(file.toUri()), verifying);
        assertThat(groups).hasSize(rows.size());
        assertThat(groups.get(7).getLong("ts", 0)).isEqualTo((Long) rows.get(7)[1]);

        assertThat(read(file, schema, Files.size(file), new ArrayList<>())).hasSize(rows.size());
    }

    /** parquet-mr's own reader, verifying CRCs, also refuses a Strata file with a damaged page. */
    @Test
    void parquetMrRefusesADamagedPageOfAStrataFile() throws IOException {
        java.nio.file.Path file = write("data.parquet", schema("zstd"), rows(3000));
        PageMap.Page page = PageMap.dataPage(file, "ts", 1);
        PageMap.flip(file, page.bodyStart() + page.bodyLength() / 2);
        Configuration verifying = new Configuration(CONF);
        verifying.setBoolean("parquet.page.verify-checksum.enabled", true);
        assertThatThrownBy(() -> ParquetMr.read(new Path(file.toUri()), verifying))
                .hasRootCauseInstanceOf(ParquetDecodingException.class)
                .rootCause()
                .hasMessageContaining("CRC checksum verification failed");
    }

    @ParameterizedTest
    @CsvSource({"zstd, ts", "zstd, id", "uncompressed, ts", "uncompressed, id", "snappy, id"})
    void aFlippedByteInADataPageFailsNamingFileColumnAndPage(String compression, String column) throws IOException {
        TableSchema schema = schema(compression);
        java.nio.file.Path file = write("data.parquet", schema, rows(3000));
        long size = Files.size(file);
        PageMap.Page page = PageMap.dataPage(file, column, 1);
        PageMap.flip(file, page.bodyStart() + page.bodyLength() / 2);

        expectFailure(
                file,
                schema,
                size,
                "column " + column + ", row group 0, page 1 at byte " + page.headerStart(),
                "CRC32 mismatch");
        expectFailure(file, schema, -1, "column " + column, "page 1 at byte " + page.headerStart());
    }

    @ParameterizedTest
    @ValueSource(strings = {"zstd", "uncompressed"})
    void aFlippedByteInADictionaryPageFailsNamingIt(String compression) throws IOException {
        TableSchema schema = schema(compression);
        java.nio.file.Path file = write("data.parquet", schema, rows(3000));
        PageMap.Page dictionary = PageMap.dictionaryPage(file, "v");
        PageMap.flip(file, dictionary.bodyStart() + dictionary.bodyLength() / 2);

        expectFailure(
                file,
                schema,
                Files.size(file),
                "column v, row group 0, dictionary page at byte " + dictionary.headerStart(),
                "CRC32 mismatch");
    }

    /** Every byte of a page header flipped in turn: each read fails naming the file, or reads exactly what was written. */
    @ParameterizedTest
    @ValueSource(strings = {"zstd", "uncompressed"})
    void aFlippedByteInAPageHeaderNeverReadsWrongRows(String compression) throws IOException {
        TableSchema schema = schema(compression);
        List<Object[]> rows = rows(3000);
        java.nio.file.Path clean = write("clean.parquet", schema, rows);
        long size = Files.size(clean);
        PageMap.Page page = PageMap.dataPage(clean, "ts", 1);
        int failed = 0;
        int named = 0;
        for (long at = page.headerStart(); at < page.bodyStart(); at++) {
            String message = flippedFailsOrReadsExactly(clean, at, schema, size, rows, "column ts, row group 0, page ");
            failed += message != null ? 1 : 0;
            named += message != null && message.contains("page 1 at byte " + page.headerStart()) ? 1 : 0;
        }
        assertThat(failed).as("header bytes whose flip fails the read").isPositive();
        // a flip may also move where the next header is read from: then that one is named
        assertThat(named).as("failures naming the damaged header's page").isPositive();
    }

    /** Every byte of the footer flipped in turn: each read fails naming the file, or reads exactly what was written. */
    @Test
    void aFlippedByteInTheFooterNeverReadsWrongRows() throws IOException {
        TableSchema schema = schema("zstd");
        List<Object[]> rows = rows(300);
        java.nio.file.Path clean = write("clean.parquet", schema, rows);
        long size = Files.size(clean);
        long[] footer = PageMap.footer(clean);
        int failed = 0;
        for (long at = footer[0]; at < size; at++) {
            failed += flippedFailsOrReadsExactly(clean, at, schema, size, rows, null) != null ? 1 : 0;
        }
        assertThat(failed).as("footer bytes whose flip fails the read").isPositive();
    }

    /**
     * Copies {@code clean}, flips byte {@code at} and reads the copy: the failure's message when
     * the read fails naming the file (and {@code where}, if given, when the failure names a damaged
     * page) and returned no row, null when it reads exactly {@code rows}; anything else fails the
     * test.
     */
    private String flippedFailsOrReadsExactly(
            java.nio.file.Path clean, long at, TableSchema schema, long size, List<Object[]> rows, String where)
            throws IOException {
        java.nio.file.Path copy = dir.resolve("flipped.parquet");
        Files.copy(clean, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        PageMap.flip(copy, at);
        List<Object[]> got = new ArrayList<>();
        try {
            read(copy, schema, size, got);
        } catch (CorruptFileException e) {
            assertThat(e.getMessage()).as("byte " + at).contains(copy.toString());
            assertThat(got).as("rows returned before the failure, byte " + at).isEmpty();
            if (where != null && e.getMessage().contains("damaged page")) {
                assertThat(e.getMessage()).as("byte " + at).contains(where);
            }
            return e.getMessage();
        }
        assertThat(got).as("rows read with byte " + at + " flipped").hasSameSizeAs(rows);
        for (int i = 0; i < rows.size(); i++) {
            assertThat(got.get(i))
                    .as("row " + i + " with byte " + at + " flipped")
                    .isEqualTo(rows.get(i));
        }
        return null;
    }

    @Test
    void aTruncatedFileFailsNamingBothSizes() throws IOException {
        TableSchema schema = schema("zstd");
        java.nio.file.Path file = write("data.parquet", schema, rows(3000));
        long size = Files.size(file);
        Files.write(file, Arrays.copyOf(Files.readAllBytes(file), (int) size / 2));

        expectFailure(
                file, schema, size, "the file has " + size / 2 + " bytes, the manifest records " + size, "not read");
        expectFailure(file, schema, -1, "cannot open data file");
    }

    @Test
    void aFileOfAnotherSizeThanRecordedIsNotRead() throws IOException {
        TableSchema schema = schema("zstd");
        java.nio.file.Path file = write("data.parquet", schema, rows(3000));
        long size = Files.size(file);
        Files.write(file, new byte[] {0}, java.nio.file.StandardOpenOption.APPEND);

        expectFailure(file, schema, size, "the file has " + (size + 1) + " bytes, the manifest records " + size);
    }

    /** Files written without page CRCs (older writers, other engines) still read. */
    @Test
    void pagesWithoutACrcStillRead() throws IOException {
        TableSchema schema = schema("zstd");
        MessageType type = ParquetSchemas.messageType(schema.fields(), true);
        java.nio.file.Path file = dir.resolve("nocrc.parquet");
        List<Object[]> rows = rows(500);
        try (ParquetWriter<Group> w = ExampleParquetWriter.builder(
                        HadoopOutputFile.fromPath(new Path(file.toUri()), CONF))
                .withConf(CONF)
                .withType(type)
                .withPageWriteChecksumEnabled(false)
                .withExtraMetaData(Map.of(DataFileWriter.VERSION_KEY, "2", "strata.schema-id", "0"))
                .build()) {
            long seq = 0;
            for (Object[] r : rows) {
                Group g = new SimpleGroupFactory(type).newGroup();
                g.append(ParquetSchemas.SEQUENCE_COLUMN, seq++);
                g.append(ParquetSchemas.ROW_KIND_COLUMN, 0);
                g.append("id", (Long) r[0]);
                g.append("ts", (Long) r[1]);
                g.append("v", Binary.fromString((String) r[2]));
                w.write(g);
            }
        }
        assertThat(PageMap.pages(file)).noneSatisfy(p -> assertThat(p.hasCrc()).isTrue());

        List<Object[]> got = read(file, schema, Files.size(file), new ArrayList<>());
        assertThat(got).hasSize(rows.size());
        assertThat(got.get(42)).isEqualTo(rows.get(42));
    }
}
