package io.strata.compaction;

import static io.strata.compaction.JobTestSupport.contents;
import static io.strata.compaction.JobTestSupport.create;
import static io.strata.compaction.JobTestSupport.ingest;
import static io.strata.compaction.JobTestSupport.levels;
import static io.strata.compaction.JobTestSupport.runToEnd;
import static io.strata.compaction.JobTestSupport.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.compaction.commit.CompactionEvent;
import io.strata.compaction.commit.CompactionFailedException;
import io.strata.compaction.job.JobSpec;
import io.strata.storage.data.BucketId;
import io.strata.storage.data.PartitionPath;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.fs.FileIO;
import io.strata.storage.maintenance.ReachableFiles;
import io.strata.storage.mergetree.Levels;
import io.strata.storage.snapshot.CommitKind;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.testutil.TableModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bucket that cannot be compacted (a data file missing, truncated or garbage; a full disk or a
 * read-only warehouse under its new files) fails alone: a batch job ends with an error naming the
 * table, bucket and file at the top, that bucket's files stay as they were, the other buckets'
 * compactions are committed, and no uncommitted output is left behind. A streaming job reports
 * the bucket, leaves it out and goes on.
 */
class BucketFailureJobTest {
    @RegisterExtension
    static final MiniClusterExtension MINI = JobTestSupport.miniCluster();

    /** FAILED events the streaming test's job emitted; static: the operators run in this JVM. */
    static final AtomicInteger FAILED_EVENTS = new AtomicInteger();

    @TempDir
    Path dir;

    @BeforeAll
    static void installRefusingFileSystem() {
        RefusingFileSystem.install();
    }

    @AfterEach
    void heal() {
        RefusingFileSystem.heal();
    }

    /** How a test damages the chosen file. */
    enum Damage {
        MISSING,
        GARBAGE,
        TRUNCATED
    }

    /** Also: Flink's exception history (its REST endpoint, what the web UI shows) has the bucket's message on top. */
    @Test
    void aMissingFileFailsItsBucketAndTheOtherBucketsCommitInBatch() throws Exception {
        Damaged d = damagedTable(dir.toString(), "missing", Damage.MISSING, false, Map.of());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        CompactionPipeline.build(env, spec(dir.toString(), "full", "batch", 2, "--table", "missing"))
                .sinkTo(new DiscardingSink<>());
        JobClient job = env.executeAsync("missing file, batch");

        assertThatThrownBy(() -> job.getJobExecutionResult().get(120, TimeUnit.SECONDS))
                .satisfies(e -> d.assertReported(e, "data file is missing", "3 other buckets committed"));

        Configuration rest = MINI.getClientConfiguration();
        try (RestSubmitter cluster = RestSubmitter.connect(rest.get(RestOptions.ADDRESS), rest.get(RestOptions.PORT))) {
            // Flink records its "Recovery is suppressed" JobException with the job's failure as its cause
            String history = cluster.failure(job.getJobID()).orElseThrow();
            assertThat(history).contains("under: org.apache.flink.runtime.JobException");
            assertThat(history.lines().findFirst().orElseThrow())
                    .startsWith(CompactionFailedException.class.getName() + ": table db.missing, bucket "
                            + d.bucket.bucket() + ": ")
                    .contains(d.file.fileName());
        }
        d.assertOnlyTheDamagedBucketIsUncompacted();

        // the runbook's fix: with the file put back, running the job again compacts the bucket
        runToEnd(spec(dir.toString(), "full", "batch", 2, "--table", "missing"));
        assertThat(levels(d.table).values()).allMatch(l -> l.numberOfSortedRuns() == 1);
        assertThat(contents(d.table)).isEqualTo(d.model.contents());
    }

    @Test
    void aGarbageFileFailsItsBucketAndTheOtherBucketsCommitInBatch() throws Exception {
        Damaged d = damagedTable(dir.toString(), "garbage", Damage.GARBAGE, false, Map.of());

        assertThatThrownBy(() -> runToEnd(spec(dir.toString(), "full", "batch", 2, "--table", "garbage")))
                .satisfies(e -> d.assertReported(e, "cannot open data file", "3 other buckets committed"));

        d.assertOnlyTheDamagedBucketIsUncompacted();
    }

