package io.strata.storage.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import io.strata.storage.schema.Schema;
import io.strata.storage.snapshot.ConsumerManager;
import io.strata.storage.snapshot.Tag;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.ManualClock;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TestTables;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * One randomized run of every maintenance operation interleaved with writes and compactions,
 * against a model: after every step each retained snapshot and each tag reads what it read when
 * it was made, a consumer reads exactly the changes committed after its position, and after an
 * orphan cleanup the files on disk are exactly those referenced. Runs on any warehouse (a local
 * directory, HDFS) and with any extra compactor (the compaction job); the seed is in every
 * assertion's description.
 */
public final class MaintenanceModel {

    /** A compaction that is not the engine's, e.g. a run of the compaction job. */
    @FunctionalInterface
    public interface Compaction {
        /** Compacts {@code table} (any strategy {@code rnd} picks) and returns when the result is committed. */
        void compact(FileStoreTable table, Random rnd) throws Exception;
    }

    /** Days the rows fall into, counted back from the clock's start: the oldest ones expire. */
    private static final int[] DAYS_BACK = {0, 3, 6};

    /** The operations of a step, in the order their share of the steps is drawn. */
    public static final List<String> OPERATIONS = List.of(
            "append",
            "compact",
            "other compaction",
            "expire",
            "tag",
            "delete tag",
            "consume",
            "rollback",
            "expire partitions",
            "orphan clean",
            "advance the clock");

    public final long seed;
    private final Random rnd;
    /** Ahead of the file system's clock, so that orphan cleanup sees every file as old. */
    private final ManualClock clock = new ManualClock(Instant.now().plus(Duration.ofDays(3)));

    private final FileStoreTable t;
    private final Compaction other;
    private final Map<List<Object>, List<Object>> current = new HashMap<>();
    private final Map<Long, Map<List<Object>, List<Object>>> contentsAt = new HashMap<>();
    private final Map<Long, List<GenericRow>> changesAt = new HashMap<>();
    private final Map<String, Map<List<Object>, List<Object>>> tagContents = new HashMap<>();
    private long identifier;
    private int tagNumber;
    /** The model's position of consumer "c": the next snapshot it reads; null before its first read. */
    private Long consumerNext;

