package io.strata.storage.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.commit.CommitMessage;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.BucketPlan;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.BucketId;
import io.strata.storage.data.GenericRow;
import io.strata.storage.fs.DelegatingFileIO;
import io.strata.storage.manifest.ManifestFileMeta;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.ManualClock;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TestTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The peers' maintenance bugs of issue 15, one test each, named by issue number. The orphan
 * cleanup ones that need a racing FileIO are in {@link OrphanFilesCleanTest} (paimon #3074, #7920,
 * #4779); the compaction job's streaming run (paimon #9533) in compaction-job's {@code
 * MaintenanceWithStreamingJobTest}.
 */
class PeerRegressionTest {
    @TempDir
    Path dir;

    /** Ahead of the file system's clock: every file is older than orphan cleanup's threshold. */
    private final ManualClock clock = new ManualClock(Instant.now().plus(Duration.ofDays(3)));

    private final TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
    private final Map<Long, Map<List<Object>, List<Object>>> contentsAt = new HashMap<>();
    private final Random rnd = new Random(47);
    private long identifier;

    private static final Map<String, String> RETAIN_2 =
            Map.of("snapshot.num-retained.min", "2", "snapshot.time-retained", "0 s", "snapshot.expire.limit", "100");

    private FileStoreTable create(Catalog catalog) {
        return catalog.withClock(clock)
                .createTable(
                        "db",
                        "t",
                        TestTables.modelSchema(
                                true,
                                2,
                                Map.of(
                                        "write-only", "true",
                                        "changelog-producer", "lookup",
                                        "manifest.merge-min-count", "3",
                                        "commit.lock.class", "io.strata.storage.fs.CommitLockTest$JvmLock")));
    }

