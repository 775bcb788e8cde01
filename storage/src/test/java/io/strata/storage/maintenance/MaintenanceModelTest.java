package io.strata.storage.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.CommitMessage;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import io.strata.storage.format.DataFileNames;
import io.strata.storage.schema.Schema;
import io.strata.storage.snapshot.ConsumerManager;
import io.strata.storage.snapshot.Tag;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.ManualClock;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TestTables;
import io.strata.storage.util.CloseableIterator;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every maintenance operation interleaved at random with writes and compactions, against a model
 * (fixed seeds, printed on failure): after every step each retained snapshot and each tag reads
 * what it read when it was made, a consumer reads exactly the changes committed after its position,
 * and after an orphan cleanup the files on disk are exactly those referenced and those of the
 * registered writer in flight (every file is older than the threshold: the clock runs ahead).
 */
class MaintenanceModelTest {
    @TempDir
    Path dir;

    /** Days the rows fall into, counted back from the clock's start: the oldest ones expire. */
    private static final int[] DAYS_BACK = {0, 3, 6};

    private final class Run {
        final long seed;
        final Random rnd;
        /** Ahead of the file system's clock, so that orphan cleanup sees every file as old. */
        final ManualClock clock = new ManualClock(Instant.now().plus(Duration.ofDays(3)));

        final FileStoreTable t;
        final Map<List<Object>, List<Object>> current = new HashMap<>();
        final Map<Long, Map<List<Object>, List<Object>>> contentsAt = new HashMap<>();
        final Map<Long, List<GenericRow>> changesAt = new HashMap<>();
        final Map<String, Map<List<Object>, List<Object>>> tagContents = new HashMap<>();
        long identifier;
        int tagNumber;
        /** The model's position of consumer "c": the next snapshot it reads; null before its first read. */
        Long consumerNext;
        /**
         * A writer whose prepared files wait for their commit across steps, on keys no other writer
         * writes (two writers of one key would order their versions by sequence numbers each drew
         * on its own); null when none is open.
         */
        TableWrite inFlight;

        List<GenericRow> inFlightRows;
        List<CommitMessage> inFlightMessages;
        Set<String> inFlightFiles = new HashSet<>();
        long inFlightIdentifier;

        Run(long seed) {
            this.seed = seed;
            this.rnd = new Random(seed);
            this.t = Catalog.open(dir.resolve("seed-" + seed).toString())
                    .withClock(clock)
                    .createTable(
                            "db",
                            "t",
                            Schema.newBuilder()
                                    .column("dt", "DATE NOT NULL")
                                    .column("id", "BIGINT NOT NULL")
                                    .column("v", "STRING")
                                    .primaryKey("dt", "id")
                                    .partitionKeys("dt")
                                    .option("bucket", "2")
                                    .option("write-only", "true")
                                    .option("changelog-producer", "input")
                                    .option("manifest.merge-min-count", "3")
                                    .option("partition.expiration-time", "4d")
                                    .build());
        }

        long latest() {
            return t.snapshotManager().latestId().orElse(0);
        }

        void record() {
            contentsAt.put(latest(), new HashMap<>(current));
        }

        void append() {
            List<GenericRow> rows = randomRows(0);
            try (TableWrite w = t.newWrite("w");
                    TableCommit c = t.newCommit("w")) {
                rows.forEach(w::write);
                c.commit(++identifier, w.prepareCommit());
            }
            applyCommitted(rows);
        }

        /** Starts a writer in flight, or commits or abandons (closes) the open one. */
        void inFlight() {
            if (inFlight == null) {
                inFlightRows = randomRows(100);
                inFlight = t.newWrite("in-flight");
                inFlightRows.forEach(inFlight::write);
                inFlightMessages = inFlight.prepareCommit();
                inFlightFiles = new HashSet<>();
                for (CommitMessage m : inFlightMessages) {
                    m.appendFiles().forEach(f -> inFlightFiles.add(f.fileName()));
                    m.changelogFiles().forEach(f -> inFlightFiles.add(f.fileName()));
                }
                String token = inFlight.inFlightWriter().token();
                assertThat(inFlightFiles).allMatch(n -> token.equals(DataFileNames.uuidOf(n)));
                return;
            }
            if (rnd.nextBoolean()) {
                try (TableCommit c = t.newCommit("in-flight")) {
                    c.commit(++inFlightIdentifier, inFlightMessages);
                }
                applyCommitted(inFlightRows);
            }
            inFlight.close(); // abandoned: its files are orphans now
            inFlight = null;
            inFlightFiles = new HashSet<>();
        }