    /**
     * Creates table {@code db.<name>} in {@code catalog} (the model's clock is set on it).
     *
     * @param other a second compactor the steps use besides the engine's; null for the engine alone
     */
    public MaintenanceModel(Catalog catalog, String name, long seed, Compaction other) {
        this.seed = seed;
        this.rnd = new Random(seed);
        this.other = other;
        this.t = catalog.withClock(clock)
                .createTable(
                        "db",
                        name,
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

    public FileStoreTable table() {
        return t;
    }

    /**
     * Runs {@code steps} random steps, checking the table against the model after each.
     *
     * @param ran counts the steps per operation (of {@link #OPERATIONS}), for the caller to check coverage
     */
    public void run(int steps, Map<String, Integer> ran) throws Exception {
        for (int step = 0; step < steps; step++) {
            int op = rnd.nextInt(100);
            String name;
            if (op < 35) {
                name = "append";
                append();
            } else if (op < 47) {
                boolean useOther = other != null && rnd.nextBoolean();
                name = useOther ? "other compaction" : "compact";
                compact(useOther);
            } else if (op < 57) {
                name = "expire";
                expire();
            } else if (op < 64) {
                name = "tag";
                tag();
            } else if (op < 68) {
                name = "delete tag";
                deleteTag();
            } else if (op < 75) {
                name = "consume";
                consume();
            } else if (op < 80) {
                name = "rollback";
                rollback();
            } else if (op < 84) {
                name = "expire partitions";
                expirePartitions();
            } else if (op < 90) {
                name = "orphan clean";
                cleanOrphans();
            } else {
                name = "advance the clock";
                clock.advance(Duration.ofMinutes(rnd.nextInt(24 * 60)));
            }
            ran.merge(name, 1, Integer::sum);
            check("step " + step + " (" + name + ")");
        }
    }

    private long latest() {
        return t.snapshotManager().latestId().orElse(0);
    }

    private void record() {
        contentsAt.put(latest(), new HashMap<>(current));
    }

    private void append() {
        List<GenericRow> rows = new ArrayList<>();
        int today = (int) LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC).toEpochDay();
        Map<List<Object>, GenericRow> lastPerKey = new HashMap<>();
        for (int r = 0; r < 15 + rnd.nextInt(30); r++) {
            int dt = today - DAYS_BACK[rnd.nextInt(DAYS_BACK.length)];
            long id = rnd.nextInt(25);
            GenericRow row = rnd.nextInt(5) == 0
                    ? new GenericRow(RowKind.DELETE, dt, id, null)
                    : GenericRow.insert(dt, id, "v" + rnd.nextInt(100));
            rows.add(row);
            lastPerKey.put(List.of(dt, id), row);
        }
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            rows.forEach(w::write);
            c.commit(++identifier, w.prepareCommit());
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

    private void compact(boolean useOther) throws Exception {
        if (latest() == 0) {
            return;
        }
        long before = latest();
        if (useOther) {
            other.compact(t, rnd);
        } else {
            t.copyWithOptions(Map.of("write-only", "false"))
                    .newCompactor()
                    .compact(
                            rnd.nextBoolean() ? CompactStrategy.FULL : CompactStrategy.MINOR,
                            "compactor",
                            ++identifier);
        }
        // a compaction changes no row: every snapshot it committed reads what the table read before
        for (long id = before + 1; id <= latest(); id++) {
            contentsAt.put(id, new HashMap<>(current));
        }
    }

    private void expire() {
        Map<String, String> o = new HashMap<>(Map.of(
                "snapshot.num-retained.min", String.valueOf(1 + rnd.nextInt(3)),
                "snapshot.time-retained", rnd.nextInt(60) + " min",
                "snapshot.expire.limit", String.valueOf(1 + rnd.nextInt(8))));
        t.copyWithOptions(o).newSnapshotExpiration().expire();
    }

    private void tag() {
        long earliest = t.snapshotManager().earliestId().orElse(0);
        if (earliest == 0) {
            return;
        }
        long id = earliest + rnd.nextInt((int) (latest() - earliest + 1));
        String name = "tag-" + (++tagNumber);
        t.tags().create(name, Optional.of(id), Optional.empty());
        tagContents.put(name, contentsAt.get(id));
    }

    private void deleteTag() {
        List<Tag> tags = t.tags().list();
        if (!tags.isEmpty()) {
            String name = tags.get(rnd.nextInt(tags.size())).name();
            t.tags().delete(name);
            tagContents.remove(name);
        }
    }

    private void consume() {
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
        try (var it = t.newIncrementalRead().readAs("c", latest())) {
            while (it.hasNext()) {
                got.add(it.next());
            }
        }
        assertThat(sorted(got))
                .as("seed %d: consumer from snapshot %d", seed, from)
                .isEqualTo(sorted(expected));
        consumerNext = latest() + 1;
    }

    private void rollback() {
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

    private void expirePartitions() {
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

    private void cleanOrphans() {
        if (latest() == 0) {
            return;
        }
        t.newOrphanFilesClean(Duration.ofDays(1)).clean();
        assertThat(TableFiles.onDisk(t))
                .as("seed %d: files on disk after orphan cleanup = files referenced", seed)
                .isEqualTo(TableFiles.referenced(t));
    }

    private void check(String what) {
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
            assertThat(TableModel.toContents(TestTables.scan(t.newReadBuilder().withSnapshot(id))))
                    .as("seed %d, %s: snapshot %d", seed, what, id)
                    .isEqualTo(contentsAt.get(id));
        }
        for (Map.Entry<String, Map<List<Object>, List<Object>>> tag : tagContents.entrySet()) {
            assertThat(TableModel.toContents(TestTables.scan(t.newReadBuilder().withTag(tag.getKey()))))
                    .as("seed %d, %s: tag %s", seed, what, tag.getKey())
                    .isEqualTo(tag.getValue());
        }
    }

    private static List<String> sorted(List<GenericRow> rows) {
        return rows.stream().map(GenericRow::toString).sorted().toList();
    }
}
