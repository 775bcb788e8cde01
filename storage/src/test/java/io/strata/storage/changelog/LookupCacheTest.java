package io.strata.storage.changelog;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.format.FileSource;
import io.strata.storage.testutil.DirListing;
import io.strata.storage.util.CloseableIterator;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LookupCacheTest {
    @TempDir
    Path dir;

    private static DataFileMeta meta(String name) {
        return new DataFileMeta(
                name, 1, 1, 0, new Object[] {0L}, new Object[] {1L}, 0, 0, 1, 0, List.of(), 0, FileSource.COMPACT);
    }

    /** Keys 0, 2, 4, ... with two versions each (a -D then a +I, as partial-update files hold). */
    private static CloseableIterator<KeyValue> records(int keys, AtomicInteger opens) {
        opens.incrementAndGet();
        List<KeyValue> out = new ArrayList<>();
        long seq = 0;
        for (long k = 0; k < 2L * keys; k += 2) {
            out.add(new KeyValue(seq++, RowKind.DELETE, new Object[] {k, null}));
            out.add(new KeyValue(seq++, RowKind.INSERT, new Object[] {k, "v" + k}));
        }
        return CloseableIterator.wrap(out.iterator(), () -> {});
    }

    @Test
    void findsEveryVersionOfPresentKeysAndNothingForAbsentOnes() throws Exception {
        AtomicInteger opens = new AtomicInteger();
        try (LookupCache cache = new LookupCache(dir.toFile(), Long.MAX_VALUE, new int[] {0})) {
            DataFileMeta f = meta("a");
            for (long k = 0; k < 4000; k++) {
                List<KeyValue> v = cache.get(f, cache.keyOf(new Object[] {k, null}), x -> records(2000, opens));
                if (k % 2 == 0) {
                    assertThat(v).hasSize(2);
                    assertThat(v.get(0).kind()).isEqualTo(RowKind.DELETE);
                    assertThat(v.get(1).row()).containsExactly(k, "v" + k);
                    assertThat(v.get(1).sequence()).isGreaterThan(v.get(0).sequence());
                } else {
                    assertThat(v).as("key %d", k).isEmpty();
                }
            }
            assertThat(opens.get()).as("the data file is read once").isEqualTo(1);
        }
    }

    @Test
    void evictsLeastRecentlyUsedBeyondTheDiskLimitAndCleansUp() throws Exception {
        AtomicInteger opens = new AtomicInteger();
        File parent = dir.resolve("cache").toFile();
        LookupCache cache = new LookupCache(parent, 1, new int[] {0}); // every new file evicts the others
        byte[] key = cache.keyOf(new Object[] {0L, null});
        cache.get(meta("a"), key, x -> records(10, opens));
        cache.get(meta("b"), key, x -> records(10, opens));
        cache.get(meta("a"), key, x -> records(10, opens));
        assertThat(opens.get()).as("a was evicted by b and rebuilt").isEqualTo(3);
        cache.retainOnly(Set.of());
        cache.get(meta("c"), key, x -> records(10, opens));
        cache.close();
        assertThat(DirListing.of(parent.toPath()))
                .as("local lookup files deleted")
                .isEmpty();
    }
}
