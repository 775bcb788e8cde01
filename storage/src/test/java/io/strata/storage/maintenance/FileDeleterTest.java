package io.strata.storage.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.fs.DelegatingFileIO;
import io.strata.storage.fs.FileIO;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.testutil.TestTables;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The maintenance deleter: kinds in order even on many threads, at most the configured rate, and failures named. */
class FileDeleterTest {
    @TempDir
    Path dir;

    private final List<String> deletedInOrder = new CopyOnWriteArrayList<>();

    private FileStoreTable table(Map<String, String> options) {
        String wh = dir.resolve("wh").toString();
        FileIO recording = new DelegatingFileIO(wh) {
            @Override
            public boolean delete(org.apache.hadoop.fs.Path path) throws IOException {
                deletedInOrder.add(path.getName());
                return super.delete(path);
            }
        };
        return Catalog.open(wh, recording)
                .createTable(
                        "db",
                        "t",
                        TestTables.modelSchema(
                                false, 1, Map.of("commit.lock.class", "io.strata.storage.fs.CommitLockTest$JvmLock")))
                .copyWithOptions(options);
    }

    private List<TableFile> files(FileStoreTable t, TableFile.Kind kind, String prefix, int n) throws IOException {
        Path root = Path.of(t.paths().root().toUri()).resolve("bucket-0");
        Files.createDirectories(root);
        List<TableFile> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Path p = Files.writeString(root.resolve(prefix + "-" + i), "x");
            out.add(new TableFile(kind, p.toUri().toString(), 1));
        }
        return out;
    }

    @Test
    void everyFileOfAKindGoesBeforeTheFirstOfTheNextOnManyThreads() throws Exception {
        FileStoreTable t = table(Map.of("maintenance.delete-threads", "4"));
        List<TableFile> all = new ArrayList<>(files(t, TableFile.Kind.DATA, "data", 450));
        all.addAll(files(t, TableFile.Kind.MANIFEST, "manifest", 250));
        all.addAll(files(t, TableFile.Kind.MANIFEST_LIST, "list", 120));
        List<TableFile> deleted = new ArrayList<>();
        deletedInOrder.clear(); // creating the table deleted a temporary

        new FileDeleter(t.context()).delete(all, deleted);

        assertThat(deleted).containsExactlyInAnyOrderElementsOf(all);
        assertThat(deletedInOrder).hasSize(all.size());
        int lastData = -1;
        int firstManifest = Integer.MAX_VALUE;
        int lastManifest = -1;
        int firstList = Integer.MAX_VALUE;
        for (int i = 0; i < deletedInOrder.size(); i++) {
            String n = deletedInOrder.get(i);
            if (n.startsWith("data")) {
                lastData = i;
            } else if (n.startsWith("manifest")) {
                firstManifest = Math.min(firstManifest, i);
                lastManifest = i;
            } else {
                firstList = Math.min(firstList, i);
            }
        }
        assertThat(lastData).isLessThan(firstManifest);
        assertThat(lastManifest).isLessThan(firstList);
        for (TableFile f : all) {
            assertThat(Path.of(URI.create(f.path()))).doesNotExist();
        }
    }

    @Test
    void theRateLimitSpreadsDeletesOverTime() throws Exception {
        FileStoreTable t = table(Map.of("maintenance.delete-threads", "2", "maintenance.deletes-per-second", "500"));
        List<TableFile> all = files(t, TableFile.Kind.DATA, "data", 400);
        long start = System.nanoTime();
        new FileDeleter(t.context()).delete(all, new ArrayList<>());
        // 400 files at 500 per second: the last page may start only after 300 / 500 s
        assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(600);
    }

    @Test
    void badSettingsAreRefusedNamingTheOptions() {
        // refused when the run starts with it, before anything is deleted
        assertThatThrownBy(() -> table(Map.of("maintenance.delete-threads", "0")))
                .hasMessageContaining("maintenance.delete-threads")
                .hasMessageContaining("db.t");
    }
}