    @Test
    void aTruncatedFileOfAPartitionedTableFailsItsBucketAndTheOtherBucketsCommitInBatch() throws Exception {
        Damaged d = damagedTable(dir.toString(), "truncated", Damage.TRUNCATED, true, Map.of());

        assertThatThrownBy(() -> runToEnd(spec(dir.toString(), "full", "batch", 2, "--table", "truncated")))
                .satisfies(e -> d.assertReported(e, "corrupt or unreadable file", "7 other buckets committed"));

        d.assertOnlyTheDamagedBucketIsUncompacted();
    }

    /**
     * The disk fills up while the rewrite of one bucket writes its new file: that bucket fails
     * naming the file it could not write, its partial file is deleted, the other buckets commit.
     */
    @Test
    void aFullDiskUnderOneBucketFailsItAndTheOtherBucketsCommitInBatch() throws Exception {
        String wh = RefusingFileSystem.uri(dir.resolve("wh"));
        FileStoreTable t = create(wh, "full", false, 4, Map.of("commit.lock.jdbc.url", lockUrl()));
        assertThat(t.fileIO().scheme()).isEqualTo(RefusingFileSystem.SCHEME);
        TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
        ingest(t, model, new Random(7), 4, 400, 300, "writer", 1);
        Map<BucketId, Levels> before = levels(t);
        BucketId bucket = before.keySet().iterator().next();
        Path bucketDir =
                Path.of(t.paths().bucketDir("", bucket.bucket()).toUri().getPath());
        Set<String> filesBefore = listNames(bucketDir);
        RefusingFileSystem.refuse("/bucket-" + bucket.bucket() + "/", 300);

        assertThatThrownBy(() -> runToEnd(spec(wh, "full", "batch", 2, "--table", "full")))
                .satisfies(e -> {
                    String message = reported(e, 1);
                    assertThat(message)
                            .startsWith("table db.full, bucket " + bucket.bucket() + ": refusing:")
                            .contains("bucket-" + bucket.bucket() + "/compact-")
                            .contains("No space left on device")
                            .contains("3 other buckets committed");
                });

        RefusingFileSystem.heal();
        FileStoreTable after = Catalog.open(wh).getTable("db", "full");
        assertOthersCompacted(after, before, bucket);
        assertThat(listNames(bucketDir))
                .as("the failed bucket's directory holds its files only: the partial new file is deleted")
                .isEqualTo(filesBefore);
        assertThat(contents(after)).as("full scan equals the model").isEqualTo(model.contents());
        assertNothingUnreferenced(after);
    }

    /** Nothing can be written: every bucket fails, all of them are listed, and the table is unchanged. */
    @Test
    void aReadOnlyWarehouseFailsEveryBucketListingThemAllAndChangesNothing() throws Exception {
        String wh = RefusingFileSystem.uri(dir.resolve("wh"));
        FileStoreTable t = create(wh, "ro", false, 4, Map.of("commit.lock.jdbc.url", lockUrl()));
        TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
        ingest(t, model, new Random(7), 4, 400, 300, "writer", 1);
        Map<BucketId, Levels> before = levels(t);
        long latest = t.snapshotManager().latestId().orElseThrow();
        Path root = Path.of(t.paths().root().toUri().getPath());
        Set<Path> filesBefore = listTree(root);
        RefusingFileSystem.refuse("/db.db/ro/", 0);

        assertThatThrownBy(() -> runToEnd(spec(wh, "full", "batch", 2, "--table", "ro")))
                .satisfies(e -> {
                    String message = reported(e, 4);
                    assertThat(message).startsWith("table db.ro, bucket ");
                    for (BucketId b : before.keySet()) {
                        assertThat(message).contains("table db.ro, bucket " + b.bucket() + ": ");
                    }
                    assertThat(message)
                            .contains("Read-only file system")
                            .contains("4 buckets failed to compact")
                            .contains("0 other buckets committed");
                });

        RefusingFileSystem.heal();
        FileStoreTable after = Catalog.open(wh).getTable("db", "ro");
        assertThat(after.snapshotManager().latestId().orElseThrow()).isEqualTo(latest);
        Map<BucketId, Levels> levelsAfter = levels(after);
        assertThat(levelsAfter.keySet()).isEqualTo(before.keySet());
        before.forEach(
                (b, l) -> assertThat(names(levelsAfter.get(b).allFiles())).isEqualTo(names(l.allFiles())));
        assertThat(listTree(root)).as("not a file added or removed").isEqualTo(filesBefore);
        assertThat(contents(after)).isEqualTo(model.contents());
    }

