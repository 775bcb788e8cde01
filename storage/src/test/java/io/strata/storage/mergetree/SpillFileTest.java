package io.strata.storage.mergetree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import io.strata.storage.merge.MergeEngines;
import io.strata.storage.schema.Schema;
import io.strata.storage.schema.SchemaValidation;
import io.strata.storage.schema.TableSchema;
import io.strata.storage.testutil.DirListing;
import io.strata.storage.util.CloseableIterator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Spill files are deleted when their run is merged or dropped and when writing fails; never kept until exit. */
class SpillFileTest {
    @TempDir
    Path dir;

    private static final TableSchema SCHEMA = SchemaValidation.firstSchema(
            "t",
            Schema.newBuilder()
                    .column("k", "BIGINT")
                    .column("v", "BIGINT")
                    .primaryKey("k")
                    .build(),
            0);

    private WriteBuffer buffer() {
        RecordComparator cmp = new RecordComparator(SCHEMA, -1);
        return new WriteBuffer(
                cmp, KeySorter.of(SCHEMA, -1, cmp), MergeEngines.of("t", SCHEMA).functionFactory(), dir.toFile());
    }

    private static void addKeys(WriteBuffer b, long from, long to) {
        for (long k = from; k < to; k++) {
            b.add(new KeyValue(k, RowKind.INSERT, new Object[] {k, k}));
        }
    }

    @Test
    void drainingAndClosingDeletesTheSpillFiles() throws Exception {
        WriteBuffer b = buffer();
        addKeys(b, 0, 100);
        b.spill();
        addKeys(b, 100, 200);
        b.spill();
        addKeys(b, 200, 250);
        assertThat(DirListing.of(dir)).as("two spill files").hasSize(2);
        long n = 0;
        try (CloseableIterator<KeyValue> it = b.drain()) {
            while (it.hasNext()) {
                it.next();
                n++;
            }
        }
        assertThat(n).isEqualTo(250);
        assertThat(DirListing.of(dir)).as("spill files deleted on close").isEmpty();
    }

    @Test
    void discardingDeletesTheSpillFiles() throws Exception {
        WriteBuffer b = buffer();
        addKeys(b, 0, 10);
        b.spill();
        assertThat(DirListing.of(dir)).hasSize(1);
        b.discard();
        assertThat(DirListing.of(dir)).isEmpty();
    }

    @Test
    void aFailedWriteLeavesNoFile() {
        Iterator<KeyValue> failing = new Iterator<>() {
            private int i;

            @Override
            public boolean hasNext() {
                return true;
            }

            @Override
            public KeyValue next() {
                if (i == 1000) {
                    throw new IllegalStateException("input failed");
                }
                return new KeyValue(i, RowKind.INSERT, new Object[] {(long) i++, 0L});
            }
        };
        assertThatThrownBy(() -> SpillFile.write(dir.toFile(), failing)).hasMessage("input failed");
        assertThat(DirListing.of(dir)).isEmpty();
    }

    @Test
    void deletingTwiceIsHarmless() throws Exception {
        SpillFile f = SpillFile.write(
                dir.toFile(),
                List.of(new KeyValue(0, RowKind.INSERT, new Object[] {1L, 1L})).iterator());
        f.delete();
        f.delete();
        assertThat(DirListing.of(dir)).isEmpty();
    }

    @Test
    void theFirstSpillRemovesTheLeftoversOfADeadProcess() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        Path leftover = Files.createDirectories(dir.resolve("strata-" + p.pid() + "-1"));
        Files.writeString(leftover.resolve("strata-spill-1.bin"), "x");
        WriteBuffer b = buffer();
        addKeys(b, 0, 10);
        b.spill();
        assertThat(leftover).doesNotExist();
        assertThat(DirListing.of(dir)).hasSize(1);
        b.discard();
    }
}
