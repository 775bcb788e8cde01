package io.strata.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.maintenance.TableFiles;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.Rows;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.io.SeekableInputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The storage failures a writer, a committer and a reader meet on a real machine, where the
 * tests' root user cannot make them with permissions: a full disk while a data file or a
 * manifest is written, permission denied when the snapshot is published or a data file is read,
 * and a schema file written by a newer build. Each fails with an error naming the file and the
 * cause, and leaves the table as it was: the same latest snapshot, the same scan, no referenced
 * file missing.
 */
class WriteFailureTest {
    @TempDir
    Path warehouse;

    /** What the file system refuses: paths matching it, with the failure it throws. */
    private RefusingIO io;

    private FileStoreTable table;
    private Map<Long, List<Object>> before;
    private long latestBefore;

    @BeforeEach
    void setUp() {
        io = new RefusingIO(warehouse.toString());
        table = Catalog.open(warehouse.toString(), io)
                .createTable(
                        "db",
                        "t",
                        Schema.newBuilder()
                                .column("id", "BIGINT")
                                .column("v", "STRING")
                                .primaryKey("id")
                                .option("bucket", "1")
                                // a lock in this JVM: a table opened through a test FileIO publishes under it
                                .option("commit.lock.class", "io.strata.storage.fs.CommitLockTest$JvmLock")
                                .build());
        commit(1, 0, 100);
        before = Rows.byKey(Rows.readAll(table.newReadBuilder()));
        latestBefore = table.snapshotManager().latestId().getAsLong();
    }

    private void commit(long identifier, int from, int to) {
        try (TableWrite w = table.newWrite("u");
                TableCommit c = table.newCommit("u")) {
            for (long k = from; k < to; k++) {
                w.write(GenericRow.insert(k, "v" + k + "-" + identifier));
            }
            c.commit(identifier, w.prepareCommit());
        }
    }

    private void assertUnchanged() {
        FileStoreTable reader = Catalog.open(warehouse.toString()).getTable("db", "t");
        assertThat(reader.snapshotManager().latestId().getAsLong())
                .as("latest snapshot")
                .isEqualTo(latestBefore);
        assertThat(Rows.byKey(Rows.readAll(reader.newReadBuilder()))).as("scan").isEqualTo(before);
        assertThat(TableFiles.onDisk(reader)).as("referenced files on disk").containsAll(TableFiles.referenced(reader));
    }

    @Test
    void aFullDiskWhileTheWriterWritesADataFileFailsNamingItAndCommitsNothing() {
        io.refuse(p -> p.getName().startsWith("data-"), p -> new IOException(p + ": No space left on device"), 512);

        assertThatThrownBy(() -> commit(2, 0, 5_000))
                .hasStackTraceContaining("No space left on device")
                .satisfies(e ->
                        assertThat(messages(e)).contains(warehouse.toString()).contains("data-"));

        io.refuseNothing();
        assertUnchanged();
    }

    @Test
    void aFullDiskWhileTheCommitWritesItsManifestsFailsNamingTheTableAndLeavesNoManifest() {
        io.refuse(p -> p.getName().startsWith("manifest-"), p -> new IOException(p + ": No space left on device"), 0);

        assertThatThrownBy(() -> commit(2, 50, 150))
                .satisfies(e -> assertThat(messages(e))
                        .contains("table db.t")
                        .contains("cannot write manifests")
                        .contains("No space left on device"));

        io.refuseNothing();
        assertUnchanged();
        FileStoreTable reader = Catalog.open(warehouse.toString()).getTable("db", "t");
        Set<String> onDisk = TableFiles.onDisk(reader);
        onDisk.removeIf(n -> !n.startsWith("manifest"));
        assertThat(onDisk).as("manifests on disk: only the referenced ones").isSubsetOf(TableFiles.referenced(reader));
    }

    @Test
    void permissionDeniedOnTheSnapshotDirectoryFailsTheCommitNamingThePath() {
        io.refuse(p -> p.getParent().getName().equals("snapshot"), p -> new AccessDeniedException(p.toString()), -1);

        assertThatThrownBy(() -> commit(2, 50, 150))
                .satisfies(e -> assertThat(messages(e))
                        .contains("table db.t")
                        .contains(AccessDeniedException.class.getSimpleName())
                        .contains("snapshot"));

        io.refuseNothing();
        assertUnchanged();
    }

    @Test
    void permissionDeniedReadingADataFileFailsTheScanNamingTheFile() {
        io.refuseReads(p -> p.getName().startsWith("data-"), p -> new AccessDeniedException(p.toString()));

        assertThatThrownBy(() -> Rows.readAll(table.newReadBuilder()))
                .satisfies(e -> assertThat(messages(e)).contains("data-").contains("AccessDeniedException"));

        io.refuseNothing();
        assertUnchanged();
    }

