package io.strata.storage.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.commit.CommitMessage;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.GenericRow;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.fs.DelegatingFileIO;
import io.strata.storage.fs.FileIO;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.ManualClock;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TestTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Orphan cleanup deletes exactly the unreferenced old files, and none of the files the peers'
 * cleanups have lost: files a commit names between listing and deleting (paimon #3074), files of
 * commits in flight (a threshold of now, paimon #4779; uncommitted files, amoro #877), whole
 * directories after an empty listing (paimon #7920), and anything reached through a symbolic link
 * or outside the table.
 */
class OrphanFilesCleanTest {
    @TempDir
    Path dir;

    /** Two days from now: every file written by the test is older than the default threshold. */
    private final ManualClock later = new ManualClock(Instant.now().plus(Duration.ofDays(2)));

    private final TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
    private final Random rnd = new Random(17);
    private long identifier;

    /** The test FileIOs delegate to a local one, so the table commits under a lock (they offer no atomic primitive). */
    private FileStoreTable create(Catalog catalog) {
        return catalog.createTable(
                "db",
                "t",
                TestTables.modelSchema(
                        true,
                        2,
                        Map.of(
                                "write-only",
                                "true",
                                "changelog-producer",
                                "lookup",
                                "commit.lock.class",
                                "io.strata.storage.fs.CommitLockTest$JvmLock")));
    }

    private void append(FileStoreTable t) {
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            for (int r = 0; r < 60; r++) {
                GenericRow row = TableModel.randomRow(rnd, 40);
                model.apply(row);
                w.write(row);
            }
            c.commit(++identifier, w.prepareCommit());
        }
    }

    /** Appends, a compaction with changelog, more appends, an expiration: a table with history and no orphan. */
    private FileStoreTable history(Catalog catalog) {
        FileStoreTable t = create(catalog);
        for (int i = 0; i < 4; i++) {
            append(t);
        }
        t.copyWithOptions(Map.of("write-only", "false")).newCompactor().compact(CompactStrategy.FULL, "c", 1);
        append(t);
        t.copyWithOptions(Map.of("snapshot.num-retained.min", "3", "snapshot.time-retained", "0 s"))
                .newSnapshotExpiration()
                .expire();
        return t;
    }

    private static Path local(FileStoreTable t) {
        return Path.of(t.paths().root().toUri());
    }

    private static Set<Path> filesUnder(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
                    .collect(Collectors.toSet());
        }
    }

    private void assertReadsTheModel(FileStoreTable t) {
        assertThat(TableModel.toContents(TestTables.scan(t))).isEqualTo(model.contents());
        long earliest = t.snapshotManager().earliestId().getAsLong();
        for (long id = earliest; id <= t.snapshotManager().latestId().getAsLong(); id++) {
            assertThat(TestTables.scan(t.newReadBuilder().withSnapshot(id)))
                    .as("snapshot %d reads", id)
                    .isNotNull();
        }
    }

    @Test
    void deletesExactlyTheUnreferencedOldFilesOfEveryKind() throws Exception {
        FileStoreTable t = history(Catalog.open(dir.resolve("wh").toString()).withClock(later));
        Path root = local(t);
        Set<Path> before = filesUnder(root);
        // orphans of every kind: a writer's files it never committed, a manifest and a manifest list of a
        // commit that failed, temporaries of crashed writes in a bucket, manifest and snapshot directory
        List<CommitMessage> uncommitted;
        try (TableWrite w = t.newWrite("lost")) {
            for (int r = 0; r < 30; r++) {
                w.write(TableModel.randomRow(rnd, 40));
            }
            uncommitted = w.prepareCommit();
        }
        Set<Path> orphans = new HashSet<>();
        for (CommitMessage m : uncommitted) {
            for (DataFileMeta f : m.appendFiles()) {
                orphans.add(Path.of(t.paths()
                        .dataFile(partitionPath(m), m.bucket(), f.fileName())
                        .toUri()));
            }
        }
        Path manifestDir = root.resolve("manifest");
        Path someManifest;
        try (Stream<Path> s = Files.list(manifestDir)) {
            someManifest = s.filter(p -> p.getFileName().toString().startsWith("manifest-")
                            && !p.getFileName().toString().startsWith("manifest-list-"))
                    .findFirst()
                    .orElseThrow();
        }
        orphans.add(Files.copy(someManifest, manifestDir.resolve("manifest-00000000-dead-0.parquet")));
        orphans.add(Files.writeString(manifestDir.resolve("manifest-list-00000000-dead-0.json"), "{}"));
        orphans.add(Files.writeString(manifestDir.resolve(".manifest-list-x.json.1234.tmp"), "partial"));
        orphans.add(Files.writeString(root.resolve("snapshot").resolve(".snapshot-99.1234.tmp"), "partial"));
        Path bucketDir = orphans.iterator().next().getParent();
        orphans.add(Files.writeString(bucketDir.resolve(".data-x.parquet.1234.tmp"), "partial"));
        // not the table's to judge: left alone
        Path notes = Files.writeString(root.resolve("NOTES.txt"), "an operator's notes");
        Path journalLike = Files.writeString(root.resolve("snapshot").resolve("expiring-1-2.json"), "{}");

        OrphanCleanResult dry = t.newOrphanFilesClean(Duration.ofDays(1)).dryRun();
        assertThat(dry.orphans())
                .extracting(f -> Path.of(new org.apache.hadoop.fs.Path(f.path()).toUri()))
                .containsExactlyInAnyOrderElementsOf(orphans);
        assertThat(dry.deleted()).isEmpty();
        for (Path p : orphans) {
            assertThat(p).as("a dry run deletes nothing").exists();
        }
        assertThat(dry.counts().get(TableFile.Kind.TEMPORARY)).isEqualTo(3);
        assertThat(dry.counts().get(TableFile.Kind.MANIFEST)).isEqualTo(1);
        assertThat(dry.counts().get(TableFile.Kind.MANIFEST_LIST)).isEqualTo(1);

        OrphanCleanResult r = t.newOrphanFilesClean(Duration.ofDays(1)).clean();

        assertThat(r.deleted()).hasSameSizeAs(orphans);
        Set<Path> expected = new HashSet<>(before);
        expected.add(notes);
        expected.add(journalLike);
        assertThat(filesUnder(root)).isEqualTo(expected);
        assertReadsTheModel(t);
        assertThat(t.newOrphanFilesClean(Duration.ofDays(1)).clean().deleted())
                .as("idempotent")
                .isEmpty();
    }

    private static String partitionPath(CommitMessage m) {
        return "p=" + m.partition()[0];
    }

    @Test
    @DisplayName("paimon #4779, amoro #877: files younger than the threshold (a writer's uncommitted files) stay,"
            + " and a threshold of now or under an hour is refused")
    void filesYoungerThanTheThresholdStayAndThresholdsUnderAnHourAreRefused() throws Exception {
        FileStoreTable t = history(Catalog.open(dir.resolve("young").toString()));
        try (TableWrite w = t.newWrite("in-flight")) {
            w.write(TableModel.randomRow(rnd, 40));
            w.prepareCommit(); // written, not committed yet: a commit in flight
        }
        Set<Path> before = filesUnder(local(t));
        OrphanCleanResult r = t.newOrphanFilesClean(Duration.ofDays(1)).clean();
        assertThat(r.deleted()).isEmpty();
        assertThat(r.youngSkipped()).isEqualTo(r.scanned());
        assertThat(filesUnder(local(t))).isEqualTo(before);

        assertThatThrownBy(() -> t.newOrphanFilesClean(Duration.ZERO))
                .hasMessageContaining("db.t")
                .hasMessageContaining("1 hour");
        assertThatThrownBy(() -> t.newOrphanFilesClean(Duration.ofMinutes(59))).hasMessageContaining("1 hour");
        assertThatThrownBy(() -> OrphanFilesClean.olderThanAllowingRecent(t.context(), Duration.ofMinutes(-1)))
                .hasMessageContaining("in the future");
    }

    /** A commit that lands after the candidates were listed, while the referenced set is read, keeps its files. */
    @Test
    @DisplayName("paimon #3074: a commit between listing the candidates and deleting keeps its files")
    void aCommitBetweenListingAndDeletingKeepsItsFiles() throws Exception {
        String wh = dir.resolve("race").toString();
        AtomicBoolean armed = new AtomicBoolean();
        List<List<CommitMessage>> pending = new ArrayList<>();
        FileStoreTable[] handle = new FileStoreTable[1];
        FileIO racing = new DelegatingFileIO(wh) {
            @Override
            public byte[] readFully(org.apache.hadoop.fs.Path path) throws IOException {
                // the first manifest list the cleanup reads: a writer commits the files it listed as candidates
                if (path.getName().startsWith("manifest-list-") && armed.getAndSet(false)) {
                    try (TableCommit c = handle[0].newCommit("late")) {
                        c.commit(1, pending.get(0));
                    }
                }
                return super.readFully(path);
            }
        };
        FileStoreTable t = history(Catalog.open(wh, racing).withClock(later));
        handle[0] = t;
        try (TableWrite w = t.newWrite("late")) {
            for (int r = 0; r < 30; r++) {
                GenericRow row = TableModel.randomRow(rnd, 40);
                model.apply(row);
                w.write(row);
            }
            pending.add(w.prepareCommit());
        }
        armed.set(true);

        OrphanCleanResult r = t.newOrphanFilesClean(Duration.ofDays(1)).clean();

        assertThat(armed.get()).as("the commit ran during the cleanup").isFalse();
        assertThat(r.deleted())
                .as("the late commit's files are referenced by the time they would go")
                .isEmpty();
        assertReadsTheModel(Catalog.open(wh).getTable("db.t"));
    }

    /**
     * As above, and the late commit's snapshot expires before the second pass reads it (a short
     * retention, another process expiring): its files are live only through the latest snapshot,
     * in no later delta. The cleanup reads the whole referenced set again instead of failing on the
     * missing snapshot or losing them.
     */
    @Test
    void aCommitThatExpiresBeforeTheSecondPassKeepsItsFiles() throws Exception {
        String wh = dir.resolve("race-expired").toString();
        AtomicBoolean armed = new AtomicBoolean();
        List<List<CommitMessage>> pending = new ArrayList<>();
        FileStoreTable[] handle = new FileStoreTable[1];
        FileIO racing = new DelegatingFileIO(wh) {
            @Override
            public byte[] readFully(org.apache.hadoop.fs.Path path) throws IOException {
                if (path.getName().startsWith("manifest-list-") && armed.getAndSet(false)) {
                    try (TableCommit c = handle[0].newCommit("late")) {
                        c.commit(1, pending.get(0));
                    }
                    append(handle[0]);
                    later.advance(Duration.ofSeconds(1));
                    handle[0]
                            .copyWithOptions(Map.of("snapshot.num-retained.min", "1", "snapshot.time-retained", "0 s"))
                            .newSnapshotExpiration()
                            .expire();
                }
                return super.readFully(path);
            }
        };
        FileStoreTable t = history(Catalog.open(wh, racing).withClock(later));
        handle[0] = t;
        try (TableWrite w = t.newWrite("late")) {
            for (int r = 0; r < 30; r++) {
                GenericRow row = TableModel.randomRow(rnd, 40);
                model.apply(row);
                w.write(row);
            }
            pending.add(w.prepareCommit());
        }
        long lateSnapshot = t.snapshotManager().latestId().getAsLong() + 1;
        armed.set(true);

        OrphanCleanResult r = t.newOrphanFilesClean(Duration.ofDays(1)).clean();

        assertThat(armed.get())
                .as("the commit and the expiration ran during the cleanup")
                .isFalse();
        assertThat(t.snapshotManager().earliestId().getAsLong())
                .as("the late commit's snapshot expired")
                .isGreaterThan(lateSnapshot);
        Set<String> live = new HashSet<>(new ReachableFiles(t.context()).referencedByRetainedSnapshots());
        assertThat(r.deleted()).noneMatch(f -> live.contains(new org.apache.hadoop.fs.Path(f.path()).getName()));
        assertReadsTheModel(Catalog.open(wh).getTable("db.t"));
    }

    /**
     * The table's first commit lands while the cleanup reads the referenced set: the snapshot
     * probe found none, the hint check finds the new hint. The cleanup looks again instead of
     * refusing, and keeps the commit's files.
     */
    @Test
    void aFirstCommitDuringTheCleanupIsSeenNotRefused() throws Exception {
        String wh = dir.resolve("first-commit").toString();
        AtomicBoolean armed = new AtomicBoolean();
        List<List<CommitMessage>> pending = new ArrayList<>();
        FileStoreTable[] handle = new FileStoreTable[1];
        FileIO racing = new DelegatingFileIO(wh) {
            @Override
            public boolean exists(org.apache.hadoop.fs.Path path) throws IOException {
                if (path.getName().equals("LATEST") && armed.getAndSet(false)) {
                    try (TableCommit c = handle[0].newCommit("first")) {
                        c.commit(1, pending.get(0));
                    }
                }
                return super.exists(path);
            }
        };
        FileStoreTable t = create(Catalog.open(wh, racing).withClock(later));
        handle[0] = t;
        try (TableWrite w = t.newWrite("first")) {
            for (int r = 0; r < 30; r++) {
                GenericRow row = TableModel.randomRow(rnd, 40);
                model.apply(row);
                w.write(row);
            }
            pending.add(w.prepareCommit());
        }
        armed.set(true);

        OrphanCleanResult r = t.newOrphanFilesClean(Duration.ofDays(1)).clean();

        assertThat(armed.get()).as("the first commit ran during the cleanup").isFalse();
        assertThat(r.deleted()).isEmpty();
        assertReadsTheModel(Catalog.open(wh).getTable("db.t"));
    }

    /** A listing that comes back empty (a flaky store) deletes nothing, and never a directory. */
    @Test
    @DisplayName("paimon #7920: a transient empty listing deletes nothing, never a directory")
    void anEmptyListingDeletesNothing() throws Exception {
        String wh = dir.resolve("empty").toString();
        FileIO flaky = new DelegatingFileIO(wh) {
            @Override
            public List<FileEntry> list(org.apache.hadoop.fs.Path d) throws IOException {
                return d.getName().startsWith("bucket-") ? List.of() : super.list(d);
            }
        };
        FileStoreTable t = history(Catalog.open(wh, flaky).withClock(later));
        Set<Path> before = filesUnder(local(t));
        OrphanCleanResult r = t.newOrphanFilesClean(Duration.ofDays(1)).clean();
        assertThat(r.deleted()).isEmpty();
        assertThat(filesUnder(local(t))).isEqualTo(before);
        assertReadsTheModel(Catalog.open(wh).getTable("db.t"));
    }

    /**
     * The snapshot directory lists empty and the snapshots cannot be probed (a flaky store): the
     * table looks as if it never committed, and every file as an orphan. The hints and manifests
     * say otherwise, so the cleanup fails naming the table, and deletes nothing.
     */
    @Test
    void snapshotsThatVanishFromAListingFailTheCleanupInsteadOfOrphaningEveryFile() throws Exception {
        String wh = dir.resolve("vanished").toString();
        AtomicBoolean flaky = new AtomicBoolean();
        FileIO io = new DelegatingFileIO(wh) {
            @Override
            public List<FileEntry> list(org.apache.hadoop.fs.Path d) throws IOException {
                return flaky.get() && d.getName().equals("snapshot") ? List.of() : super.list(d);
            }

            @Override
            public boolean exists(org.apache.hadoop.fs.Path p) throws IOException {
                return !(flaky.get() && p.getName().startsWith("snapshot-")) && super.exists(p);
            }
        };
        FileStoreTable t = history(Catalog.open(wh, io).withClock(later));
        Set<Path> before = filesUnder(local(t));
        flaky.set(true);
        assertThatThrownBy(() -> t.newOrphanFilesClean(Duration.ofDays(1)).clean())
                .hasMessageContaining("table db.t: no snapshot was found")
                .hasMessageContaining("LATEST")
                .hasMessageContaining("refusing to treat the table's files as unreferenced");
        assertThat(filesUnder(local(t))).isEqualTo(before);
        flaky.set(false);
        assertReadsTheModel(Catalog.open(wh).getTable("db.t"));
    }

    @Test
    void symbolicLinksAreRefusedAndNothingOutsideTheTableIsTouched() throws Exception {
        FileStoreTable t = history(Catalog.open(dir.resolve("links").toString()).withClock(later));
        Path root = local(t);
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Path precious = Files.writeString(outside.resolve("data-precious.parquet"), "not the table's");
        Path bucketDir;
        try (Stream<Path> s = Files.walk(root)) {
            bucketDir = s.filter(p -> p.getFileName().toString().startsWith("bucket-"))
                    .findFirst()
                    .orElseThrow();
        }
        Path fileLink = Files.createSymbolicLink(bucketDir.resolve("data-link.parquet"), precious);
        Path dirLink = Files.createSymbolicLink(root.resolve("p=9"), outside);

        OrphanCleanResult r = t.newOrphanFilesClean(Duration.ofDays(1)).clean();

        assertThat(r.deleted()).isEmpty();
        assertThat(r.refused()).anyMatch(s -> s.contains("data-link.parquet") && s.contains("symbolic link"));
        assertThat(r.refused()).anyMatch(s -> s.contains("p=9") && s.contains("symbolic link"));
        assertThat(precious).exists();
        assertThat(Files.isSymbolicLink(fileLink)).isTrue();
        assertThat(Files.isSymbolicLink(dirLink)).isTrue();

        // a table directory that is itself a link
        Path linkedWarehouse = Files.createDirectories(dir.resolve("linked-wh").resolve("db.db"));
        Files.createSymbolicLink(linkedWarehouse.resolve("t"), root);
        FileStoreTable viaLink = Catalog.open(dir.resolve("linked-wh").toString())
                .withClock(later)
                .getTable("db.t");
        assertThatThrownBy(() -> viaLink.newOrphanFilesClean(Duration.ofDays(1)).clean())
                .hasMessageContaining("symbolic link");
    }

    @Test
    void pathsOutsideTheTableDirectoryAreNotInside() {
        org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path("hdfs://nn1:8020/wh/db.db/t");
        assertThat(OrphanFilesClean.isInside(new org.apache.hadoop.fs.Path(root, "bucket-0/f"), root))
                .isTrue();
        assertThat(OrphanFilesClean.isInside(
                        new org.apache.hadoop.fs.Path("hdfs://nn2:8020/wh/db.db/t/bucket-0/f"), root))
                .as("another authority")
                .isFalse();
        assertThat(OrphanFilesClean.isInside(
                        new org.apache.hadoop.fs.Path("s3a://nn1:8020/wh/db.db/t/bucket-0/f"), root))
                .as("another scheme")
                .isFalse();
        assertThat(OrphanFilesClean.isInside(new org.apache.hadoop.fs.Path("hdfs://nn1:8020/wh/db.db/t2/f"), root))
                .as("a sibling whose name starts like the table's")
                .isFalse();
        assertThat(OrphanFilesClean.isInside(
                        new org.apache.hadoop.fs.Path("hdfs://nn1:8020/wh/db.db/t/bucket-0/../../u/f"), root))
                .as("normalised out of the table")
                .isFalse();
        org.apache.hadoop.fs.Path local = new org.apache.hadoop.fs.Path("file:/wh/db.db/t");
        assertThat(OrphanFilesClean.isInside(new org.apache.hadoop.fs.Path("file:/wh/db.db/t/bucket-0/f"), local))
                .isTrue();
        assertThat(OrphanFilesClean.isInside(
                        new org.apache.hadoop.fs.Path("file://otherhost/wh/db.db/t/bucket-0/f"), local))
                .as("an authority where the table directory has none")
                .isFalse();
        assertThat(OrphanFilesClean.isInside(root, root))
                .as("the table directory itself")
                .isFalse();
    }
}
