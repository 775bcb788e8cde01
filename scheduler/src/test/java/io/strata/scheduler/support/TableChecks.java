package io.strata.scheduler.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.data.GenericRow;
import io.strata.storage.read.ReadBuilder;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.testutil.TestTables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashSet;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Reads and checks of a table that the scheduler's end-to-end and shutdown tests share. */
public final class TableChecks {
    private TableChecks() {}

    /** The rows of {@code read}, key to value, for a table of {@link ModelWriter}'s shape. */
    public static Map<Long, String> rows(ReadBuilder read) {
        Map<Long, String> out = new TreeMap<>();
        for (GenericRow r : TestTables.scan(read)) {
            String before = out.put((Long) r.get(0), (String) r.get(1));
            assertThat(before).as("key %s read twice", r.get(0)).isNull();
        }
        return out;
    }

    /** The rows of the latest snapshot. */
    public static Map<Long, String> rows(FileStoreTable t) {
        return rows(t.newReadBuilder());
    }

    /**
     * Every retained snapshot reads, each as the model of the writer commit it holds, and every
     * data file a retained snapshot references is on disk.
     */
    public static void assertRetainedSnapshotsIntact(FileStoreTable t, ModelWriter model, String what) {
        OptionalLong earliest = t.snapshotManager().earliestId();
        OptionalLong latest = t.snapshotManager().latestId();
        assertThat(latest).as(what + ": the table has snapshots").isPresent();
        for (long id = earliest.getAsLong(); id <= latest.getAsLong(); id++) {
            Map<Long, String> rows = rows(t.newReadBuilder().withSnapshot(id));
            assertThat(rows)
                    .as(what + ": snapshot " + id + " reads as the model of its writer commit")
                    .isEqualTo(model.modelAt(ModelWriter.versionOf(rows)));
        }
        Set<String> onDisk = new HashSet<>();
        try {
            t.reachableFiles().dataDirectoryFiles(n -> true).forEach(p -> onDisk.add(p.getName()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(onDisk)
                .as(what + ": the data files the retained snapshots reference are on disk")
                .containsAll(t.reachableFiles().referencedByRetainedSnapshots());
    }

    /** The regular files under {@code dir}, recursively; a file deleted while it is walked is not counted. */
    public static long files(Path dir) {
        long[] count = {0};
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (attrs.isRegularFile()) {
                        count[0]++;
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                    if (e instanceof NoSuchFileException) {
                        return FileVisitResult.CONTINUE;
                    }
                    throw e;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
        return count[0];
    }

    /** The regular files under {@code dir} by the directory directly under it that holds them. */
    public static Map<String, Long> filesByDirectory(Path dir) {
        Map<String, Long> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            s.forEach(p -> {
                if (Files.isRegularFile(p)) {
                    Path rel = dir.relativize(p);
                    out.merge(rel.getNameCount() > 1 ? rel.getName(0).toString() : ".", 1L, Long::sum);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            out.put("(listing failed: " + e + ")", 0L);
        }
        return out;
    }
}
