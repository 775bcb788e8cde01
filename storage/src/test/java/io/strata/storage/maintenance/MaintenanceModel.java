package io.strata.storage.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import io.strata.storage.schema.Schema;
import io.strata.storage.snapshot.ConsumerManager;
import io.strata.storage.snapshot.Tag;
import io.strata.storage.snapshot.WriterRegistrations;
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
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * One randomized run of every maintenance operation interleaved with writes, compactions and
 * in-flight writers (files written, registered with a heartbeat, committed later or never), against
 * a model: after every step each retained snapshot and each tag reads what it read when it was
 * made; every retained change reads as committed, change by change, from the start of history
 * (kept changelogs of expired snapshots included), from the consumer's position and from other
 * starts, and a read from before the start fails naming it; an expiration lets go only what
 * changelog retention and the consumer let go; the writer registrations hold the model's
 * heartbeats; and after an orphan cleanup with threshold T the files on disk are exactly those
 * referenced, those younger than T and those of writers whose heartbeat is fresh. Runs on any
 * warehouse (a local directory, HDFS) and with any extra compactor (the compaction job); the seed
 * is in every assertion's description.
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

    /** The operations of a step: what {@link #run} counts per step. */
    public static final List<String> OPERATIONS = List.of(
            "append",
            "compact",
            "other compaction",
            "expire",
            "expire changelog",
            "tag",
            "delete tag",
            "consume",
            "rollback",
            "expire partitions",
            "orphan clean",
            "start in-flight writer",
            "commit in-flight writer",
            "crash in-flight writer",
            "advance the clock");

    /** What the steps did, beyond running: each should happen in a run of several seeds. */
    public static final List<String> EVENTS = List.of(
            "in-flight rows committed",
            "old files of a writer with a fresh heartbeat kept",
            "young unreferenced files kept",
            "threshold at an unreferenced file's age",
            "files of a crashed or stopped writer deleted",
            "stale registration deleted",
            "changelog of expired snapshots kept",
            "kept changelogs expired",
            "history read across expired snapshots",
            "consumer read kept changelogs");

    /**
     * Each kind of step's share of the draws, of 100: a compaction is the other compactor's half of
     * the time when there is one; an in-flight writer step starts, commits or crashes a writer.
     */
    private static final List<Map.Entry<String, Integer>> SHARES = List.of(
            Map.entry("append", 26),
            Map.entry("compact", 10),
            Map.entry("expire", 9),
            Map.entry("expire changelog", 5),
            Map.entry("tag", 5),
            Map.entry("delete tag", 3),
            Map.entry("consume", 8),
            Map.entry("rollback", 2),
            Map.entry("expire partitions", 3),
            Map.entry("orphan clean", 8),
            Map.entry("in-flight writer", 12),
            Map.entry("advance the clock", 9));

    /** The table's changelog retention ({@code changelog.*}): the changes outlive the snapshots. */
    private static final ChangeHistory.Retention CHANGELOG = new ChangeHistory.Retention(4, 12, Duration.ofHours(6));

    private static final Duration HEARTBEAT_TIMEOUT = Duration.ofHours(1);

    public final long seed;
    private final Random rnd;
    /** Draws what the checks read, apart from {@link #rnd}, so that the checks do not change the steps. */
    private final Random pick;
    /** The model's time: of commits, of heartbeats, and of files' ages through {@link #ages}. */
    private final ManualClock clock = new ManualClock(Instant.now().plus(Duration.ofDays(3)));

    private final FileStoreTable t;
    private final Compaction other;
    /** Consumers hold back the changes they have not read, not the snapshots: for two seeds of three. */
    private final boolean consumerChangelogOnly;

    private final Map<List<Object>, List<Object>> current = new HashMap<>();
    private final Map<Long, Map<List<Object>, List<Object>>> contentsAt = new HashMap<>();
    private final ChangeHistory history = new ChangeHistory();
    private final InFlightWriterModel writers = new InFlightWriterModel(clock, HEARTBEAT_TIMEOUT);
    private final FileAges ages;
    private final Map<String, Map<List<Object>, List<Object>>> tagContents = new HashMap<>();
    private long identifier;
    private int tagNumber;
    /** The model's position of consumer "c": the next snapshot it reads; null before its first read. */
    private Long consumerNext;
    /** The seed and step, for the assertions' descriptions. */
    private String where;

    private Map<String, Integer> seen;

    /**
     * Creates table {@code db.<name>} in {@code catalog} (the model's clock is set on it).
     *
     * @param other a second compactor the steps use besides the engine's; null for the engine alone
     */
    public MaintenanceModel(Catalog catalog, String name, long seed, Compaction other) {
        this.seed = seed;
        this.rnd = new Random(seed);
        this.pick = new Random(~seed);
        this.other = other;
        this.consumerChangelogOnly = seed % 3 != 0;
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
                                .option("changelog.num-retained.min", String.valueOf(CHANGELOG.min()))
                                .option("changelog.num-retained.max", String.valueOf(CHANGELOG.max()))
                                .option(
                                        "changelog.time-retained",
                                        CHANGELOG.time().toMinutes() + " min")
                                .option("consumer.changelog-only", String.valueOf(consumerChangelogOnly))
                                .option("orphan-clean.writer-heartbeat-timeout", HEARTBEAT_TIMEOUT.toMinutes() + " min")
                                .build());
        this.ages = new FileAges(t, clock);
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
        run(steps, ran, new HashMap<>());
    }

    /**
     * As {@link #run(int, Map)}, also counting in {@code seen} what the steps did (of {@link #EVENTS}).
     * Writers still open at the end are closed.
     */
    public void run(int steps, Map<String, Integer> ran, Map<String, Integer> seen) throws Exception {
        this.seen = seen;
        try {
            for (int step = 0; step < steps; step++) {
                String name = nextOperation();
                where = "seed " + seed + ", step " + step + " (" + name + ")";
                step(name);
                ran.merge(name, 1, Integer::sum);
                ages.stampNew();
                check();
            }
        } finally {
            writers.closeAll();
        }
    }

    /** The operation (of {@link #OPERATIONS}) of the next step. */
    private String nextOperation() {
        int draw = rnd.nextInt(100);
        String kind = null;
        for (Map.Entry<String, Integer> share : SHARES) {
            draw -= share.getValue();
            if (draw < 0) {
                kind = share.getKey();
                break;
            }
        }
        if (kind.equals("compact") && other != null && rnd.nextBoolean()) {
            return "other compaction";
        }
        if (kind.equals("in-flight writer")) {
            int live = writers.live().size();
            int action = live == 0 ? 0 : rnd.nextInt(3);
            return action == 0 && live < 2
                    ? "start in-flight writer"
                    : action == 1 ? "crash in-flight writer" : "commit in-flight writer";
        }
        return kind;
    }

    private void step(String name) throws Exception {
        switch (name) {
            case "append" -> append();
            case "compact" -> compact(false);
            case "other compaction" -> compact(true);
            case "expire" -> expire();
            case "expire changelog" -> expireChangelog();
            case "tag" -> tag();
            case "delete tag" -> deleteTag();
            case "consume" -> consume();
            case "rollback" -> rollback();
            case "expire partitions" -> expirePartitions();
            case "orphan clean" -> cleanOrphans();
            case "start in-flight writer" -> startInFlight();
            case "commit in-flight writer" -> commitInFlight();
            case "crash in-flight writer" -> crashInFlight();
            case "advance the clock" -> advanceClock();
            default -> throw new IllegalArgumentException(name);
        }
    }

    private void saw(String event) {
        seen.merge(event, 1, Integer::sum);
    }

    private long latest() {
        return t.snapshotManager().latestId().orElse(0);
    }

    private long earliest() {
        return t.snapshotManager().earliestId().orElse(0);
    }

    private int today() {
        return (int) LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC).toEpochDay();
    }

    /** The latest snapshot was committed with {@code changes}: it reads {@link #current}. */
    private void committed(List<GenericRow> changes) {
        long id = latest();
        contentsAt.put(id, new HashMap<>(current));
        history.committed(id, changes, t.snapshotManager().snapshot(id).timeMillis());
    }

    /** Applies {@code rows}, in order, to {@link #current}. */
    private void apply(List<GenericRow> rows) {
        for (GenericRow row : rows) {
            List<Object> key = List.of(row.get(0), row.get(1));
            if (row.kind() == RowKind.DELETE) {
                current.remove(key);
            } else {
                current.put(key, List.of(row.get(0), row.get(1), row.get(2)));
            }
        }
    }

    private void append() {
        List<GenericRow> rows = new ArrayList<>();
        int today = today();
        for (int r = 0; r < 15 + rnd.nextInt(30); r++) {
            int dt = today - DAYS_BACK[rnd.nextInt(DAYS_BACK.length)];
            long id = rnd.nextInt(25);
            GenericRow row = rnd.nextInt(5) == 0
                    ? new GenericRow(RowKind.DELETE, dt, id, null)
                    : GenericRow.insert(dt, id, "v" + rnd.nextInt(100));
            rows.add(row);
        }
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            rows.forEach(w::write);
            c.commit(++identifier, w.prepareCommit());
        }
        apply(rows);
        committed(rows);
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
        // a compaction changes no row and (changelog-producer=input) emits no change
        for (long id = before + 1; id <= latest(); id++) {
            contentsAt.put(id, new HashMap<>(current));
            history.committed(id, List.of(), t.snapshotManager().snapshot(id).timeMillis());
        }
    }

    /** Expires snapshots by random options, keeping their changes by the table's {@link #CHANGELOG}. */
    private void expire() {
        int limit = 1 + rnd.nextInt(8);
        expire(
                Map.of(
                        "snapshot.num-retained.min", String.valueOf(1 + rnd.nextInt(3)),
                        "snapshot.time-retained", rnd.nextInt(60) + " min",
                        "snapshot.expire.limit", String.valueOf(limit)),
                CHANGELOG,
                limit);
    }

    /** Expires kept changelogs by a changelog retention shorter than the table's, keeping every snapshot. */
    private void expireChangelog() {
        int min = 1 + rnd.nextInt(4);
        ChangeHistory.Retention shorter =
                new ChangeHistory.Retention(min, min + rnd.nextInt(10), Duration.ofMinutes(rnd.nextInt(180)));
        int limit = 1 + rnd.nextInt(8);
        expire(
                Map.of(
                        "snapshot.num-retained.min", "1000000",
                        "changelog.num-retained.min", String.valueOf(shorter.min()),
                        "changelog.num-retained.max", String.valueOf(shorter.max()),
                        "changelog.time-retained", shorter.time().toMinutes() + " min",
                        "snapshot.expire.limit", String.valueOf(limit)),
                shorter,
                limit);
    }

    private void expire(Map<String, String> options, ChangeHistory.Retention changelog, int limit) {
        long earliestBefore = earliest();
        ExpireResult r = t.copyWithOptions(options).newSnapshotExpiration().expire();
        if (latest() == 0) {
            return;
        }
        if (!consumerChangelogOnly && consumerNext != null) {
            assertThat(earliest())
                    .as("%s: the consumer holds the snapshots from the one it reads next (%d)", where, consumerNext)
                    .isLessThanOrEqualTo(Math.max(earliestBefore, consumerNext));
        }
        history.expired(
                new ChangeHistory.Expiration(
                        changelog,
                        limit,
                        latest(),
                        clock.millis(),
                        consumerNext == null ? Long.MAX_VALUE : consumerNext,
                        earliestBefore,
                        earliest(),
                        t.newIncrementalRead().historyStart().getAsLong(),
                        r.changelogsExpired()),
                where + " " + options);
        if (r.plan().changelogsKept() > 0) {
            saw("changelog of expired snapshots kept");
        }
        if (r.changelogsExpired() > 0) {
            saw("kept changelogs expired");
        }
    }

    private void tag() {
        long earliest = earliest();
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
                .as("%s: the recorded position", where)
                .isEqualTo(Optional.ofNullable(consumerNext));
        long from = consumerNext != null ? consumerNext : history.start();
        if (from < earliest()) {
            saw("consumer read kept changelogs");
        }
        // up to the latest snapshot or short of it: the consumer may stay behind
        long to = from - 1 + rnd.nextInt((int) (latest() - from + 2));
        ChangeHistory.assertSameChanges(
                t.newIncrementalRead().readAs("c", to),
                history.changes(from - 1, to),
                where + ": consumer from snapshot " + from + " to " + to);
        consumerNext = to + 1;
    }

    private void rollback() {
        long earliest = earliest();
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
        writers.stopLive(); // writers are stopped for a rollback
        t.newRollback().toSnapshot(target);
        for (long id = target + 1; id <= last; id++) {
            contentsAt.remove(id);
        }
        history.rolledBackTo(target);
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
            committed(List.of());
        }
    }

    /**
     * Orphan cleanup with a random threshold T keeps exactly the files referenced, the files younger
     * than T and the files of writers whose heartbeat is fresh, and removes the registrations stale
     * for longer than the timeout and T.
     */
    private void cleanOrphans() {
        if (latest() == 0) {
            return;
        }
        Set<String> before = TableFiles.onDisk(t);
        Set<String> referenced = TableFiles.referenced(t);
        Duration olderThan = threshold(minus(before, referenced));
        Set<String> young = ages.writtenSince(clock.millis() - olderThan.toMillis());
        young.retainAll(before);
        Set<String> registered = writers.protectedFiles();
        registered.retainAll(before);
        Set<String> stay = new HashSet<>(referenced);
        stay.addAll(young);
        stay.addAll(registered);

        // under an hour is safe here: the model's steps run one at a time, no commit is in flight
        OrphanFilesClean.olderThanAllowingRecent(t.context(), olderThan).clean();

        Set<String> after = TableFiles.onDisk(t);
        String what = where + ", older than " + olderThan;
        assertThat(after)
                .as("%s: every file referenced, younger, or of a writer with a fresh heartbeat stays", what)
                .containsAll(stay);
        assertThat(after).as("%s: every other file is deleted", what).isSubsetOf(stay);
        if (!minus(minus(young, referenced), registered).isEmpty()) {
            saw("young unreferenced files kept");
        }
        if (!minus(minus(registered, referenced), young).isEmpty()) {
            saw("old files of a writer with a fresh heartbeat kept");
        }
        if (!Collections.disjoint(minus(before, after), writers.abandonedFiles())) {
            saw("files of a crashed or stopped writer deleted");
        }
        if (writers.cleaned(olderThan) > 0) {
            saw("stale registration deleted");
        }
    }

    /**
     * A third of the time the age of an unreferenced file or a minute less, so that files right
     * at the threshold are met (one exactly as old stays, one a minute older goes); else under an
     * hour, or one hour to a day.
     */
    private Duration threshold(Set<String> unreferenced) {
        List<Duration> ages = this.ages.agesOf(unreferenced).stream()
                .filter(a -> a.toMinutes() >= 1)
                .toList();
        int kind = rnd.nextInt(3);
        if (kind == 0 && !ages.isEmpty()) {
            saw("threshold at an unreferenced file's age");
            return ages.get(rnd.nextInt(ages.size())).minusMinutes(rnd.nextInt(2));
        }
        return kind == 1
                ? Duration.ofMinutes(rnd.nextInt(60))
                : Duration.ofMinutes(60 + rnd.nextInt(rnd.nextBoolean() ? 3 * 60 : 24 * 60));
    }

    private static Set<String> minus(Set<String> a, Set<String> b) {
        Set<String> out = new HashSet<>(a);
        out.removeAll(b);
        return out;
    }

    private void startInFlight() {
        writers.start(t, rnd, today(), DAYS_BACK);
    }

    /** A live writer commits what it prepared, sometimes after one more batch; its rows are the table's then. */
    private void commitInFlight() {
        InFlightWriterModel.Writer w =
                writers.live().get(rnd.nextInt(writers.live().size()));
        if (rnd.nextBoolean()) {
            writers.writeBatch(w, rnd, today(), DAYS_BACK);
        }
        List<GenericRow> rows = writers.commit(t, w);
        apply(rows);
        committed(rows);
        saw("in-flight rows committed");
    }

    private void crashInFlight() {
        writers.crash(writers.live().get(rnd.nextInt(writers.live().size())));
    }

    /** Mostly minutes, sometimes most of a day: heartbeats go stale or stay fresh, files age past thresholds. */
    private void advanceClock() {
        clock.advance(Duration.ofMinutes(rnd.nextBoolean() ? rnd.nextInt(90) : rnd.nextInt(24 * 60)));
        writers.heartbeatLive();
    }

    private void check() {
        Map<String, Long> registrations = new HashMap<>();
        for (WriterRegistrations.Registration r :
                t.context().writerRegistrations().list()) {
            registrations.put(r.token(), r.heartbeatMillis());
        }
        assertThat(registrations)
                .as("%s: writer registrations (token -> heartbeat)", where)
                .isEqualTo(writers.registrations());
        if (latest() == 0) {
            return;
        }
        assertThat(TableModel.toContents(TestTables.scan(t)))
                .as("%s: latest", where)
                .isEqualTo(current);
        long earliest = earliest();
        if (consumerNext != null) {
            assertThat(history.start())
                    .as("%s: what the consumer reads next is kept", where)
                    .isLessThanOrEqualTo(consumerNext);
        }
        for (long id = earliest; id <= latest(); id++) {
            assertThat(TableModel.toContents(TestTables.scan(t.newReadBuilder().withSnapshot(id))))
                    .as("%s: snapshot %d", where, id)
                    .isEqualTo(contentsAt.get(id));
        }
        for (Map.Entry<String, Map<List<Object>, List<Object>>> tag : tagContents.entrySet()) {
            assertThat(TableModel.toContents(TestTables.scan(t.newReadBuilder().withTag(tag.getKey()))))
                    .as("%s: tag %s", where, tag.getKey())
                    .isEqualTo(tag.getValue());
        }
        if (history.checkReads(t, consumerNext, pick, where)) {
            saw("history read across expired snapshots");
        }
    }
}
