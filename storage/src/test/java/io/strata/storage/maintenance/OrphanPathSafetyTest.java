package io.strata.storage.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.fs.DelegatingFileIO;
import io.strata.storage.fs.FileIO;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.ManualClock;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TestTables;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Orphan cleanup end to end with a listing that returns paths it must not touch: another scheme,
 * another authority, and {@code ..} out of the table onto a real file. Each is refused and
 * reported, nothing is deleted, and the file outside the table stays. (Symbolic links, and a table
 * directory that is one, are in {@link OrphanFilesCleanTest}; the path rule itself in its
 * {@code pathsOutsideTheTableDirectoryAreNotInside}.)
 */
class OrphanPathSafetyTest {
    @TempDir
    Path dir;

    @Test
    void listedPathsOfAnotherSchemeAuthorityOrOutsideTheTableAreRefusedAndReported() throws Exception {
        String wh = dir.resolve("wh").toString();
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Path precious = Files.writeString(outside.resolve("data-precious.parquet"), "not the table's");
        List<FileIO.FileEntry> injected = new ArrayList<>();
        FileIO listingStrangePaths = new DelegatingFileIO(wh) {
            @Override
            public List<FileEntry> list(org.apache.hadoop.fs.Path d) throws IOException {
                List<FileEntry> entries = new ArrayList<>(super.list(d));
                if (d.getName().startsWith("bucket-")) {
                    entries.addAll(injected);
                }
                return entries;
            }
        };
        ManualClock later = new ManualClock(Instant.now().plus(Duration.ofDays(2)));
        FileStoreTable t = Catalog.open(wh, listingStrangePaths)
                .withClock(later)
                .createTable(
                        "db",
                        "t",
                        TestTables.modelSchema(
                                false,
                                1,
                                Map.of(
                                        "write-only", "true",
                                        "commit.lock.class", "io.strata.storage.fs.CommitLockTest$JvmLock")));
        TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
        Random rnd = new Random(3);
        for (int i = 1; i <= 3; i++) {
            try (TableWrite w = t.newWrite("w");
                    TableCommit c = t.newCommit("w")) {
                for (int r = 0; r < 20; r++) {
                    GenericRow row = TableModel.randomRow(rnd, 30);
                    model.apply(row);
                    w.write(row);
                }
                c.commit(i, w.prepareCommit());
            }
        }
        URI root = t.paths().root().toUri();
        String tablePath = root.getPath();
        injected.add(new FileIO.FileEntry(
                new org.apache.hadoop.fs.Path("s3a://bucket" + tablePath + "/bucket-0/data-other-scheme.parquet"),
                10,
                false,
                0));
        injected.add(new FileIO.FileEntry(
                new org.apache.hadoop.fs.Path("file://otherhost" + tablePath + "/bucket-0/data-other-host.parquet"),
                10,
                false,
                0));
        // a listing that climbs out of the table onto a real file
        injected.add(new FileIO.FileEntry(
                new org.apache.hadoop.fs.Path(
                        root.getScheme() + "://" + tablePath + "/bucket-0/../../../../outside/data-precious.parquet"),
                10,
                false,
                0));
        Set<String> before = TableFiles.onDisk(Catalog.open(wh).getTable("db.t"));

        OrphanCleanResult r = t.newOrphanFilesClean(Duration.ofDays(1)).clean();

        assertThat(r.deleted()).isEmpty();
        assertThat(r.refused())
                .anyMatch(s -> s.contains("data-other-scheme.parquet") && s.contains("outside the table"))
                .anyMatch(s -> s.contains("data-other-host.parquet") && s.contains("outside the table"))
                .anyMatch(s -> s.contains("data-precious.parquet") && s.contains("outside the table"));
        assertThat(precious).exists();
        assertThat(TableFiles.onDisk(Catalog.open(wh).getTable("db.t"))).isEqualTo(before);
        assertThat(TableModel.toContents(TestTables.scan(t))).isEqualTo(model.contents());
    }
}
