package io.strata.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.MiniHdfs;
import io.strata.storage.testutil.S3Warehouse;
import io.strata.storage.testutil.TestTables;
import io.strata.storage.util.CorruptFileException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The corruption cases of a read and of a commit on HDFS (a MiniDFSCluster) and on S3A
 * (s3proxy), where the size a file system reports and the bytes it returns come from another
 * client than on local disk: a flipped byte in a data page, a manifest replaced by another, a
 * snapshot whose content changed, and a commit on a table whose latest manifest list is damaged.
 * Each fails naming the file, returns no row and publishes nothing.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class RemoteCorruptTableTest {
    private static MiniDFSCluster hdfs;
    private static Configuration hdfsConf;
    private static S3Warehouse s3;

    @BeforeAll
    static void start() throws Exception {
        hdfs = MiniHdfs.start("corrupt-minidfs");
        hdfsConf = hdfs.getConfiguration(0);
        s3 = S3Warehouse.start("corrupt-s3");
    }

    @AfterAll
    static void stop() throws Exception {
        if (s3 != null) {
            s3.close();
        }
        if (hdfs != null) {
            hdfs.shutdown(true);
        }
        FileSystem.closeAll();
    }

    /** A fresh table of three commits on {@code fs}; on S3 commits take a JDBC lock (s3proxy ignores If-None-Match). */
    private static Catalog catalog(String fs) {
        String name = "wh-" + UUID.randomUUID();
        if (fs.equals("hdfs")) {
            return Catalog.open(MiniHdfs.uri(hdfs, name), hdfsConf);
        }
        return Catalog.open(s3.uri(name), s3.configuration());
    }

    private static FileStoreTable create(Catalog catalog) {
        FileStoreTable t = catalog.createTable(
                "db",
                "t",
                Schema.newBuilder()
                        .column("id", "BIGINT")
                        .column("ts", "BIGINT")
                        .column("v", "STRING")
                        .primaryKey("id")
                        .option("bucket", "1")
                        .option("file.page-size", "4kb")
                        .build());
        Random random = new Random(18);
        try (TableWrite w = t.newWrite("u");
                TableCommit c = t.newCommit("u")) {
            for (int commit = 0; commit < 3; commit++) {
                for (int i = 0; i < 1200; i++) {
                    w.write(GenericRow.insert(
                            (long) random.nextInt(10_000), random.nextLong(), "v" + random.nextInt(8)));
                }
                c.commit(commit, w.prepareCommit());
            }
        }
        return t;
    }

    /** Replaces {@code file} with {@code bytes} (object stores cannot write in place). */
    private static void rewrite(FileIO io, Path file, byte[] bytes) throws IOException {
        io.delete(file);
        io.writeNew(file, bytes);
    }

    private static List<FileIO.FileEntry> files(FileIO io, Path dir, String prefix) throws IOException {
        return io.list(dir).stream()
                .filter(e -> !e.isDirectory() && e.path().getName().startsWith(prefix))
                .sorted(Comparator.comparing(e -> e.path().getName()))
                .toList();
    }

    /** A fresh handle's full scan fails naming {@code file}; no row is returned. */
    private static void expectCorrupt(Catalog catalog, Path file) {
        List<GenericRow> got = new java.util.ArrayList<>();
        assertThatThrownBy(() -> got.addAll(TestTables.scan(catalog.getTable("db", "t"))))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining(file.getName());
        assertThat(got).as("rows returned").isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hdfs", "s3"})
    void aFlippedByteInADataPageFailsTheScanNamingTheFile(String fs) throws IOException {
        Catalog catalog = catalog(fs);
        FileStoreTable t = create(catalog);
        FileIO io = t.fileIO();
        FileIO.FileEntry biggest = files(io, new Path(t.paths().root(), "bucket-0"), "data-").stream()
                .max(Comparator.comparingLong(FileIO.FileEntry::length))
                .orElseThrow();
        byte[] bytes = io.readFully(biggest.path());
        bytes[bytes.length / 3] ^= 0x10; // inside a page of the first columns, well before the footer
        rewrite(io, biggest.path(), bytes);

        expectCorrupt(catalog, biggest.path());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hdfs", "s3"})
    void aManifestReplacedByAnotherFailsNamingIt(String fs) throws IOException {
        Catalog catalog = catalog(fs);
        FileStoreTable t = create(catalog);
        FileIO io = t.fileIO();
        List<FileIO.FileEntry> manifests = files(io, new Path(t.paths().root(), "manifest"), "manifest-");
        manifests = manifests.stream()
                .filter(e -> !e.path().getName().startsWith("manifest-list-"))
                .toList();
        assertThat(manifests).hasSizeGreaterThanOrEqualTo(2);
        // the latest snapshot's delta manifest, replaced by the first commit's
        String delta = t.manifests()
                .manifestList()
                .read(t.snapshotManager().latest().orElseThrow().deltaManifestList())
                .get(0)
                .fileName();
        Path target = new Path(new Path(t.paths().root(), "manifest"), delta);
        FileIO.FileEntry other = manifests.stream()
                .filter(e -> !e.path().getName().equals(delta))
                .findFirst()
                .orElseThrow();
        rewrite(io, target, io.readFully(other.path()));

        expectCorrupt(catalog, target);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hdfs", "s3"})
    void aSnapshotWhoseContentChangedFailsOnItsChecksum(String fs) throws IOException {
        Catalog catalog = catalog(fs);
        FileStoreTable t = create(catalog);
        FileIO io = t.fileIO();
        long latest = t.snapshotManager().latestId().getAsLong();
        Path snapshot = new Path(new Path(t.paths().root(), "snapshot"), "snapshot-" + latest);
        String json = io.readUtf8(snapshot);
        String changed = json.replaceFirst("\"totalRecordCount\"\\s*:\\s*([0-9])", "\"totalRecordCount\":9$1");
        assertThat(changed).isNotEqualTo(json);
        rewrite(io, snapshot, changed.getBytes(StandardCharsets.UTF_8));

        expectCorrupt(catalog, snapshot);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hdfs", "s3"})
    void aCommitOnADamagedLatestManifestListFailsNamingItAndPublishesNothing(String fs) throws IOException {
        Catalog catalog = catalog(fs);
        FileStoreTable t = create(catalog);
        FileIO io = t.fileIO();
        long latest = t.snapshotManager().latestId().getAsLong();
        Path list = new Path(
                new Path(t.paths().root(), "manifest"),
                t.snapshotManager().latest().orElseThrow().baseManifestList());
        byte[] bytes = io.readFully(list);
        rewrite(io, list, java.util.Arrays.copyOf(bytes, bytes.length / 2));

        FileStoreTable writer = catalog.getTable("db", "t");
        assertThatThrownBy(() -> {
                    try (TableWrite w = writer.newWrite("u2");
                            TableCommit c = writer.newCommit("u2")) {
                        w.write(GenericRow.insert(1L, 1L, "new"));
                        c.commit(1, w.prepareCommit());
                    }
                })
                .hasStackTraceContaining(list.getName());
        FileStoreTable reader = catalog.getTable("db", "t");
        assertThat(reader.snapshotManager().latestId().getAsLong())
                .as("nothing published")
                .isEqualTo(latest);
    }
}
