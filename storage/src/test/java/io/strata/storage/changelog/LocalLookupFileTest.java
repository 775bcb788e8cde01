package io.strata.storage.changelog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import io.strata.storage.util.CloseableIterator;
import java.io.File;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A lookup file is deleted when closed and when building it fails; never kept until exit. */
class LocalLookupFileTest {
    @TempDir
    Path dir;

    @Test
    void closingDeletesTheFile() throws Exception {
        File f = dir.resolve("a.lookup").toFile();
        LocalLookupFile lookup = LocalLookupFile.build(
                f,
                CloseableIterator.wrap(
                        List.of(new KeyValue(0, RowKind.INSERT, new Object[] {1L, "x"}))
                                .iterator(),
                        () -> {}),
                new int[] {0});
        assertThat(lookup.get(LocalLookupFile.keyBytes(new Object[] {1L}, new int[] {0})))
                .hasSize(1);
        assertThat(f).exists();
        lookup.close();
        assertThat(f).doesNotExist();
    }

    @Test
    void aFailedBuildDeletesTheFileAndClosesTheInput() {
        File f = dir.resolve("b.lookup").toFile();
        boolean[] closed = {false};
        Iterator<KeyValue> failing = new Iterator<>() {
            private long i;

            @Override
            public boolean hasNext() {
                return true;
            }

            @Override
            public KeyValue next() {
                if (i == 5000) {
                    throw new IllegalStateException("data file unreadable");
                }
                return new KeyValue(i, RowKind.INSERT, new Object[] {i++, "v"});
            }
        };
        assertThatThrownBy(() -> LocalLookupFile.build(
                        f, CloseableIterator.wrap(failing, () -> closed[0] = true), new int[] {0}))
                .hasMessage("data file unreadable");
        assertThat(f).doesNotExist();
        assertThat(closed[0]).isTrue();
    }
}
