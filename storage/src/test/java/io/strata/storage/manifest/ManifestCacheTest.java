package io.strata.storage.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.TestTables;
import io.strata.storage.util.CorruptFileException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The manifest cache keeps decoded files within its entry bound, least recently used out, never
 * keeps a failed read, and a catalog without one (the default) reads every manifest from the file
 * system, so a missing manifest still fails naming it there.
 */
class ManifestCacheTest {
    @TempDir
    java.nio.file.Path dir;

    private static List<Integer> entries(int n) {
        List<Integer> l = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            l.add(i);
        }
        return l;
    }

    @Test
    void aFileIsReadOnceWhileItStaysInTheCache() {
        ManifestCache cache = ManifestCache.ofEntries(10);
        AtomicInteger reads = new AtomicInteger();
        Path p = new Path("file:/w/db.db/t/manifest/manifest-a-0.parquet");
        for (int i = 0; i < 3; i++) {
            assertThat(cache.get(p, () -> {
                        reads.incrementAndGet();
                        return entries(4);
                    }))
                    .containsExactly(0, 1, 2, 3);
        }
        assertThat(reads).hasValue(1);
        assertThat(cache.hits()).isEqualTo(2);
        assertThat(cache.misses()).isEqualTo(1);
        assertThat(cache.entries()).isEqualTo(4);
    }

    @Test
    void theLeastRecentlyUsedFilesGoFirstAndTheBoundHolds() {
        ManifestCache cache = ManifestCache.ofEntries(10);
        Path a = new Path("file:/m/a");
        Path b = new Path("file:/m/b");
        Path c = new Path("file:/m/c");
        cache.get(a, () -> entries(4));
        cache.get(b, () -> entries(4));
        cache.get(a, () -> entries(4)); // a is now the most recently used
        cache.get(c, () -> entries(4)); // 12 > 10: b goes
        assertThat(cache.entries()).isEqualTo(8);
        assertThat(cache.files()).isEqualTo(2);
        AtomicInteger reads = new AtomicInteger();
        cache.get(a, () -> {
            reads.incrementAndGet();
            return entries(4);
        });
        assertThat(reads).as("a stayed").hasValue(0);
        cache.get(b, () -> {
            reads.incrementAndGet();
            return entries(4);
        });
        assertThat(reads).as("b was evicted").hasValue(1);
        assertThat(cache.entries()).isLessThanOrEqualTo(10);
        for (int i = 0; i < 1000; i++) {
            cache.get(new Path("file:/m/x" + i), () -> entries(3));
            assertThat(cache.entries()).isLessThanOrEqualTo(10);
        }
    }

    @Test
    void aFileLargerThanTheBoundIsReturnedButNotKept() {
        ManifestCache cache = ManifestCache.ofEntries(3);
        assertThat(cache.get(new Path("file:/m/big"), () -> entries(4))).hasSize(4);
        assertThat(cache.entries()).isZero();
        assertThat(cache.files()).isZero();
    }

    @Test
    void aFailedReadIsNotKept() {
        ManifestCache cache = ManifestCache.ofEntries(10);
        Path p = new Path("file:/m/broken");
        assertThatThrownBy(() -> cache.get(p, () -> {
                    throw new CorruptFileException(p, "manifest cannot be read");
                }))
                .isInstanceOf(CorruptFileException.class);
        assertThat(cache.get(p, () -> entries(2))).containsExactly(0, 1);
    }

    @Test
    void aBoundOfNoEntryIsRefused() {
        assertThatThrownBy(() -> ManifestCache.ofEntries(0)).hasMessageContaining("at least one entry");
    }

    @Test
    void aCachingCatalogServesManifestsItReadWhileTheDefaultCatalogReadsTheFileSystem() throws Exception {
        FileStoreTable t = TestTables.oneRowTable(dir.toString());
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            w.write(GenericRow.insert(2L, "two"));
            c.commit(2, w.prepareCommit());
        }
        Catalog polling = Catalog.open(dir.toString()).withManifestCache(1_000);
        List<ManifestEntry> first = liveFiles(polling.getTable("db.t"));
        assertThat(first).hasSize(2);

        // the manifests go (as if damaged): the cache still has what they held...
        java.nio.file.Path manifests = dir.resolve("db.db").resolve("t").resolve("manifest");
        try (Stream<java.nio.file.Path> s = Files.list(manifests)) {
            for (java.nio.file.Path p : s.filter(p -> p.getFileName().toString().endsWith(".parquet"))
                    .toList()) {
                Files.delete(p);
            }
        }
        assertThat(liveFiles(polling.getTable("db.t"))).isEqualTo(first);
        // ...and a catalog without a cache notices, naming the manifest
        assertThatThrownBy(() -> liveFiles(Catalog.open(dir.toString()).getTable("db.t")))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("manifest-");
    }

    private static List<ManifestEntry> liveFiles(FileStoreTable t) {
        String base = t.snapshotManager().latest().orElseThrow().baseManifestList();
        return t.manifests().scanner().scan(base, EntryFilter.ALL);
    }
}