    @Test
    void aSchemaFileOfANewerBuildIsRefusedNamingTheFileAndVersions() throws IOException {
        Path schema = warehouse.resolve("db.db/t/schema/schema-0");
        String json = Files.readString(schema);
        Files.writeString(
                schema, json.replaceFirst("\"version\"\\s*:\\s*[0-9]+", "\"version\" : 99"), StandardCharsets.UTF_8);

        assertThatThrownBy(() -> Catalog.open(warehouse.toString()).getTable("db", "t"))
                .satisfies(e -> assertThat(messages(e)).contains("schema-0").contains("unsupported schema version 99"));

        Files.writeString(schema, json, StandardCharsets.UTF_8);
        assertUnchanged();
    }

    /** Every message of the cause chain, one per line. */
    private static String messages(Throwable e) {
        StringBuilder b = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            b.append(t.getClass().getSimpleName())
                    .append(": ")
                    .append(t.getMessage())
                    .append('\n');
        }
        return b.toString();
    }

    /** A local file system that refuses to create (after some bytes) or read the matching files. */
    private static final class RefusingIO extends DelegatingFileIO {
        private volatile Predicate<org.apache.hadoop.fs.Path> writes = p -> false;
        private volatile Predicate<org.apache.hadoop.fs.Path> reads = p -> false;
        private volatile java.util.function.Function<org.apache.hadoop.fs.Path, IOException> failure;
        /** Bytes a refused file takes before the disk is full; negative: refused at creation. */
        private volatile long budget;

        RefusingIO(String warehouse) {
            super(warehouse);
        }

        void refuse(
                Predicate<org.apache.hadoop.fs.Path> which,
                java.util.function.Function<org.apache.hadoop.fs.Path, IOException> how,
                long bytes) {
            this.failure = how;
            this.budget = bytes;
            this.writes = which;
        }

        void refuseReads(
                Predicate<org.apache.hadoop.fs.Path> which,
                java.util.function.Function<org.apache.hadoop.fs.Path, IOException> how) {
            this.failure = how;
            this.reads = which;
        }

        void refuseNothing() {
            writes = p -> false;
            reads = p -> false;
        }

        private void checkCreate(org.apache.hadoop.fs.Path p) throws IOException {
            if (writes.test(p) && budget < 0) {
                throw failure.apply(p);
            }
        }

        private OutputStream limited(org.apache.hadoop.fs.Path p, OutputStream out) {
            if (!writes.test(p)) {
                return out;
            }
            return new java.io.FilterOutputStream(out) {
                private long written;

                @Override
                public void write(int b) throws IOException {
                    if (++written > budget) {
                        throw failure.apply(p);
                    }
                    out.write(b);
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    for (int i = 0; i < len; i++) {
                        write(b[off + i]);
                    }
                }
            };
        }

        @Override
        public OutputStream create(org.apache.hadoop.fs.Path path) throws IOException {
            checkCreate(path);
            return limited(path, local.create(path));
        }

        @Override
        public InputStream open(org.apache.hadoop.fs.Path path) throws IOException {
            if (reads.test(path)) {
                throw failure.apply(path);
            }
            return local.open(path);
        }

        @Override
        protected void replace(org.apache.hadoop.fs.Path src, org.apache.hadoop.fs.Path dst) throws IOException {
            checkCreate(dst);
            super.replace(src, dst);
        }

        @Override
        public InputFile inputFile(org.apache.hadoop.fs.Path path, long knownLength) {
            InputFile in = local.inputFile(path, knownLength);
            return new InputFile() {
                @Override
                public long getLength() throws IOException {
                    return in.getLength();
                }

                @Override
                public SeekableInputStream newStream() throws IOException {
                    if (reads.test(path)) {
                        throw failure.apply(path);
                    }
                    return in.newStream();
                }
            };
        }

        @Override
        public OutputFile outputFile(org.apache.hadoop.fs.Path path) {
            return limitedOutput(path, local.outputFile(path));
        }

        @Override
        public OutputFile dataOutputFile(org.apache.hadoop.fs.Path path) {
            return limitedOutput(path, local.dataOutputFile(path));
        }

        private OutputFile limitedOutput(org.apache.hadoop.fs.Path path, OutputFile out) {
            return new NoOverwriteOutputFile(path) {
                @Override
                public PositionOutputStream create(long blockSizeHint) throws IOException {
                    checkCreate(path);
                    PositionOutputStream s = out.create(blockSizeHint);
                    if (!writes.test(path)) {
                        return s;
                    }
                    return new PositionOutputStream() {
                        private long written;

                        @Override
                        public long getPos() throws IOException {
                            return s.getPos();
                        }

                        @Override
                        public void write(int b) throws IOException {
                            if (++written > budget) {
                                throw failure.apply(path);
                            }
                            s.write(b);
                        }

                        @Override
                        public void write(byte[] b, int off, int len) throws IOException {
                            if (written + len > budget) {
                                throw failure.apply(path);
                            }
                            written += len;
                            s.write(b, off, len);
                        }

                        @Override
                        public void flush() throws IOException {
                            s.flush();
                        }

                        @Override
                        public void close() throws IOException {
                            s.close();
                        }
                    };
                }

                @Override
                public String getPath() {
                    return out.getPath();
                }
            };
        }
    }
}