    /**
     * Streaming does not fail the job for a bucket that cannot be compacted (its restarts would
     * fail again on a lasting damage, and lose the other buckets' rewrites in progress each time):
     * the bucket is reported once and left out while its files stay as they are; the other
     * buckets are compacted and the job runs on.
     */
    @Test
    void aStreamingJobReportsTheFailedBucketOnceAndGoesOn() throws Exception {
        FAILED_EVENTS.set(0);
        Damaged d = damagedTable(dir.toString(), "stream", Damage.MISSING, false, Map.of());
        JobSpec spec = spec(dir.toString(), "minor", "streaming", 2, "--table", "stream");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(JobTestSupport.restarts(0));
        CompactionPipeline.build(env, spec)
                .map(new CountFailures(), TypeInformation.of(CompactionEvent.class))
                .setParallelism(1)
                .sinkTo(new DiscardingSink<>())
                .setParallelism(1);
        JobClient job = env.executeAsync("damaged bucket, streaming");
        try {
            StreamingCompactionJobTest.waitFor(
                    () -> {
                        Map<BucketId, Levels> now = levels(d.table);
                        return FAILED_EVENTS.get() > 0
                                && now.entrySet().stream()
                                        .filter(e -> !e.getKey().equals(d.bucket))
                                        .allMatch(e -> e.getValue().numberOfSortedRuns()
                                                < d.before.get(e.getKey()).numberOfSortedRuns());
                    },
                    60_000,
                    "the damaged bucket reported and the other buckets compacted",
                    () -> StreamingCompactionJobTest.jobState(job));
            // about 10 discovery rounds (200 ms) and 4 checkpoints (500 ms): the bucket is not tried again
            Thread.sleep(2_000);
            assertThat(job.getJobStatus().get(10, TimeUnit.SECONDS)).isEqualTo(JobStatus.RUNNING);
            assertThat(FAILED_EVENTS.get()).as("the bucket is reported once").isEqualTo(1);
        } finally {
            job.cancel().get(30, TimeUnit.SECONDS);
        }
        d.assertOnlyTheDamagedBucketIsUncompacted();
    }

    /** Counts the committer's FAILED events. */
    private static final class CountFailures implements MapFunction<CompactionEvent, CompactionEvent> {
        @Override
        public CompactionEvent map(CompactionEvent e) {
            if (CompactionEvent.FAILED.equals(e.kind)) {
                FAILED_EVENTS.incrementAndGet();
            }
            return e;
        }
    }

    /**
     * A table of 4 buckets (in each of 2 partitions when {@code partitioned}) in {@code warehouse}
     * with level-0 runs in each, and one data file of one bucket damaged through the table's
     * {@link io.strata.storage.fs.FileIO} (its bytes kept, to put it back once the job is done).
     */
    static Damaged damagedTable(
            String warehouse, String name, Damage damage, boolean partitioned, Map<String, String> options)
            throws IOException {
        FileStoreTable t = create(warehouse, name, partitioned, 4, options);
        TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
        ingest(t, model, new Random(7), 4, 400, 300, "writer", 1);
        Map<BucketId, Levels> before = levels(t);
        assertThat(before).as("every bucket has data").hasSize(partitioned ? 8 : 4);
        BucketId bucket = before.keySet().iterator().next();
        DataFileMeta file = before.get(bucket).allFiles().get(0);
        org.apache.hadoop.fs.Path path = t.paths()
                .dataFile(
                        PartitionPath.of(t.schema().partitionKeys(), bucket.partition()),
                        bucket.bucket(),
                        file.fileName());
        FileIO io = t.fileIO();
        byte[] original = io.readFully(path);
        assertThat(io.delete(path)).as("%s deleted", path).isTrue();
        switch (damage) {
            case MISSING -> {}
            case GARBAGE -> {
                byte[] junk = new byte[original.length];
                new Random(3).nextBytes(junk);
                io.writeNew(path, junk);
            }
            case TRUNCATED -> io.writeNew(path, Arrays.copyOf(original, original.length / 2));
        }
        return new Damaged(t, model, before, bucket, file, path, original);
    }

