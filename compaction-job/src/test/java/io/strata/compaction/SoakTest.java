package io.strata.compaction;

import static io.strata.compaction.JobTestSupport.contents;
import static io.strata.compaction.JobTestSupport.create;
import static io.strata.compaction.JobTestSupport.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.strata.compaction.job.JobSpec;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.maintenance.OrphanCleanResult;
import io.strata.storage.maintenance.OrphanFilesClean;
import io.strata.storage.maintenance.TableFile;
import io.strata.storage.maintenance.TableFiles;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.snapshot.SnapshotNotFoundException;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.S3ProxyServer;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TestTables;
import io.strata.storage.util.CloseableIterator;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The soak: for {@code strata.soak.minutes} on each file system (local disk, then S3A against
 * s3proxy), a write-only writer, the streaming compaction job with the lookup changelog producer,
 * snapshot expiration, orphan cleanup with a 5-second threshold (writer registrations protect files
 * in flight), readers of random retained snapshots and a changelog consumer run together. It holds
 * when no read fails (other than being told its snapshot expired), every retained snapshot equals
 * the model at the writer's commit it contains, no file a retained snapshot references is ever
 * missing, the changelog consumer's replay equals the final table, the job never fails (it runs
 * without restarts), and heap after collection, live threads and open file descriptors are flat
 * (the median of the last third of the samples against the first third).
 *
 * <p>Off by default: {@code mvn -Psoak test} runs it for 10 minutes per file system, or {@code
 * -Dstrata.soak.minutes=N} ({@code -Dstrata.soak.fs=s3} for one of them; docs/RELIABILITY.md, "Soak").
 */
@EnabledIfSystemProperty(named = "strata.soak.minutes", matches = "[1-9][0-9]*")
class SoakTest {
    @RegisterExtension
    static final MiniClusterExtension MINI = JobTestSupport.miniCluster();

    private static final int KEYS = 1_500;
    private static final Duration ORPHAN_AGE = Duration.ofSeconds(5);
    private static final Map<String, String> EXPIRE = Map.of(
            "snapshot.num-retained.min", "5",
            "snapshot.num-retained.max", "40",
            "snapshot.time-retained", "2 s",
            "snapshot.expire.limit", "20");
    private static final long SAMPLE_MILLIS = 15_000;

    private static S3ProxyServer s3;

    @AfterAll
    static void stopS3() {
        if (s3 != null) {
            s3.close();
        }
    }

