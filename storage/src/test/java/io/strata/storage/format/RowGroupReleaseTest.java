package io.strata.storage.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.TestTables;
import io.strata.storage.util.CloseableIterator;
import io.strata.storage.util.CorruptFileException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every Parquet buffer a scan or a compaction borrows from {@link BufferPool} goes back: when a
 * reader moves to its next row group, when it is exhausted, when it is closed early, and when a
 * writer flushes a row group or completes a file. Files here hold many row groups of many pages,
 * and the values read must stay intact after their buffers were released (tests run with the
 * pool poisoning released memory). With Zstandard, decompressed pages come from the pool too
 * ({@link PageDecompression}) and go back as the decoders move past them.
 */
class RowGroupReleaseTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"uncompressed", "zstd", "gzip", "snappy"})
    void scansAndCompactionsHandEveryBufferBack(String compression) {
        FileStoreTable t = table(compression);
        BufferPool pool = BufferPool.shared();
        int lentBefore = pool.lent();
        TreeMap<Long, String> model = write(t, pool, lentBefore);
        assertThat(contents(TestTables.scan(t))).isEqualTo(model);
        assertThat(pool.lent()).as("buffers lent after a full scan").isEqualTo(lentBefore);

        try (CloseableIterator<GenericRow> it = t.newReadBuilder().readAll()) {
            assertThat(it.hasNext()).isTrue();
            it.next();
            assertThat(pool.lent()).as("an open reader holds its row group").isGreaterThan(lentBefore);
        }
        assertThat(pool.lent()).as("buffers lent after closing a scan early").isEqualTo(lentBefore);

        t.newCompactor().compact(CompactStrategy.FULL, "compactor", 1);
        assertThat(pool.lent()).as("buffers lent after a full compaction").isEqualTo(lentBefore);
        assertThat(contents(TestTables.scan(t))).isEqualTo(model);
    }

    /**
     * A Zstandard page whose bytes were damaged (the file's footer intact, so the damage is found
     * only when the page is decompressed): the scan fails naming the file and leaves no buffer
     * lent, and the file is not changed.
     */
    @Test
    void aDamagedZstdPageFailsNamingTheFileAndHandsItsBuffersBack() throws IOException {
        FileStoreTable t = table("zstd");
        BufferPool pool = BufferPool.shared();
        int lentBefore = pool.lent();
        write(t, pool, lentBefore);
        Path file;
        try (Stream<Path> files = Files.walk(dir)) {
            file = files.filter(p -> p.getFileName().toString().endsWith(".parquet"))
                    .max(Comparator.comparingLong(p -> p.toFile().length()))
                    .orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(file);
        int footer = ByteBuffer.wrap(bytes, bytes.length - 8, 4)
                .order(ByteOrder.LITTLE_ENDIAN)
                .getInt();
        int dataEnd = bytes.length - 8 - footer;
        for (int i = dataEnd / 3; i < dataEnd / 3 + 2048 && i < dataEnd; i++) {
            bytes[i] ^= (byte) 0x5C;
        }
        Files.write(file, bytes);
        byte[] damaged = bytes.clone();

        assertThatThrownBy(() -> TestTables.scan(t))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining(file.getFileName().toString());
        assertThat(pool.lent()).as("buffers lent after the failed scan").isEqualTo(lentBefore);
        assertThat(Files.readAllBytes(file)).isEqualTo(damaged);
    }

    private FileStoreTable table(String compression) {
        return Catalog.open(dir.toString())
                .createTable(
                        "db",
                        "t",
                        Schema.newBuilder()
                                .column("k", "BIGINT NOT NULL")
                                .column("v", "STRING")
                                .column("n", "BIGINT")
                                .primaryKey("k")
                                .option("bucket", "1")
                                .option("write-only", "true")
                                .option("file.compression", compression)
                                .option("file.block-size", "16 kb")
                                .option("file.page-size", "4 kb")
                                .build());
    }

    private static TreeMap<Long, String> write(FileStoreTable t, BufferPool pool, int lentBefore) {
        TreeMap<Long, String> model = new TreeMap<>();
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            for (int commit = 1; commit <= 3; commit++) {
                for (long k = commit; k < 6000; k += 2) {
                    // long values, unique (plain pages) and repeated (dictionary pages)
                    String v =
                            (k % 3 == 0 ? "shared-" + (k % 7) : "value-" + k + "-" + commit).repeat(1 + (int) (k % 4));
                    w.write(new GenericRow(RowKind.INSERT, k, v, k * commit));
                    model.put(k, v);
                }
                c.commit(commit, w.prepareCommit());
                assertThat(pool.lent())
                        .as("buffers lent after commit %d", commit)
                        .isEqualTo(lentBefore);
            }
        }
        return model;
    }

    private static TreeMap<Long, String> contents(List<GenericRow> rows) {
        TreeMap<Long, String> m = new TreeMap<>();
        for (GenericRow r : rows) {
            m.put((Long) r.get(0), (String) r.get(1));
        }
        return m;
    }
}
