package io.strata.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.parquet.io.PositionOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Local data files are forced to disk after their close, off the writer's thread: the bytes are
 * there for readers at once, {@code makeDurable} settles them before a commit names them, and
 * nothing about overwriting or missing files changes.
 */
class BackgroundSyncTest {
    @TempDir Path dir;

    private FileIO io() {
        return FileIO.forWarehouse(dir.toString(), Map.of());
    }

    @Test
    void aClosedDataFileIsReadableAtOnceAndDurableAfterMakeDurable() throws IOException {
        FileIO io = io();
        byte[] content = new byte[3 << 20];
        new Random(7).nextBytes(content);
        List<org.apache.hadoop.fs.Path> written = new java.util.ArrayList<>();
        for (int i = 0; i < 8; i++) {
            org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(dir.toUri().toString(), "bucket-0/data-" + i);
            try (PositionOutputStream out = io.dataOutputFile(p).create(0)) {
                out.write(content);
                assertThat(out.getPos()).isEqualTo(content.length);
            }
            assertThat(io.readFully(p)).as("file %d right after close", i).isEqualTo(content);
            written.add(p);
        }
        io.makeDurable(written);
        io.makeDurable(written); // again: forgotten once durable, forced once more, cheaply
        for (org.apache.hadoop.fs.Path p : written) {
            assertThat(io.length(p)).isEqualTo(content.length);
        }
    }

    @Test
    void filesWrittenElsewhereAreForcedAndMissingOnesSkipped() throws IOException {
        FileIO io = io();
        Path other = Files.write(dir.resolve("written-by-another-process"), new byte[] {1, 2, 3});
        io.makeDurable(List.of(new org.apache.hadoop.fs.Path(other.toUri()),
                new org.apache.hadoop.fs.Path(dir.toUri().toString(), "never-written")));
        assertThat(Files.readAllBytes(other)).containsExactly(1, 2, 3);
    }

    /** Manifests and manifest lists are written through outputFile: a snapshot names them directly. */
    @Test
    void onlyDataFilesAreForcedInTheBackground() throws IOException {
        FileIO io = io();
        long before = BackgroundSync.handedOver();
        try (OutputStream out = io.outputFile(new org.apache.hadoop.fs.Path(dir.toUri().toString(), "manifest-1")).create(0)) {
            out.write(1);
        }
        assertThat(BackgroundSync.handedOver()).as("a file of outputFile is forced at its close").isEqualTo(before);
        try (OutputStream out = io.dataOutputFile(new org.apache.hadoop.fs.Path(dir.toUri().toString(), "data-1")).create(0)) {
            out.write(1);
        }
        assertThat(BackgroundSync.handedOver()).isEqualTo(before + 1);
    }

    @Test
    void aDataFileNeverOverwritesAnExistingOne() throws IOException {
        FileIO io = io();
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(dir.toUri().toString(), "data-x");
        try (OutputStream out = io.dataOutputFile(p).create(0)) {
            out.write(42);
        }
        assertThatThrownBy(() -> io.dataOutputFile(p).create(0)).hasMessageContaining("data-x");
        io.makeDurable(List.of(p));
        assertThat(io.readFully(p)).containsExactly(42);
    }
}