    private void append(FileStoreTable t, int rows) {
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            for (int r = 0; r < rows; r++) {
                GenericRow row = TableModel.randomRow(rnd, 40);
                model.apply(row);
                w.write(row);
            }
            c.commit(++identifier, w.prepareCommit());
        }
        contentsAt.put(t.snapshotManager().latestId().getAsLong(), new HashMap<>(model.contents()));
    }

    private void compact(FileStoreTable t) {
        t.copyWithOptions(Map.of("write-only", "false"))
                .newCompactor()
                .compact(CompactStrategy.FULL, "c", ++identifier);
        contentsAt.put(t.snapshotManager().latestId().getAsLong(), new HashMap<>(model.contents()));
    }

    /** Appends with a compaction every third commit: old snapshots have files to free. */
    private void history(FileStoreTable t, int commits) {
        for (int i = 0; i < commits; i++) {
            append(t, 40);
            if (i % 3 == 2) {
                compact(t);
            }
        }
        clock.advance(Duration.ofMinutes(1)); // every snapshot is older than a retention of 0 s
    }

    private Map<List<Object>, List<Object>> read(FileStoreTable t, long snapshot) {
        return TableModel.toContents(TestTables.scan(t.newReadBuilder().withSnapshot(snapshot)));
    }

    private static Path local(FileStoreTable t) {
        return Path.of(t.paths().root().toUri());
    }

    @Test
    @DisplayName("paimon #6978, #3479: a reader that starts from the earliest snapshot during an expiration never"
            + " meets a missing file")
    void paimon6978And3479ReaderFromTheEarliestSnapshotDuringExpiration() {
        String wh = dir.resolve("earliest").toString();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        AtomicInteger reads = new AtomicInteger();
        FileStoreTable[] reader = new FileStoreTable[1];
        DelegatingFileIO readingBeforeEachDelete = new DelegatingFileIO(wh) {
            @Override
            public boolean delete(org.apache.hadoop.fs.Path path) throws IOException {
                if (reader[0] != null) {
                    // what a reader starting now from the earliest snapshot reads, before this file goes
                    try {
                        long earliest = reader[0].snapshotManager().earliestId().getAsLong();
                        assertThat(read(reader[0], earliest))
                                .as("snapshot %d, read before deleting %s", earliest, path)
                                .isEqualTo(contentsAt.get(earliest));
                        reads.incrementAndGet();
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }
                return super.delete(path);
            }
        };
        FileStoreTable t = create(Catalog.open(wh, readingBeforeEachDelete));
        history(t, 12);
        reader[0] = Catalog.open(wh).withClock(clock).getTable("db.t");

        ExpireResult r = t.copyWithOptions(RETAIN_2).newSnapshotExpiration().expire();
        reader[0] = null;

        failures.forEach(Throwable::printStackTrace);
        assertThat(failures)
                .as("reads from the earliest snapshot during the expiration")
                .isEmpty();
        assertThat(r.deletedCounts().get(TableFile.Kind.DATA))
                .as("data files went")
                .isPositive();
        assertThat(reads.get())
                .as("a read before every delete")
                .isGreaterThan(r.deleted().size());
    }

    @Test
    @DisplayName("paimon #6479, #5229, iceberg #10982: a tag that cannot be read fails expiration and orphan"
            + " cleanup before they delete anything, naming the tag")
    void paimon6479And5229AndIceberg10982UnreadableTagFailsClosed() throws Exception {
        FileStoreTable t = create(Catalog.open(dir.resolve("tag").toString()));
        history(t, 6);
        t.tags().create("pinned", Optional.of(2L), Optional.empty());
        history(t, 3);
        Path tagFile = local(t).resolve("tag").resolve("tag-pinned");
        byte[] good = Files.readAllBytes(tagFile);
        Files.writeString(tagFile, "{\"version\": 1, \"snapshot\": {trunc");
        Set<String> before = TableFiles.onDisk(t);
        long earliest = t.snapshotManager().earliestId().getAsLong();

        assertThatThrownBy(() ->
                        t.copyWithOptions(RETAIN_2).newSnapshotExpiration().expire())
                .hasStackTraceContaining("tag-pinned");
        assertThatThrownBy(() -> t.newOrphanFilesClean(Duration.ofDays(1)).clean())
                .hasStackTraceContaining("tag-pinned");

        assertThat(TableFiles.onDisk(t)).as("nothing deleted").isEqualTo(before);
        assertThat(t.snapshotManager().earliestId().getAsLong()).isEqualTo(earliest);
        Files.write(tagFile, good);
        assertThat(TableModel.toContents(TestTables.scan(t.newReadBuilder().withTag("pinned"))))
                .isEqualTo(contentsAt.get(2L));
    }

    @Test
    @DisplayName("paimon #6479, #5229, iceberg #10982: a retained snapshot or manifest that cannot be read fails"
            + " expiration and orphan cleanup before they delete anything, naming the file")
    void paimon6479And5229AndIceberg10982UnreadableSnapshotOrManifestFailsClosed() throws Exception {
        FileStoreTable t = create(Catalog.open(dir.resolve("snapshot").toString()));
        history(t, 9);
        long latest = t.snapshotManager().latestId().getAsLong();
        Set<String> before = TableFiles.onDisk(t);

        // a retained snapshot in the middle that does not parse
        long middle = latest - 3;
        Path snapshotFile = local(t).resolve("snapshot").resolve("snapshot-" + middle);
        byte[] good = Files.readAllBytes(snapshotFile);
        Files.writeString(snapshotFile, "{\"version\":");
        assertThatThrownBy(() -> t.newOrphanFilesClean(Duration.ofDays(1)).clean())
                .hasStackTraceContaining("snapshot-" + middle);
        assertThatThrownBy(() -> t.copyWithOptions(
                                Map.of("snapshot.num-retained.min", "1", "snapshot.time-retained", "0 s"))
                        .newSnapshotExpiration()
                        .expire())
                .hasStackTraceContaining("snapshot-" + middle);
        assertThat(TableFiles.onDisk(t)).as("nothing deleted").isEqualTo(before);
        Files.write(snapshotFile, good);

        // a manifest of the changes the second snapshot made, which expiration reads to plan, truncated
        Snapshot second =
                t.snapshotManager().snapshot(t.snapshotManager().earliestId().getAsLong() + 1);
        ManifestFileMeta manifest =
                t.manifests().manifestList().read(second.deltaManifestList()).get(0);
        Path manifestFile = local(t).resolve("manifest").resolve(manifest.fileName());
        byte[] goodManifest = Files.readAllBytes(manifestFile);
        Files.write(manifestFile, java.util.Arrays.copyOf(goodManifest, goodManifest.length / 2));
        assertThatThrownBy(() -> t.newOrphanFilesClean(Duration.ofDays(1)).clean())
                .hasStackTraceContaining(manifest.fileName());
        assertThatThrownBy(() ->
                        t.copyWithOptions(RETAIN_2).newSnapshotExpiration().expire())
                .hasStackTraceContaining(manifest.fileName());
        assertThat(TableFiles.onDisk(t)).as("nothing deleted").isEqualTo(before);
        Files.write(manifestFile, goodManifest);
        for (long id = t.snapshotManager().earliestId().getAsLong(); id <= latest; id++) {
            assertThat(read(t, id)).as("snapshot %d", id).isEqualTo(contentsAt.get(id));
        }
    }

    @Test
    @DisplayName("paimon #6479, #5229: a retained snapshot file that is missing (not expired) fails orphan cleanup"
            + " instead of losing the files it added")
    void paimon6479And5229MissingRetainedSnapshotFailsClosed() throws Exception {
        FileStoreTable t = create(Catalog.open(dir.resolve("hole").toString()));
        history(t, 6);
        append(t, 10);
        long latest = t.snapshotManager().latestId().getAsLong();
        long hole = latest - 1; // a full compaction: the files it added are live in the latest snapshot
        Files.delete(local(t).resolve("snapshot").resolve("snapshot-" + hole));
        Set<String> before = TableFiles.onDisk(t);

        assertThatThrownBy(() -> t.newOrphanFilesClean(Duration.ofDays(1)).clean())
                .hasStackTraceContaining("snapshot " + hole);

        assertThat(TableFiles.onDisk(t)).as("nothing deleted").isEqualTo(before);
        assertThat(TableModel.toContents(TestTables.scan(t))).isEqualTo(model.contents());
    }

    @Test
    @DisplayName("amoro #877, #2925: the data files, manifests and manifest list of a commit in flight (statistics"
            + " live in manifests) survive an orphan cleanup that runs just before its snapshot is published")
    void amoro877And2925FilesOfACommitInFlightAreNotOrphans() throws Exception {
        String wh = dir.resolve("inflight").toString();
        AtomicBoolean armed = new AtomicBoolean();
        List<OrphanCleanResult> cleanups = new ArrayList<>();
        FileStoreTable[] handle = new FileStoreTable[1];
        DelegatingFileIO cleaningBeforePublish = new DelegatingFileIO(wh) {
            @Override
            public java.io.OutputStream create(org.apache.hadoop.fs.Path path) throws IOException {
                // the snapshot file is written last: data files, manifests and the lists are on disk
                if (path.getParent().getName().equals("snapshot")
                        && path.getName().contains("snapshot-")
                        && armed.getAndSet(false)) {
                    cleanups.add(
                            handle[0].newOrphanFilesClean(Duration.ofHours(1)).clean());
                }
                return super.create(path);
            }
        };
        // the table's clock is the file system's here: the files of the commit are minutes old
        FileStoreTable t = Catalog.open(wh, cleaningBeforePublish)
                .createTable(
                        "db",
                        "t",
                        TestTables.modelSchema(
                                true,
                                2,
                                Map.of(
                                        "write-only", "true",
                                        "commit.lock.class", "io.strata.storage.fs.CommitLockTest$JvmLock")));
        handle[0] = t;
        for (int i = 0; i < 3; i++) {
            try (TableWrite w = t.newWrite("w");
                    TableCommit c = t.newCommit("w")) {
                for (int r = 0; r < 40; r++) {
                    GenericRow row = TableModel.randomRow(rnd, 40);
                    model.apply(row);
                    w.write(row);
                }
                List<CommitMessage> messages = w.prepareCommit();
                armed.set(i == 2);
                c.commit(i + 1, messages);
            }
        }

        assertThat(cleanups).as("the cleanup ran inside the last commit").hasSize(1);
        assertThat(cleanups.get(0).deleted()).isEmpty();
        assertThat(cleanups.get(0).youngSkipped())
                .as("the commit's files were seen, and kept as young")
                .isPositive();
        FileStoreTable fresh = Catalog.open(wh).getTable("db.t");
        assertThat(TableModel.toContents(TestTables.scan(fresh))).isEqualTo(model.contents());
        assertThat(TableFiles.onDisk(fresh)).isEqualTo(TableFiles.referenced(fresh));
    }

    @Test
    @DisplayName("paimon #3223: after hundreds of snapshots piled up, one expiration removes at most"
            + " snapshot.expire.limit (50) of them and says so")
    void paimon3223ARestartAfterManySnapshotsExpiresAtMostTheLimitPerRun() {
        FileStoreTable t = create(Catalog.open(dir.resolve("many").toString()));
        for (int i = 0; i < 70; i++) {
            append(t, 2);
        }
        clock.advance(Duration.ofHours(2));

        ExpireResult first = t.newSnapshotExpiration().expire();

        assertThat(first.plan().snapshotsExpired()).isEqualTo(50);
        assertThat(first.plan().heldBackBy()).isEqualTo(ExpirePlan.HeldBack.LIMIT);
        ExpireResult second = t.newSnapshotExpiration().expire();
        assertThat(second.plan().snapshotsExpired()).as("the default keeps 10").isEqualTo(10);
        assertThat(second.plan().heldBackBy()).isEqualTo(ExpirePlan.HeldBack.MIN_RETAINED);
        for (long id = 61; id <= 70; id++) {
            assertThat(read(t, id)).as("snapshot %d", id).isEqualTo(contentsAt.get(id));
        }
    }

    @Test
    @DisplayName("paimon #9533: a bucket planned from a snapshot that has since expired is planned again from the"
            + " latest snapshot, not stuck")
    void paimon9533ABucketPlannedFromAnExpiredSnapshotIsPlannedFromTheLatest() {
        FileStoreTable t = create(Catalog.open(dir.resolve("planned").toString()));
        for (int i = 0; i < 4; i++) {
            append(t, 40);
        }
        FileStoreTable compacting = t.copyWithOptions(Map.of("write-only", "false"));
        BucketPlan planned = compacting
                .newCompactor()
                .plan(
                        t.snapshotManager().latest().orElseThrow(),
                        io.strata.storage.manifest.EntryFilter.ALL,
                        CompactStrategy.FULL)
                .plans()
                .get(0);
        BucketId bucket = planned.bucket();
        for (int i = 0; i < 4; i++) {
            append(t, 40);
        }
        clock.advance(Duration.ofHours(2));
        t.copyWithOptions(RETAIN_2).newSnapshotExpiration().expire();
        assertThat(t.snapshotManager().exists(planned.snapshotId())).isFalse();

        Optional<BucketPlan> again =
                compacting.newCompactor().planBucket(bucket, planned.snapshotId(), CompactStrategy.FULL);

        assertThat(again).as("a plan from the latest snapshot").isPresent();
        assertThat(again.get().snapshotId())
                .isEqualTo(t.snapshotManager().latestId().getAsLong());
    }
}
