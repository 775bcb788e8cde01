package io.strata.storage.testutil;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import io.strata.storage.read.ReadBuilder;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.util.CloseableIterator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Helpers shared by tests: the model table schema and full scans. */
public final class TestTables {
    private TestTables() {}

    /** The schema of {@link TableModel} tables, optionally partitioned by p. */
    public static Schema modelSchema(boolean partitioned, int buckets, Map<String, String> options) {
        Schema.Builder b = Schema.newBuilder()
                .column("p", "INT NOT NULL")
                .column("id", "INT NOT NULL")
                .column("a", "BIGINT")
                .column("b", "INT")
                .column("c", "STRING")
                .column("d", "BIGINT")
                .column("e", "DOUBLE")
                .column("ts", "BIGINT")
                .primaryKey("p", "id")
                .option("bucket", String.valueOf(buckets))
                .options(options);
        if (partitioned) {
            b.partitionKeys("p");
        }
        return b.build();
    }

    public static List<GenericRow> scan(ReadBuilder rb) {
        List<GenericRow> rows = new ArrayList<>();
        try (CloseableIterator<GenericRow> it = rb.readAll()) {
            it.forEachRemaining(rows::add);
        }
        return rows;
    }

    /**
     * A new write-only table {@code db.t} (k BIGINT primary key, v STRING, 2 buckets, a commit
     * lock inside this JVM, so that a table opened through any test FileIO can publish) holding
     * one committed row, k = 1, written by commit user {@code w}: snapshot 1.
     */
    public static FileStoreTable oneRowTable(String warehouse) {
        FileStoreTable t = Catalog.open(warehouse)
                .createTable(
                        "db",
                        "t",
                        Schema.newBuilder()
                                .column("k", "BIGINT NOT NULL")
                                .column("v", "STRING")
                                .primaryKey("k")
                                .option("bucket", "2")
                                .option("write-only", "true")
                                .option("commit.lock.class", "io.strata.storage.fs.CommitLockTest$JvmLock")
                                .build());
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            w.write(new GenericRow(RowKind.INSERT, 1L, "one"));
            c.commit(1, w.prepareCommit());
        }
        return t;
    }

    public static List<GenericRow> scan(FileStoreTable t) {
        return scan(t.newReadBuilder());
    }

    /** Counts how many times each test seed should repeat: {@code -Dstrata.test.iterations} (soak profile). */
    public static int iterations() {
        return Integer.getInteger("strata.test.iterations", 1);
    }

    /**
     * Copies the directory tree {@code from} to {@code to} (replacing what is there), keeping
     * modification times: tests run an operation on copies of one table at a given state.
     */
    public static Path copyTree(Path from, Path to) {
        deleteTree(to);
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return to;
    }

    /** Deletes the directory tree {@code p}, if it exists. */
    public static void deleteTree(Path p) {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> files = Files.walk(p)) {
            for (Path f : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
