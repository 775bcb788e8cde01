package io.strata.storage.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.GenericRow;
import io.strata.storage.snapshot.SnapshotNotFoundException;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Expiration (two at once) and orphan cleanup racing a writer, a compactor and readers: no read of
 * the latest snapshot fails except by being told its snapshot expired, no file a retained snapshot
 * needs is lost, and when everything has stopped the files on disk are exactly those referenced.
 */
class MaintenanceConcurrencyTest {
    @TempDir
    Path dir;

    private static final Map<String, String> AGGRESSIVE =
            Map.of("snapshot.num-retained.min", "3", "snapshot.time-retained", "0 s", "snapshot.expire.limit", "4");

    @Test
    void expirationsAndOrphanCleanupRaceAWriterACompactorAndReaders() throws Exception {
        FileStoreTable t = Catalog.open(dir.resolve("wh").toString())
                .createTable(
                        "db",
                        "t",
                        TestTables.modelSchema(
                                true,
                                2,
                                Map.of(
                                        "write-only", "true",
                                        "changelog-producer", "lookup",
                                        "manifest.merge-min-count", "3")));
        TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
        AtomicBoolean writing = new AtomicBoolean(true);
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        AtomicInteger expiredReads = new AtomicInteger();
        AtomicInteger expirations = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();

        threads.add(new Thread(
                () -> {
                    Random rnd = new Random(61);
                    try (TableWrite w = t.newWrite("w");
                            TableCommit c = t.newCommit("w")) {
                        for (int i = 1; i <= 40; i++) {
                            for (int r = 0; r < 40; r++) {
                                GenericRow row = TableModel.randomRow(rnd, 50);
                                model.apply(row);
                                w.write(row);
                            }
                            c.commit(i, w.prepareCommit());
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    } finally {
                        writing.set(false);
                    }
                },
                "writer"));
        threads.add(new Thread(
                () -> {
                    FileStoreTable compacting = t.copyWithOptions(Map.of("write-only", "false"));
                    long id = 0;
                    while (writing.get()) {
                        try {
                            compacting
                                    .newCompactor()
                                    .compact(
                                            id % 2 == 0 ? CompactStrategy.MINOR : CompactStrategy.FULL,
                                            "compactor",
                                            ++id);
                        } catch (Throwable e) {
                            failures.add(e);
                            return;
                        }
                    }
                },
                "compactor"));
        for (int e = 0; e < 2; e++) {
            threads.add(new Thread(
                    () -> {
                        while (writing.get()) {
                            try {
                                t.copyWithOptions(AGGRESSIVE)
                                        .newSnapshotExpiration()
                                        .expire();
                                expirations.incrementAndGet();
                            } catch (SnapshotNotFoundException concurrent) {
                                // the other expiration removed a snapshot this one planned from: it failed closed
                            } catch (Throwable x) {
                                failures.add(x);
                                return;
                            }
                        }
                    },
                    "expiration-" + e));
        }
        threads.add(new Thread(
                () -> {
                    while (writing.get()) {
                        try {
                            OrphanCleanResult r =
                                    t.newOrphanFilesClean(Duration.ofHours(1)).clean();
                            if (!r.deleted().isEmpty()) {
                                failures.add(new AssertionError("orphan cleanup deleted young files " + r.deleted()));
                            }
                        } catch (Throwable x) {
                            failures.add(x);
                            return;
                        }
                    }
                },
                "orphan-clean"));
        threads.add(new Thread(
                () -> {
                    while (writing.get()) {
                        try {
                            TestTables.scan(t);
                        } catch (SnapshotNotFoundException expired) {
                            assertThat(expired).hasMessageContaining("has expired");
                            expiredReads.incrementAndGet();
                        } catch (Throwable x) {
                            failures.add(x);
                            return;
                        }
                    }
                },
                "reader"));

        threads.forEach(Thread::start);
        for (Thread th : threads) {
            th.join(120_000);
            assertThat(th.isAlive()).as("%s finished", th.getName()).isFalse();
        }

        failures.forEach(Throwable::printStackTrace); // the threads' stacks, for a failure below
        assertThat(failures).as("failures of the racing threads").isEmpty();
        assertThat(expirations.get()).as("expirations ran").isPositive();
        t.copyWithOptions(AGGRESSIVE).newSnapshotExpiration().expire();
        assertThat(TableModel.toContents(TestTables.scan(t))).isEqualTo(model.contents());
        long earliest = t.snapshotManager().earliestId().getAsLong();
        for (long id = earliest; id <= t.snapshotManager().latestId().getAsLong(); id++) {
            assertThat(TestTables.scan(t.newReadBuilder().withSnapshot(id)))
                    .as("snapshot %d", id)
                    .isNotNull();
        }
        assertFilesOnDiskAreReferenced(t);
    }

    private static void assertFilesOnDiskAreReferenced(FileStoreTable t) {
        // a compaction that conflicted or an expiration that failed closed may leave unreferenced files
        // for orphan cleanup; nothing referenced may be missing
        assertThat(TableFiles.onDisk(t)).as("every referenced file is on disk").containsAll(TableFiles.referenced(t));
    }
}