    /** The failure in {@code thrown}'s cause chain, with {@code buckets} failed buckets; its message is what users see. */
    static String reported(Throwable thrown, int buckets) {
        CompactionFailedException failure = ExceptionUtils.findThrowable(thrown, CompactionFailedException.class)
                .orElseThrow(() -> new AssertionError("no CompactionFailedException in the cause chain", thrown));
        assertThat(failure.failedBuckets()).isEqualTo(buckets);
        assertThat(JobFailures.describe(thrown))
                .as("strata compact and the scheduler show the failure, not Flink's wrappers")
                .isEqualTo(failure.getMessage());
        return failure.getMessage();
    }

    /** The three other buckets have fewer sorted runs, committed by a COMPACT snapshot; {@code failed} is unchanged. */
    static void assertOthersCompacted(FileStoreTable table, Map<BucketId, Levels> before, BucketId failed) {
        Map<BucketId, Levels> after = levels(table);
        assertThat(names(after.get(failed).allFiles()))
                .as("the failed bucket's files are unchanged")
                .isEqualTo(names(before.get(failed).allFiles()));
        for (Map.Entry<BucketId, Levels> e : after.entrySet()) {
            if (!e.getKey().equals(failed)) {
                assertThat(e.getValue().numberOfSortedRuns())
                        .as("bucket %s compacted", e.getKey())
                        .isLessThan(before.get(e.getKey()).numberOfSortedRuns());
            }
        }
        Snapshot latest = table.snapshotManager().latest().orElseThrow();
        assertThat(latest.commitKind()).isEqualTo(CommitKind.COMPACT);
    }

    /** Every data file on disk is referenced by a retained snapshot: no uncommitted output was left behind. */
    static void assertNothingUnreferenced(FileStoreTable table) throws IOException {
        Set<String> referenced = new ReachableFiles(table.context()).referencedByRetainedSnapshots();
        Set<String> onDisk = new ReachableFiles(table.context())
                .dataDirectoryFiles(n -> !n.startsWith(".")).stream()
                        .map(p -> p.getName())
                        .collect(Collectors.toSet());
        assertThat(onDisk).as("no uncommitted output left behind").isSubsetOf(referenced);
    }

    private static String lockUrl() {
        return "jdbc:h2:mem:bucket-failure-locks-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    }

    private static Set<String> listNames(Path directory) throws IOException {
        try (Stream<Path> s = Files.list(directory)) {
            return s.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
        }
    }

    private static Set<Path> listTree(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.collect(Collectors.toSet());
        }
    }

    private static Set<String> names(List<DataFileMeta> files) {
        Set<String> s = new HashSet<>();
        files.forEach(f -> s.add(f.fileName()));
        return s;
    }

    /** A table with one damaged data file: {@code path}, whose bytes were {@code original}. */
    record Damaged(
            FileStoreTable table,
            TableModel model,
            Map<BucketId, Levels> before,
            BucketId bucket,
            DataFileMeta file,
            org.apache.hadoop.fs.Path path,
            byte[] original) {
        /**
         * The message the user sees names the table and the bucket first, then the damaged file,
         * what is wrong with it and how many other buckets were committed.
         */
        void assertReported(Throwable thrown, String what, String committed) {
            String message = reported(thrown, 1);
            String partition = PartitionPath.display(
                    table.schema().partitionKeys(),
                    table.schema().typesOf(table.schema().partitionIndexes()),
                    bucket.partition());
            assertThat(partition).matches(table.schema().partitionKeys().isEmpty() ? "" : "p=[01]");
            assertThat(message)
                    .startsWith("table " + table.name() + (partition.isEmpty() ? "" : ", partition " + partition)
                            + ", bucket " + bucket.bucket() + ": ")
                    .contains(file.fileName())
                    .contains(what)
                    .contains(committed);
        }

        /**
         * The other buckets are compacted and committed, the damaged one is unchanged; once the
         * damaged file is put back, a full scan equals the model, and no uncommitted output is left.
         */
        void assertOnlyTheDamagedBucketIsUncompacted() throws IOException {
            assertOthersCompacted(table, before, bucket);
            putBack();
            assertThat(contents(table)).as("full scan equals the model").isEqualTo(model.contents());
            assertNothingUnreferenced(table);
        }

        /** Writes the damaged file's original bytes back (the runbook's fix: restore it from a copy). */
        void putBack() throws IOException {
            table.fileIO().delete(path);
            table.fileIO().writeNew(path, original);
        }
    }
}