        /** Time passes; the writer in flight renews its heartbeat meanwhile (its renewal thread runs on real time). */
        void advanceClock() {
            clock.advance(Duration.ofMinutes(rnd.nextInt(24 * 60)));
            if (inFlight != null) {
                inFlight.inFlightWriter().renew();
            }
        }

        /** Rows on keys {@code idBase} to {@code idBase + 24}. */
        List<GenericRow> randomRows(int idBase) {
            List<GenericRow> rows = new ArrayList<>();
            int today =
                    (int) LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC).toEpochDay();
            for (int r = 0; r < 15 + rnd.nextInt(30); r++) {
                int dt = today - DAYS_BACK[rnd.nextInt(DAYS_BACK.length)];
                long id = idBase + rnd.nextInt(25);
                GenericRow row = rnd.nextInt(5) == 0
                        ? new GenericRow(RowKind.DELETE, dt, id, null)
                        : GenericRow.insert(dt, id, "v" + rnd.nextInt(100));
                rows.add(row);
            }
            return rows;
        }

        /** The model after a commit of {@code rows}. */
        void applyCommitted(List<GenericRow> rows) {
            Map<List<Object>, GenericRow> lastPerKey = new HashMap<>();
            for (GenericRow row : rows) {
                lastPerKey.put(List.of(row.get(0), row.get(1)), row);
            }
            for (Map.Entry<List<Object>, GenericRow> e : lastPerKey.entrySet()) {
                if (e.getValue().kind() == RowKind.DELETE) {
                    current.remove(e.getKey());
                } else {
                    current.put(
                            e.getKey(),
                            List.of(
                                    e.getKey().get(0),
                                    e.getKey().get(1),
                                    e.getValue().get(2)));
                }
            }
            record();
            changesAt.put(latest(), rows);
        }

        void compact() {
            if (latest() == 0) {
                return;
            }
            long before = latest();
            t.copyWithOptions(Map.of("write-only", "false"))
                    .newCompactor()
                    .compact(
                            rnd.nextBoolean() ? CompactStrategy.FULL : CompactStrategy.MINOR,
                            "compactor",
                            ++identifier);
            if (latest() != before) {
                record();
            }
        }

        void expire() {
            Map<String, String> o = new HashMap<>(Map.of(
                    "snapshot.num-retained.min", String.valueOf(1 + rnd.nextInt(3)),
                    "snapshot.time-retained", rnd.nextInt(60) + " min",
                    "snapshot.expire.limit", String.valueOf(1 + rnd.nextInt(8))));
            t.copyWithOptions(o).newSnapshotExpiration().expire();
        }

        void tag() {
            long earliest = t.snapshotManager().earliestId().orElse(0);
            if (earliest == 0) {
                return;
            }
            long id = earliest + rnd.nextInt((int) (latest() - earliest + 1));
            String name = "tag-" + (++tagNumber);
            t.tags().create(name, Optional.of(id), Optional.empty());
            tagContents.put(name, contentsAt.get(id));
        }

        void deleteTag() {
            List<Tag> tags = t.tags().list();
            if (!tags.isEmpty()) {
                String name = tags.get(rnd.nextInt(tags.size())).name();
                t.tags().delete(name);
                tagContents.remove(name);
            }
        }

        void consume() {
            if (latest() == 0) {
                return;
            }
            assertThat(t.context().consumerManager().get("c").map(ConsumerManager.Consumer::nextSnapshot))
                    .as("seed %d: the recorded position", seed)
                    .isEqualTo(Optional.ofNullable(consumerNext));
            long from = consumerNext != null
                    ? consumerNext
                    : t.snapshotManager().earliestId().getAsLong();
            List<GenericRow> expected = new ArrayList<>();
            for (long id = from; id <= latest(); id++) {
                expected.addAll(changesAt.getOrDefault(id, List.of()));
            }
            List<GenericRow> got = new ArrayList<>();
            try (CloseableIterator<GenericRow> it = t.newIncrementalRead().readAs("c", latest())) {
                while (it.hasNext()) {
                    got.add(it.next());
                }
            }
            assertThat(sorted(got))
                    .as("seed %d: consumer from snapshot %d", seed, from)
                    .isEqualTo(sorted(expected));
            consumerNext = latest() + 1;
        }

        void rollback() {
            long earliest = t.snapshotManager().earliestId().orElse(0);
            if (earliest == 0 || latest() == earliest) {
                return;
            }
            long target = earliest + rnd.nextInt((int) (latest() - earliest));
            for (Tag tag : t.tags().list()) {
                if (tag.snapshot().id() > target) {
                    t.tags().delete(tag.name());
                    tagContents.remove(tag.name());
                }
            }
            long last = latest();
            t.newRollback().toSnapshot(target);
            for (long id = target + 1; id <= last; id++) {
                contentsAt.remove(id);
                changesAt.remove(id);
            }
            current.clear();
            current.putAll(contentsAt.get(target));
            if (consumerNext != null && consumerNext > target + 1) {
                consumerNext = target + 1; // it read changes that are gone; it reads the new ones
            }
        }