    private static String warehouse(String fs) throws Exception {
        File dir = new File("target", "soak-" + fs + "-" + UUID.randomUUID()).getAbsoluteFile();
        if (fs.equals("local")) {
            return dir.toString();
        }
        s3 = S3ProxyServer.startInMemory(dir);
        s3.installAsDefault();
        return s3.uri("soak");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "s3"})
    void ingestionCompactionExpirationOrphanCleanupAndReadersRunTogether(String fs) throws Exception {
        Assumptions.assumeTrue(
                List.of(System.getProperty("strata.soak.fs", "local,s3").split(","))
                        .contains(fs),
                "strata.soak.fs names the file systems to soak");
        long minutes = Long.getLong("strata.soak.minutes");
        String wh = warehouse(fs);
        Map<String, String> options = new java.util.HashMap<>(Map.of(
                "changelog-producer", "lookup",
                "manifest.merge-min-count", "3",
                "orphan-clean.writer-heartbeat-timeout", "30 s"));
        if (fs.equals("s3")) {
            options.put("commit.lock.jdbc.url", "jdbc:h2:mem:soak-locks-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        }
        FileStoreTable t = create(wh, "soak", true, 2, options);
        JobSpec spec = spec(
                wh,
                "minor",
                "streaming",
                2,
                "--table",
                "soak",
                "--discovery-interval",
                "200 ms",
                "--checkpoint-interval",
                "1 s");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(JobTestSupport.restarts(0));
        CompactionPipeline.build(env, spec).sinkTo(new DiscardingSink<>());
        JobClient job = env.executeAsync("soak " + fs);

        Run run = new Run(t, spec.commitUser());
        // the consumer starts at snapshot 1: its position keeps expiration from removing what it has not read
        t.context().consumerManager().record("soak-consumer", 1, System.currentTimeMillis());
        long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(minutes);
        List<Thread> threads = List.of(
                run.thread("writer", () -> run.write(end)),
                run.thread("expiration", run::expire),
                run.thread("orphan-clean", run::cleanOrphans),
                run.thread("reader", run::read),
                run.thread("consumer", run::consume));
        threads.forEach(Thread::start);
        Samples samples = new Samples();
        samples.take();
        while (threads.get(0).isAlive() && run.failures.isEmpty()) {
            threads.get(0).join(SAMPLE_MILLIS);
            samples.take();
            System.out.printf(
                    "soak %s: %d commits, %d scans checked, %d changes consumed, %d orphans deleted, %s%n",
                    fs,
                    run.commits.get(),
                    run.scansChecked.get(),
                    run.changesConsumed.get(),
                    run.orphansDeleted.get(),
                    samples.last());
        }
        run.writing.set(false);
        for (Thread th : threads) {
            th.join(120_000);
            assertThat(th.isAlive()).as("%s finished", th.getName()).isFalse();
        }
        run.failures.forEach(Throwable::printStackTrace);
        assertThat(run.failures).as("failures of the soak's threads").isEmpty();

        StreamingCompactionJobTest.waitFor(
                () -> JobTestSupport.levels(t).values().stream()
                        .allMatch(l -> l.level0().isEmpty()),
                120_000,
                "every level-0 file compacted after the writer stopped",
                () -> StreamingCompactionJobTest.jobState(job) + StreamingCompactionJobTest.describe(t));
        JobStatus status = job.getJobStatus().get();
        String state = StreamingCompactionJobTest.jobState(job);
        job.cancel().get();
        assertThat(status).as("the job ran through: %s", state).isEqualTo(JobStatus.RUNNING);

        // the consumer reads what the job's last compactions produced, then replays to the table
        run.consumeToLatest();
        Map<List<Object>, List<Object>> finalScan = contents(t);
        assertThat(finalScan).as("the final scan").isEqualTo(run.model.contents());
        assertThat(run.replay).as("the consumer's changelog replay").isEqualTo(finalScan);
        long earliest = t.snapshotManager().earliestId().getAsLong();
        Snapshot latest = t.snapshotManager().latest().orElseThrow();
        for (long id = earliest; id <= latest.id(); id++) {
            run.check(id);
        }
        assertThat(TableFiles.onDisk(t)).as("every referenced file is on disk").containsAll(TableFiles.referenced(t));
        // S3A against s3proxy commits a few times a second at best (a lock, several round trips)
        assertThat(run.commits.get()).as("the writer committed").isGreaterThan(minutes * 5);
        assertThat(run.scansChecked.get()).as("readers checked scans").isGreaterThan(minutes * 10);
        assertThat(earliest).as("expiration ran").isGreaterThan(run.commits.get() / 2);
        System.out.printf(
                "soak %s done: %d commits, %d snapshots (%d expirations failed closed), %d scans checked, %d changes"
                        + " consumed, %d orphan files deleted (%s), samples %s%n",
                fs,
                run.commits.get(),
                latest.id(),
                run.expirationsFailedClosed.get(),
                run.scansChecked.get(),
                run.changesConsumed.get(),
                run.orphansDeleted.get(),
                run.orphanExamples,
                samples.all);
        samples.assertFlat();
    }

    /** The threads' shared state: the model, what each snapshot must contain, the failures. */
    private static final class Run {
        final FileStoreTable table;
        final String jobUser;
        final TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
        /** The model's contents after each of the writer's snapshots. */
        final NavigableMap<Long, Map<List<Object>, List<Object>>> expectedAt = new ConcurrentSkipListMap<>();

        final Map<List<Object>, List<Object>> replay = new TreeMap<>(TableModel::compareKeys);
        final List<Throwable> failures = new CopyOnWriteArrayList<>();
        final List<String> orphanExamples = new CopyOnWriteArrayList<>();
        final AtomicBoolean writing = new AtomicBoolean(true);
        final AtomicLong commits = new AtomicLong();
        final AtomicLong scansChecked = new AtomicLong();
        final AtomicLong changesConsumed = new AtomicLong();
        final AtomicLong orphansDeleted = new AtomicLong();
        final AtomicLong expirationsFailedClosed = new AtomicLong();

        Run(FileStoreTable table, String jobUser) {
            this.table = table;
            this.jobUser = jobUser;
            expectedAt.put(0L, model.contents());
        }

        Thread thread(String name, ThrowingRunnable body) {
            return new Thread(
                    () -> {
                        try {
                            body.run();
                        } catch (Throwable e) {
                            failures.add(new AssertionError(name + " failed", e));
                        } finally {
                            if (name.equals("writer")) {
                                writing.set(false);
                            }
                        }
                    },
                    "soak-" + name);
        }

        void write(long endNanos) throws Exception {
            Random rnd = new Random(20261204L);
            try (TableWrite w = table.newWrite("writer");
                    TableCommit c = table.newCommit("writer")) {
                for (long i = 1; System.nanoTime() < endNanos && failures.isEmpty(); i++) {
                    int rows = 20 + rnd.nextInt(80);
                    for (int r = 0; r < rows; r++) {
                        GenericRow row = TableModel.randomRow(rnd, KEYS);
                        model.apply(row);
                        w.write(row);
                    }
                    for (long id : c.commit(i, w.prepareCommit())) {
                        expectedAt.put(id, model.contents());
                    }
                    commits.incrementAndGet();
                    Thread.sleep(rnd.nextInt(100));
                }
            }
        }

        void expire() throws Exception {
            while (writing.get()) {
                try {
                    table.copyWithOptions(EXPIRE).newSnapshotExpiration().expire();
                } catch (SnapshotNotFoundException concurrent) {
                    expirationsFailedClosed.incrementAndGet();
                    // orphan cleanup or a reader does not remove snapshots; only a concurrent commit
                    // can make a planned snapshot's successor unknown: expiration failed closed
                }
                forgetExpired();
                Thread.sleep(300);
            }
        }

        /** Keeps the expected contents of the earliest retained writer snapshot and later ones only. */
        private void forgetExpired() {
            table.snapshotManager().earliestId().ifPresent(earliest -> {
                Long floor = expectedAt.floorKey(earliest);
                if (floor != null) {
                    expectedAt.headMap(floor, false).clear();
                }
            });
        }

        void cleanOrphans() throws Exception {
            while (writing.get()) {
                OrphanCleanResult r = OrphanFilesClean.olderThanAllowingRecent(table.context(), ORPHAN_AGE)
                        .clean();
                orphansDeleted.addAndGet(r.deleted().size());
                for (TableFile f : r.deleted()) {
                    if (orphanExamples.size() < 5) {
                        orphanExamples.add(f.kind() + " " + new org.apache.hadoop.fs.Path(f.path()).getName());
                    }
                }
                Thread.sleep(2_000);
            }
        }

        void read() throws Exception {
            Random rnd = new Random(7);
            while (writing.get()) {
                Snapshot latest = table.snapshotManager().latest().orElse(null);
                if (latest == null) {
                    Thread.sleep(50);
                    continue;
                }
                // a writer snapshot committed but not yet in expectedAt has no known contents: stop before it
                long newest = Math.min(latest.id(), expectedAt.lastKey());
                long earliest = table.snapshotManager().earliestId().orElse(newest);
                if (newest < earliest) {
                    Thread.sleep(10);
                    continue;
                }
                long id = rnd.nextBoolean() ? newest : earliest + (long) rnd.nextInt((int) (newest - earliest + 1));
                try {
                    check(id);
                } catch (SnapshotNotFoundException expired) {
                    if (!String.valueOf(expired.getMessage()).contains("has expired")) {
                        throw expired;
                    }
                }
            }
        }

        /** Snapshot {@code id} holds what the model held after the writer's snapshot it contains. */
        void check(long id) {
            Map.Entry<Long, Map<List<Object>, List<Object>>> expected = expectedAt.floorEntry(id);
            if (expected == null) {
                return; // its writer snapshot's contents were forgotten: it expires next
            }
            Map<List<Object>, List<Object>> actual =
                    TableModel.toContents(TestTables.scan(table.newReadBuilder().withSnapshot(id)));
            if (!actual.equals(expected.getValue())) {
                throw new AssertionError(
                        "snapshot " + id + " (" + table.snapshotManager().snapshot(id)
                                + ") differs from the model after writer snapshot " + expected.getKey() + ": "
                                + difference(expected.getValue(), actual));
            }
            scansChecked.incrementAndGet();
        }

        void consume() throws Exception {
            while (writing.get()) {
                consumeToLatest();
                Thread.sleep(500);
            }
        }

        /** Reads the consumer's unread changes up to the latest snapshot; every -U/-D retracts what it names. */
        void consumeToLatest() {
            long latest = table.snapshotManager().latestId().orElse(0);
            if (latest == 0) {
                return;
            }
            try (CloseableIterator<GenericRow> it = table.newIncrementalRead().readAs("soak-consumer", latest)) {
                while (it.hasNext()) {
                    GenericRow r = it.next();
                    List<Object> key = List.of(r.get(0), r.get(1));
                    List<Object> row = new ArrayList<>(Arrays.asList(r.fields()));
                    if (r.kind().isRetract()) {
                        if (!Objects.equals(replay.get(key), row)) {
                            throw new AssertionError(r.kind() + " of " + key + " carries " + row
                                    + " but the consumer's replay holds " + replay.get(key));
                        }
                        replay.remove(key);
                    } else {
                        replay.put(key, row);
                    }
                    changesConsumed.incrementAndGet();
                }
            }
        }

        private static String difference(
                Map<List<Object>, List<Object>> expected, Map<List<Object>, List<Object>> actual) {
            List<String> out = new ArrayList<>();
            for (Map.Entry<List<Object>, List<Object>> e : expected.entrySet()) {
                if (!Objects.equals(actual.get(e.getKey()), e.getValue()) && out.size() < 5) {
                    out.add(e.getKey() + ": expected " + e.getValue() + ", read " + actual.get(e.getKey()));
                }
            }
            for (List<Object> k : actual.keySet()) {
                if (!expected.containsKey(k) && out.size() < 5) {
                    out.add(k + ": not expected, read " + actual.get(k));
                }
            }
            return expected.size() + " rows expected, " + actual.size() + " read; " + out;
        }
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    /** Heap after the last collection, live threads and open file descriptors over the run. */
    private static final class Samples {
        final List<long[]> all = new ArrayList<>() {
            @Override
            public String toString() {
                StringBuilder b = new StringBuilder();
                for (long[] s : this) {
                    b.append(String.format(" [heap %d MiB, %d threads, %d fds]", s[0] >> 20, s[1], s[2]));
                }
                return b.toString();
            }
        };

        void take() {
            System.gc(); // heap in use after a full collection: what the run keeps, not its garbage
            long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            long threads = ManagementFactory.getThreadMXBean().getThreadCount();
            String[] fds = new File("/proc/self/fd").list();
            all.add(new long[] {heap, threads, fds == null ? -1 : fds.length});
        }

        String last() {
            long[] s = all.get(all.size() - 1);
            return String.format("heap after GC %d MiB, %d threads, %d fds", s[0] >> 20, s[1], s[2]);
        }

        /** The median of the last third of the samples against the first third, after the first sample (warm-up). */
        void assertFlat() {
            List<long[]> steady = all.subList(1, all.size());
            if (steady.size() < 6) {
                return; // a run too short to say anything about growth
            }
            int third = steady.size() / 3;
            List<long[]> first = steady.subList(0, third);
            List<long[]> last = steady.subList(steady.size() - third, steady.size());
            assertThat(median(last, 0))
                    .as("heap after GC (bytes), first third %d", median(first, 0))
                    .isLessThanOrEqualTo(median(first, 0) * 3 / 2 + (64L << 20));
            assertThat(median(last, 1))
                    .as("live threads, first third %d", median(first, 1))
                    .isLessThanOrEqualTo(median(first, 1) + 10);
            assertThat(median(last, 2))
                    .as("open file descriptors, first third %d", median(first, 2))
                    .isLessThanOrEqualTo(median(first, 2) + 40);
        }

        private static long median(List<long[]> samples, int field) {
            long[] v = samples.stream().mapToLong(s -> s[field]).sorted().toArray();
            return v[v.length / 2];
        }
    }
}
