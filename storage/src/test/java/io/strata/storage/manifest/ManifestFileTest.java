package io.strata.storage.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.format.ColumnStats;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.format.FileFormatConfig;
import io.strata.storage.format.FileSource;
import io.strata.storage.fs.FileIO;
import io.strata.storage.fs.TablePaths;
import io.strata.storage.options.ManifestOptions;
import io.strata.storage.options.TableOptions;
import io.strata.storage.schema.DataType;
import io.strata.storage.testutil.SchemedLocalFileSystem;
import io.strata.storage.util.CorruptFileException;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The CRC32C a manifest list records for a manifest is computed while the manifest is written, not
 * read back: it must be exactly the CRC32C of the bytes the file holds, for manifests of one
 * entry, of many pages and row groups, and of several rolled files; on the local file system
 * ({@code file}: Strata's own streams) and through a Hadoop file system ({@code objlike}: the local
 * one under another scheme, written through Hadoop's streams as HDFS and S3A files are).
 */
class ManifestFileTest {
    private static final long SEED = 20261205L;

    @TempDir
    java.nio.file.Path dir;

    private FileIO io;
    private TablePaths paths;

    private ManifestFile manifests(String scheme, Map<String, String> options) {
        Configuration conf = new Configuration();
        String warehouse = dir.toAbsolutePath().toUri().getPath() + "wh";
        if (!scheme.equals("file")) {
            conf.set("fs." + scheme + ".impl", SchemedLocalFileSystem.class.getName());
            conf.setBoolean("fs." + scheme + ".impl.disable.cache", true);
        }
        io = FileIO.forWarehouse(scheme + "://" + warehouse, conf);
        assertThat(io.scheme()).isEqualTo(scheme);
        paths = new TablePaths(new Path(scheme + "://" + warehouse + "/db.db/t"));
        TableOptions table = TableOptions.validate("db.t", options);
        return new ManifestFile(
                io,
                paths,
                new FileFormatConfig(conf, table),
                table.get(ManifestOptions.TARGET_FILE_SIZE),
                List.of(DataType.parse("INT NOT NULL")),
                Clock.systemUTC(),
                ManifestCache.disabled());
    }

    /** {@code n} entries of varied partitions, buckets, keys and statistics (random bytes compress poorly). */
    private static List<ManifestEntry> entries(int n, Random random) {
        List<ManifestEntry> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long key = random.nextLong();
            DataFileMeta f = new DataFileMeta(
                    "data-" + new java.util.UUID(random.nextLong(), random.nextLong()) + "-" + i + ".parquet",
                    1 + random.nextInt(1 << 30),
                    1 + random.nextInt(100_000),
                    random.nextInt(100),
                    new Object[] {key},
                    new Object[] {key + random.nextInt(1 << 20)},
                    i,
                    i + random.nextInt(1000),
                    random.nextInt(6),
                    0,
                    List.of(new ColumnStats(0, key, key + 1, 0), new ColumnStats(1, null, null, -1)),
                    1_764_460_000_000L + i,
                    random.nextBoolean() ? FileSource.APPEND : FileSource.COMPACT);
            FileKind kind = random.nextInt(5) == 0 ? FileKind.DELETE : FileKind.ADD;
            out.add(new ManifestEntry(kind, new Object[] {random.nextInt(20)}, random.nextInt(16), 16, f));
        }
        return out;
    }

    /** What an entry says, comparable (entries have identity equality). */
    private static List<Object> content(ManifestEntry e) {
        return List.of(e.kind(), e.identifier(), e.totalBuckets(), e.file());
    }

    private static String crc32cOfFile(java.nio.file.Path file) throws IOException {
        CRC32C crc = new CRC32C();
        crc.update(Files.readAllBytes(file));
        return String.format("%08x", crc.getValue());
    }

    private java.nio.file.Path local(ManifestFileMeta m) {
        return java.nio.file.Path.of(paths.manifestFile(m.fileName()).toUri().getPath());
    }

    private static int rowGroups(java.nio.file.Path file) throws IOException {
        Configuration conf = new Configuration();
        try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromPath(new Path(file.toUri()), conf))) {
            return r.getFooter().getBlocks().size();
        }
    }

    /**
     * Checks what {@code written} records against the files: sizes, CRC32Cs, entries read back
     * verified; returns the manifests' row group counts.
     */
    private List<Integer> checkRecordedCrcs(
            ManifestFile manifests, List<ManifestEntry> entries, List<ManifestFileMeta> written) throws IOException {
        List<ManifestEntry> read = new ArrayList<>();
        List<Integer> groups = new ArrayList<>();
        for (ManifestFileMeta m : written) {
            java.nio.file.Path file = local(m);
            assertThat(m.fileSize()).as("size of %s", file).isEqualTo(Files.size(file));
            assertThat(m.crc32c()).as("CRC32C of %s", file).isEqualTo(crc32cOfFile(file));
            read.addAll(manifests.read(m));
            groups.add(rowGroups(file));
        }
        assertThat(read.stream().map(ManifestFileTest::content))
                .containsExactlyElementsOf(
                        entries.stream().map(ManifestFileTest::content).toList());
        return groups;
    }

    @ParameterizedTest
    @ValueSource(strings = {"file", "objlike"})
    void theRecordedCrc32cIsTheCrc32cOfTheFileAsStored(String scheme) throws IOException {
        ManifestFile manifests = manifests(scheme, Map.of("file.compression", "zstd"));
        Random random = new Random(SEED);
        for (int n : new int[] {1, 2, 17, 1000, 1025, 4000}) {
            List<ManifestEntry> entries = entries(n, random);
            List<ManifestFileMeta> written = manifests.write(entries);
            assertThat(written).as("%d entries", n).hasSize(1);
            checkRecordedCrcs(manifests, entries, written);
        }
        assertThat(manifests.write(List.of())).isEmpty();
    }

    /** Small pages and row groups, and a small target size: several row groups a manifest, several manifests a write. */
    @ParameterizedTest
    @ValueSource(strings = {"file", "objlike"})
    void aManifestOfManyPagesAndRowGroupsAndRolledManifestsRecordTheirFilesCrc32c(String scheme) throws IOException {
        Map<String, String> options = new HashMap<>();
        options.put("file.compression", "uncompressed");
        options.put("file.page-size", "1 kb");
        options.put("file.block-size", "64 kb");
        ManifestFile oneFile = manifests(scheme, options);
        Random random = new Random(SEED + 1);
        List<ManifestEntry> entries = entries(3000, random);
        List<ManifestFileMeta> one = oneFile.write(entries);
        assertThat(one).hasSize(1);
        assertThat(checkRecordedCrcs(oneFile, entries, one).get(0))
                .as("row groups")
                .isGreaterThan(2);

        options.put("manifest.target-file-size", "256 kb");
        ManifestFile rolling = manifests(scheme, options);
        List<ManifestEntry> more = entries(12_000, random);
        List<ManifestFileMeta> several = rolling.write(more);
        assertThat(several).hasSizeGreaterThan(2);
        assertThat(checkRecordedCrcs(rolling, more, several))
                .allSatisfy(g -> assertThat(g).isGreaterThan(1));
    }

    /** The CRC32C recorded is the one a read verifies: a byte flipped in the manifest fails the read naming both. */
    @ParameterizedTest
    @ValueSource(strings = {"file", "objlike"})
    void aManifestDamagedAfterWritingFailsOnTheRecordedCrc32c(String scheme) throws IOException {
        ManifestFile manifests = manifests(scheme, Map.of());
        ManifestFileMeta m = manifests.write(entries(50, new Random(SEED + 2))).get(0);
        java.nio.file.Path file = local(m);
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length / 2] ^= (byte) 0xff;
        Files.write(file, bytes);
        assertThatThrownBy(() -> manifests.read(m))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining(
                        "manifest's CRC32C is " + crc32cOfFile(file) + " but its manifest list records " + m.crc32c());
    }
}