        void expirePartitions() {
            if (latest() == 0) {
                return;
            }
            long before = latest();
            PartitionExpiration.Result r = t.newPartitionExpiration().expire();
            if (latest() != before) {
                long cutoff = clock.millis() - Duration.ofDays(4).toMillis();
                current.keySet()
                        .removeIf(k -> LocalDate.ofEpochDay((Integer) k.get(0))
                                        .atStartOfDay()
                                        .toInstant(ZoneOffset.UTC)
                                        .toEpochMilli()
                                < cutoff);
                assertThat(r.expired()).isNotEmpty();
                record();
            }
        }

        void cleanOrphans() throws Exception {
            if (latest() == 0) {
                return;
            }
            t.newOrphanFilesClean(Duration.ofDays(1)).clean();
            assertFilesOnDiskAreReferenced(this);
        }

        void check(String what) {
            if (latest() == 0) {
                return;
            }
            assertThat(TableModel.toContents(TestTables.scan(t)))
                    .as("seed %d, %s: latest", seed, what)
                    .isEqualTo(current);
            long earliest = t.snapshotManager().earliestId().getAsLong();
            if (consumerNext != null) {
                assertThat(earliest)
                        .as("seed %d, %s: the consumer's next snapshot is kept", seed, what)
                        .isLessThanOrEqualTo(consumerNext);
            }
            for (long id = earliest; id <= latest(); id++) {
                assertThat(TableModel.toContents(
                                TestTables.scan(t.newReadBuilder().withSnapshot(id))))
                        .as("seed %d, %s: snapshot %d", seed, what, id)
                        .isEqualTo(contentsAt.get(id));
            }
            for (Map.Entry<String, Map<List<Object>, List<Object>>> tag : tagContents.entrySet()) {
                assertThat(TableModel.toContents(
                                TestTables.scan(t.newReadBuilder().withTag(tag.getKey()))))
                        .as("seed %d, %s: tag %s", seed, what, tag.getKey())
                        .isEqualTo(tag.getValue());
            }
        }
    }

    private static List<String> sorted(List<GenericRow> rows) {
        return rows.stream().map(GenericRow::toString).sorted().toList();
    }

    private static void assertFilesOnDiskAreReferenced(Run run) {
        Set<String> expected = new HashSet<>(TableFiles.referenced(run.t));
        assertThat(run.inFlightFiles).noneMatch(expected::contains);
        expected.addAll(run.inFlightFiles);
        assertThat(TableFiles.onDisk(run.t))
                .as("seed %d: files on disk after orphan cleanup = files referenced + the in-flight writer's", run.seed)
                .isEqualTo(expected);
        assertThat(run.t.context().writerRegistrations().list())
                .extracting(r -> r.token())
                .as("seed %d: the registrations", run.seed)
                .isEqualTo(
                        run.inFlight == null
                                ? List.of()
                                : List.of(run.inFlight.inFlightWriter().token()));
    }

    @Test
    void everyOperationInterleavedKeepsEveryRetainedSnapshotTagAndConsumerExact() throws Exception {
        Map<String, Integer> ran = new TreeMap<>(Comparator.naturalOrder());
        for (long seed = 1; seed <= 3L * TestTables.iterations(); seed++) {
            Run run = new Run(seed);
            for (int step = 0; step < 45; step++) {
                int op = run.rnd.nextInt(100);
                String name;
                if (op < 35) {
                    name = "append";
                    run.append();
                } else if (op < 47) {
                    name = "compact";
                    run.compact();
                } else if (op < 57) {
                    name = "expire";
                    run.expire();
                } else if (op < 64) {
                    name = "tag";
                    run.tag();
                } else if (op < 68) {
                    name = "delete tag";
                    run.deleteTag();
                } else if (op < 75) {
                    name = "consume";
                    run.consume();
                } else if (op < 80) {
                    name = "rollback";
                    run.rollback();
                } else if (op < 84) {
                    name = "expire partitions";
                    run.expirePartitions();
                } else if (op < 90) {
                    name = "orphan clean";
                    run.cleanOrphans();
                } else if (op < 95) {
                    name = "write in flight, commit or abandon";
                    run.inFlight();
                } else {
                    name = "advance the clock";
                    run.advanceClock();
                }
                ran.merge(name, 1, Integer::sum);
                run.check("step " + step + " (" + name + ")");
            }
            if (run.inFlight != null) {
                run.inFlight.close();
            }
        }
        assertThat(ran).as("every operation ran").hasSize(11);
    }
}
