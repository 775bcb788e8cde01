package io.strata.storage.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.commit.CommitMessage;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactPlan;
import io.strata.storage.compact.CompactResult;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.compact.TableCompactor;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.format.DataFileNames;
import io.strata.storage.fs.DelegatingFileIO;
import io.strata.storage.fs.FileIO;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.snapshot.InFlightWriter;
import io.strata.storage.snapshot.WriterRegistrations;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.ManualClock;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TestTables;
import io.strata.storage.util.CorruptFileException;
import java.io.IOException;
import java.nio.file.Files;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Running writers and compactions register with a heartbeat, and orphan cleanup keeps the files
 * named with a fresh registration's token however old they are: an ingestion writer's files
 * waiting for their commit, a compaction's outputs, a registration that appears while the cleanup
 * runs. A stale heartbeat protects nothing, and a registration that cannot be read stops the
 * cleanup before it deletes anything.
 */
class InFlightWritersTest {
    @TempDir
    Path dir;

    /** Two days ahead of the file system: every file the test writes is older than the 1-day threshold. */
    private final ManualClock later = new ManualClock(Instant.now().plus(Duration.ofDays(2)));

    private final Random rnd = new Random(23);
    private long identifier;

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
                                "input",
                                "commit.lock.class",
                                "io.strata.storage.fs.CommitLockTest$JvmLock")));
    }

    private void commitSome(FileStoreTable t) {
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            for (int r = 0; r < 40; r++) {
                w.write(TableModel.randomRow(rnd, 30));
            }
            c.commit(++identifier, w.prepareCommit());
        }
    }

    private static void writeRows(TableWrite w, Random rnd) {
        for (int r = 0; r < 30; r++) {
            w.write(TableModel.randomRow(rnd, 30));
        }
    }

    /** The names of the files in {@code messages}' appends and input changelog. */
    private static Set<String> namesIn(List<CommitMessage> messages) {
        Set<String> names = new HashSet<>();
        for (CommitMessage m : messages) {
            m.appendFiles().forEach(f -> names.add(f.fileName()));
            m.changelogFiles().forEach(f -> names.add(f.fileName()));
        }
        return names;
    }

    private static Set<String> namesOnDisk(FileStoreTable t) throws IOException {
        try (Stream<Path> s = Files.walk(Path.of(t.paths().root().toUri()))) {
            return s.filter(Files::isRegularFile)
                    .map(p -> p.getFileName().toString())
                    .collect(Collectors.toSet());
        }
    }

    private static Set<String> namesOf(List<TableFile> files) {
        return files.stream()
                .map(f -> new org.apache.hadoop.fs.Path(f.path()).getName())
                .collect(Collectors.toSet());
    }

    private static OrphanCleanResult clean(FileStoreTable t) {
        return t.newOrphanFilesClean(Duration.ofDays(1)).clean();
    }

    @Test
    void aRunningWritersOldFilesStayUntilItsHeartbeatGoesStale() throws Exception {
        FileStoreTable t = create(Catalog.open(dir.resolve("wh").toString()).withClock(later));
        commitSome(t);
        WriterRegistrations registrations = t.context().writerRegistrations();
        TableWrite w = t.newWrite("slow");
        assertThat(registrations.list()).as("no file yet, no registration").isEmpty();
        writeRows(w, rnd);
        Set<String> inFlight = namesIn(w.prepareCommit());
        String token = w.inFlightWriter().token();
        assertThat(inFlight).isNotEmpty().allMatch(n -> token.equals(DataFileNames.uuidOf(n)));
        assertThat(registrations.list()).singleElement().satisfies(r -> {
            assertThat(r.token()).isEqualTo(token);
            assertThat(r.owner()).contains("slow");
            assertThat(r.heartbeatMillis()).isEqualTo(later.millis());
        });

        assertThat(clean(t).deleted())
                .as("two days old, but registered and fresh")
                .isEmpty();
        assertThat(namesOnDisk(t)).containsAll(inFlight);

        // the writer's activity renews the heartbeat (at most every quarter of the 1 h timeout)
        later.advance(Duration.ofMinutes(50));
        writeRows(w, rnd);
        inFlight.addAll(namesIn(w.prepareCommit()));
        assertThat(registrations.list().get(0).heartbeatMillis()).isEqualTo(later.millis());
        later.advance(Duration.ofMinutes(50));
        assertThat(clean(t).deleted())
                .as("100 minutes after the registration, 50 after the last heartbeat")
                .isEmpty();
        assertThat(namesOnDisk(t)).containsAll(inFlight);

        // silent for longer than the timeout (a hung or crashed writer): its files are orphans
        later.advance(Duration.ofMinutes(20));
        OrphanCleanResult stale = clean(t);
        assertThat(namesOf(stale.deleted())).isEqualTo(inFlight);
        assertThat(registrations.list())
                .as("the registration stays until its heartbeat is older than the threshold too")
                .hasSize(1);
        assertReads(t);

        later.advance(Duration.ofDays(1));
        OrphanCleanResult gone = clean(t);
        assertThat(gone.deleted()).singleElement().satisfies(f -> {
            assertThat(f.kind()).isEqualTo(TableFile.Kind.WRITER_REGISTRATION);
            assertThat(f.path()).endsWith("writer/writer-" + token);
        });
        assertThat(gone.counts().get(TableFile.Kind.WRITER_REGISTRATION)).isEqualTo(1);
        assertThat(registrations.list()).isEmpty();
        w.close(); // its registration is gone already: nothing to remove, no failure
        assertReads(t);
    }

    @Test
    void closingAWriterRemovesItsRegistrationAndItsUncommittedFilesBecomeOrphans() throws Exception {
        FileStoreTable t = create(Catalog.open(dir.resolve("close").toString()).withClock(later));
        commitSome(t);
        Set<String> inFlight;
        try (TableWrite w = t.newWrite("closing")) {
            writeRows(w, rnd);
            inFlight = namesIn(w.prepareCommit());
            assertThat(clean(t).deleted()).isEmpty();
        }
        assertThat(t.context().writerRegistrations().list()).isEmpty();
        assertThat(namesOf(clean(t).deleted())).isEqualTo(inFlight);
        assertReads(t);
    }

    /**
     * The registration is absent when the cleanup lists it (on HDFS a heartbeat replaces the file by
     * a delete and a move) and present again before the cleanup deletes: the second read of the
     * registrations, just before deleting, keeps the files.
     */
    @Test
    void aRegistrationAppearingBetweenListingAndDeletingProtectsItsFiles() throws Exception {
        String wh = dir.resolve("race").toString();
        AtomicBoolean armed = new AtomicBoolean();
        List<Runnable> onFirstManifestList = new ArrayList<>();
        FileIO racing = new DelegatingFileIO(wh) {
            @Override
            public byte[] readFully(org.apache.hadoop.fs.Path path) throws IOException {
                // the referenced set is read after the registrations were listed
                if (path.getName().startsWith("manifest-list-") && armed.getAndSet(false)) {
                    onFirstManifestList.forEach(Runnable::run);
                }
                return super.readFully(path);
            }
        };
        FileStoreTable t = create(Catalog.open(wh, racing).withClock(later));
        commitSome(t);
        WriterRegistrations registrations = t.context().writerRegistrations();
        TableWrite w = t.newWrite("returning");
        writeRows(w, rnd);
        Set<String> inFlight = namesIn(w.prepareCommit());
        String token = w.inFlightWriter().token();
        assertThat(registrations.remove(token)).isTrue();
        onFirstManifestList.add(() -> {
            try {
                registrations.write(token, "returning", later.millis(), later.millis());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        armed.set(true);

        OrphanCleanResult r = clean(t);

        assertThat(armed.get())
                .as("the registration came back during the cleanup")
                .isFalse();
        assertThat(r.deleted()).isEmpty();
        assertThat(namesOnDisk(t)).containsAll(inFlight);

        // without the registration the same files go: the test above could have failed
        registrations.remove(token);
        assertThat(namesOf(clean(t).deleted())).isEqualTo(inFlight);
        w.close();
    }

    @Test
    void aRegistrationThatCannotBeParsedFailsClosedNamingItsFile() throws Exception {
        FileStoreTable t =
                create(Catalog.open(dir.resolve("corrupt").toString()).withClock(later));
        commitSome(t);
        try (TableWrite w = t.newWrite("lost")) {
            writeRows(w, rnd);
            w.prepareCommit();
        }
        Path writerDir = Path.of(t.paths().writerDir().toUri());
        Files.createDirectories(writerDir);
        Path bad = Files.writeString(writerDir.resolve("writer-0f8a3c1e-1111-4222-8333-944455556666"), "{\"version\":");
        Set<String> before = namesOnDisk(t);

        assertThatThrownBy(() -> clean(t))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining(bad.getFileName().toString());
        assertThatThrownBy(() -> t.newOrphanFilesClean(Duration.ofDays(1)).dryRun())
                .hasMessageContaining(bad.getFileName().toString());
        assertThat(namesOnDisk(t)).as("nothing deleted").isEqualTo(before);

        Files.writeString(bad, "{\"version\":1,\"token\":\"another\",\"heartbeatMillis\":1}");
        assertThatThrownBy(() -> clean(t))
                .as("a token that is not its file name's")
                .hasMessageContaining(bad.getFileName().toString());
        assertThat(namesOnDisk(t)).isEqualTo(before);
    }

    /** The engine's rewrite path with a job's registration: the outputs stay while the job runs. */
    @Test
    void aCompactionsOutputsStayWhileItRuns() throws Exception {
        FileStoreTable t =
                create(Catalog.open(dir.resolve("compact").toString()).withClock(later));
        for (int i = 0; i < 3; i++) {
            commitSome(t);
        }
        FileStoreTable jobView = t.copyWithOptions(Map.of("write-only", "false"));
        InFlightWriter job = jobView.newInFlightWriter("compaction job j1, subtask 1/1");
        TableCompactor compactor = jobView.withWriter(job).newCompactor();
        Set<String> outputs = new HashSet<>();
        List<CompactPlan> plans = compactor.plan(CompactStrategy.FULL, EntryFilter.ALL);
        assertThat(plans).isNotEmpty();
        for (CompactPlan plan : plans) {
            CompactResult r = compactor.rewrite(plan);
            Set<String> inputs = new HashSet<>();
            r.edit().deletedFiles().forEach(f -> inputs.add(f.fileName()));
            for (DataFileMeta f : r.edit().addedFiles()) {
                if (!inputs.contains(f.fileName())) {
                    outputs.add(f.fileName());
                }
            }
        }
        assertThat(outputs).isNotEmpty().allMatch(n -> job.token().equals(DataFileNames.uuidOf(n)));
        assertThat(t.context().writerRegistrations().list())
                .extracting(r -> r.token())
                .containsExactly(job.token());

        later.advance(Duration.ofMinutes(30));
        job.renew(); // a checkpoint of the job
        later.advance(Duration.ofMinutes(45));
        assertThat(clean(t).deleted()).as("results waiting for their commit").isEmpty();
        assertThat(namesOnDisk(t)).containsAll(outputs);

        job.close(); // the job stops without committing them
        assertThat(t.context().writerRegistrations().list()).isEmpty();
        assertThat(namesOf(clean(t).deleted())).isEqualTo(outputs);
        assertReads(t);
    }

    private static void assertReads(FileStoreTable t) {
        long earliest = t.snapshotManager().earliestId().getAsLong();
        for (long id = earliest; id <= t.snapshotManager().latestId().getAsLong(); id++) {
            assertThat(TestTables.scan(t.newReadBuilder().withSnapshot(id))).isNotNull();
        }
    }
}
