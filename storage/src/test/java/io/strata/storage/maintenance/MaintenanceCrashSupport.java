package io.strata.storage.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.GenericRow;
import io.strata.storage.fs.ScheduledFailureFileIO;
import io.strata.storage.fs.ScheduledFailureFileIO.Op;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.ManualClock;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the crash tests share ({@link MaintenanceCrashTest}, {@link RollbackCrashTest}): crashes at every step of expiration, rollback and orphan cleanup: for each kind of file-system
 * call, the Nth call fails, for every N from 1 until the operation completes without reaching its
 * Nth call. After each failure every retained snapshot and every tag reads what the model says,
 * and a rerun (through a healthy FileIO) completes the work: the files on disk end equal to the
 * files referenced, once orphan cleanup has taken what the operation leaves to it.
 */
abstract class MaintenanceCrashSupport {
    @TempDir
    Path dir;

    /** Ahead of the file system's clock: every file is older than orphan cleanup's threshold. */
    final ManualClock clock = new ManualClock(Instant.now().plus(Duration.ofDays(3)));

    static final Map<String, String> RETAIN_3 =
            Map.of("snapshot.num-retained.min", "3", "snapshot.time-retained", "0 s", "snapshot.expire.limit", "100");

    /**
     * The kinds of call failed at every position. Reads fail at every position too in the soak
     * profile ({@code -Dstrata.test.iterations} above 1): a failed read stops a run before it
     * deletes anything, and the calls are many.
     */
    private static final Op[] OPS = TestTables.iterations() > 1
            ? new Op[] {Op.DELETE, Op.PUBLISH, Op.CREATE, Op.LIST, Op.EXISTS, Op.READ}
            : new Op[] {Op.DELETE, Op.PUBLISH, Op.CREATE, Op.LIST, Op.EXISTS};

    /** What each snapshot and each tag of the template read when it was made. */
    final Map<Long, Map<List<Object>, List<Object>>> contentsAt = new HashMap<>();

    final Map<String, Long> tagged = new HashMap<>();

    /** Six snapshots: appends, a compaction with changelog (snapshot 4), manifest merges, and a tag on snapshot 2. */
    Path template(String name, boolean withOrphans) throws Exception {
        Path wh = dir.resolve(name);
        FileStoreTable t = Catalog.open(wh.toString())
                .withClock(clock)
                .createTable(
                        "db",
                        "t",
                        TestTables.modelSchema(
                                false,
                                2,
                                Map.of(
                                        "write-only", "true",
                                        "changelog-producer", "lookup",
                                        "manifest.merge-min-count", "3",
                                        "commit.lock.class", "io.strata.storage.fs.CommitLockTest$JvmLock")));
        TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
        Random rnd = new Random(name.hashCode());
        long identifier = 0;
        for (int i = 0; i < 5; i++) {
            try (TableWrite w = t.newWrite("w");
                    TableCommit c = t.newCommit("w")) {
                for (int r = 0; r < 30; r++) {
                    GenericRow row = TableModel.randomRow(rnd, 30);
                    model.apply(row);
                    w.write(row);
                }
                c.commit(++identifier, w.prepareCommit());
            }
            contentsAt.put(t.snapshotManager().latestId().getAsLong(), new HashMap<>(model.contents()));
            if (i % 3 == 2) {
                t.copyWithOptions(Map.of("write-only", "false"))
                        .newCompactor()
                        .compact(CompactStrategy.FULL, "c", ++identifier);
                contentsAt.put(t.snapshotManager().latestId().getAsLong(), new HashMap<>(model.contents()));
            }
            if (i == 1) {
                t.tags().create("early", Optional.empty(), Optional.empty());
                tagged.put("early", t.snapshotManager().latestId().getAsLong());
            }
        }
        clock.advance(Duration.ofMinutes(1));
        if (withOrphans) {
            // a writer's files it never committed, and a temporary of a crashed write
            try (TableWrite w = t.newWrite("lost")) {
                for (int r = 0; r < 20; r++) {
                    w.write(TableModel.randomRow(rnd, 30));
                }
                w.prepareCommit();
            }
            Files.writeString(Path.of(t.paths().root().toUri()).resolve("manifest/.manifest-x.1.tmp"), "partial");
        }
        return wh;
    }

    private Path copy(Path template, String name) throws Exception {
        return TestTables.copyTree(template, dir.resolve(name));
    }

    private void assertReadsTheModel(FileStoreTable t, String what) {
        long earliest = t.snapshotManager().earliestId().getAsLong();
        for (long id = earliest; id <= t.snapshotManager().latestId().getAsLong(); id++) {
            assertThat(TableModel.toContents(TestTables.scan(t.newReadBuilder().withSnapshot(id))))
                    .as("%s: snapshot %d", what, id)
                    .isEqualTo(contentsAt.get(id));
        }
        for (var tag : t.tags().list()) {
            assertThat(TableModel.toContents(TestTables.scan(t.newReadBuilder().withTag(tag.name()))))
                    .as("%s: tag %s", what, tag.name())
                    .isEqualTo(contentsAt.get(tagged.get(tag.name())));
        }
    }

    private static void assertFilesOnDiskAreReferenced(FileStoreTable t, String what) {
        assertThat(TableFiles.onDisk(t))
                .as("%s: files on disk = files referenced", what)
                .isEqualTo(TableFiles.referenced(t));
    }

    /**
     * Fails each call of each kind in turn and checks the table after the failure and after a rerun.
     *
     * @param operation the maintenance operation, run on the failing table and again as the rerun
     * @param done checks that the rerun completed the work (beyond the table reading the model)
     * @return the number of runs that met an injected failure
     */
    int crashAtEveryCall(Path template, Consumer<FileStoreTable> operation, Consumer<FileStoreTable> done)
            throws Exception {
        int crashed = 0;
        for (Op op : OPS) {
            for (int n = 1; ; n++) {
                assertThat(n).as("%s: the operation ends within 2000 calls", op).isLessThan(2000);
                String what = template.getFileName() + ", " + op + " call " + n + " fails";
                Path wh = copy(template, template.getFileName() + "-" + op + "-" + n);
                ScheduledFailureFileIO io = new ScheduledFailureFileIO(wh.toString());
                FileStoreTable t =
                        Catalog.open(wh.toString(), io).withClock(clock).getTable("db.t");
                io.failNth(op, n, 0);
                RuntimeException failure = null;
                try {
                    operation.accept(t);
                } catch (RuntimeException e) {
                    failure = e;
                }
                if (io.injected() == 0) {
                    assertThat(failure).as(what + ": a run that met no failure").isNull();
                    break;
                }
                if (failure != null) {
                    assertThat(failure).as(what).hasStackTraceContaining("injected");
                    crashed++;
                }
                FileStoreTable healthy =
                        Catalog.open(wh.toString()).withClock(clock).getTable("db.t");
                assertReadsTheModel(healthy, what + ", after the crash");
                operation.accept(healthy);
                done.accept(healthy);
                healthy.newOrphanFilesClean(Duration.ofDays(1)).clean();
                // every file a retained snapshot or tag references is still there: they all read
                assertFilesOnDiskAreReferenced(healthy, what + ", after the rerun and orphan cleanup");
            }
        }
        return crashed;
    }
}
