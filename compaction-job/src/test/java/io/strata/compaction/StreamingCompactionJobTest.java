package io.strata.compaction;

import static io.strata.compaction.JobTestSupport.contents;
import static io.strata.compaction.JobTestSupport.create;
import static io.strata.compaction.JobTestSupport.levels;
import static io.strata.compaction.JobTestSupport.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.strata.compaction.commit.CompactionEvent;
import io.strata.compaction.job.JobSpec;
import io.strata.compaction.job.JobTables;
import io.strata.compaction.rewrite.CompactionCommittable;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.BucketId;
import io.strata.storage.data.GenericRow;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.format.DataFileNames;
import io.strata.storage.manifest.FileKind;
import io.strata.storage.manifest.ManifestEntry;
import io.strata.storage.mergetree.Levels;
import io.strata.storage.options.CompactionOptions;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.ChangelogReplay;
import io.strata.storage.testutil.LsmInvariants;
import io.strata.storage.testutil.TableModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job in streaming mode beside a live write-only writer, with lookup changelog, and with
 * failures injected in a rewrite task and in the committer's task.
 */
class StreamingCompactionJobTest {
    @RegisterExtension
    static final MiniClusterExtension MINI = JobTestSupport.miniCluster();

    /** Failures still to inject, per place; static: the operators run in this JVM. */
    static final AtomicInteger REWRITE_FAILURES = new AtomicInteger();

    static final AtomicInteger COMMIT_FAILURES = new AtomicInteger();

    @TempDir
    Path dir;

    @Test
    void streamingJobBesideAWriterKeepsTheTableCorrectAndProducesTheChangelog() throws Exception {
        run(0, 0, 7);
    }

    @Test
    void failuresInARewriteTaskAndInTheCommitterLoseAndDuplicateNothing() throws Exception {
        run(2, 2, 8);
    }

    private void run(int rewriteFailures, int commitFailures, long seed) throws Exception {
        REWRITE_FAILURES.set(rewriteFailures);
        COMMIT_FAILURES.set(commitFailures);
        FileStoreTable t = create(
                dir.toString(),
                "live",
                true,
                2,
                Map.of("changelog-producer", "lookup", "num-sorted-run.compaction-trigger", "3"));
        TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
        JobSpec spec = spec(
                dir.toString(),
                "minor",
                "streaming",
                2,
                "--table",
                "live",
                "--discovery-interval",
                "100 ms",
                "--checkpoint-interval",
                "300 ms");

        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(JobTestSupport.restarts(10));
        CompactionPipeline.configure(env, spec);
        DataStream<CompactionCommittable> results = CompactionPipeline.rewrite(CompactionPipeline.plan(env, spec), spec)
                .map(new FailRewrites(), TypeInformation.of(CompactionCommittable.class))
                .setParallelism(2);
        CompactionPipeline.commit(results, spec)
                .map(new FailAfterCommit(), TypeInformation.of(CompactionEvent.class))
                .setParallelism(1)
                .sinkTo(new DiscardingSink<>())
                .setParallelism(1);
        JobClient job = env.executeAsync("streaming compaction test");

        RunBound bound = new RunBound(t, spec);
        Random rnd = new Random(seed);
        int commits = 300;
        try (TableWrite w = t.newWrite("writer");
                TableCommit c = t.newCommit("writer")) {
            for (int i = 1; i <= commits; i++) {
                for (int r = 0; r < 40; r++) {
                    GenericRow row = TableModel.randomRow(rnd, 300);
                    model.apply(row);
                    w.write(row);
                }
                c.commit(i, w.prepareCommit());
                // a writer commits about every 40 ms (a real one commits per checkpoint, seconds apart)
                Thread.sleep(40);
                bound.check(i, seed);
            }
        }
        // the writer stopped; the job drains level 0 (lookup compaction forces level-0 files up)
        waitFor(
                () -> levels(t).values().stream().allMatch(l -> l.level0().isEmpty()),
                60_000,
                "every level-0 file compacted",
                () -> jobState(job) + describe(t));
        if (rewriteFailures == 0 && commitFailures == 0) {
            // one attempt: every output of the job carries the token of a registration of its running subtasks
            Set<String> registered = t.context().writerRegistrations().list().stream()
                    .map(r -> r.token())
                    .collect(Collectors.toSet());
            String jobTag = JobTables.jobFileTag(spec.commitUser());
            List<String> jobFiles = levels(t).values().stream()
                    .flatMap(l -> l.allFiles().stream())
                    .map(DataFileMeta::fileName)
                    .filter(n -> n.startsWith(jobTag))
                    .toList();
            assertThat(jobFiles).isNotEmpty();
            assertThat(jobFiles)
                    .as("the job's live files are named with its registrations %s", registered)
                    .allMatch(n -> registered.contains(DataFileNames.uuidOf(n)));
        }
        job.stopWithSavepoint(false, dir.resolve("savepoints").toUri().toString(), SavepointFormatType.CANONICAL)
                .get();

        assertThat(contents(t)).as("seed %d", seed).isEqualTo(model.contents());
        assertThat(ChangelogReplay.replay(t))
                .as("changelog replay, seed %d", seed)
                .isEqualTo(model.contents());
        assertThat(bound.checked)
                .as(
                        "writer commits after which the bound was checked (of %d; before, no bucket "
                                + "had two landings)",
                        commits)
                .isGreaterThanOrEqualTo(commits / 2);
        // a job that keeps up lands in every bucket about once per 3 writer commits here, also with 5 runnable
        // threads per core (the writer slows down with the job); one landing in 10 commits is a job falling behind
        assertThat(bound.fewestLandings())
                .as("the job's landings in the bucket with the fewest, over %d writer " + "commits", commits)
                .isGreaterThanOrEqualTo(commits / 10);
        LsmInvariants.check(t);
        LsmInvariants.checkRowCounts(t);
        if (rewriteFailures == 0 && commitFailures == 0) {
            assertThat(t.context().writerRegistrations().list())
                    .as("the writer and the stopped job removed their registrations")
                    .isEmpty();
        }
        assertNoDuplicateCommits(t, spec.commitUser());
        assertThat(unreferencedJobFiles(t, spec.commitUser()))
                .as("files of failed attempts were removed")
                .isEmpty();
        assertThat(REWRITE_FAILURES.get())
                .as("every rewrite failure was injected")
                .isZero();
        assertThat(COMMIT_FAILURES.get())
                .as("every committer failure was injected")
                .isZero();
    }

    /**
     * The contract of a streaming job beside a writer: a bucket holds at most the runs the
     * compaction trigger leaves plus what ingestion added during the job's last two compaction
     * rounds of it, counted in the table's own snapshots.
     *
     * <p>Why: every compaction unit takes all level-0 files of its bucket (universal compaction
     * never writes level 0, so it extends a pick over all of them, and the lookup strategy forces
     * them up when nothing else is picked), and the levels above 0 hold at most num-levels - 1 =
     * trigger runs. A bucket is in flight from its plan until its compaction lands, so the plan
     * after landing {@code n - 1} reads a snapshot at or after it and takes every level-0 file
     * committed before it; landing {@code n} removes them. So once landing {@code n} is in, every
     * level-0 file was committed after landing {@code n - 1}, and the bucket has at most trigger +
     * (the writer's commits to it since landing {@code n - 1}) runs, whatever the machine's speed.
     * A compaction that leaves a level-0 file behind, or more than trigger runs above level 0,
     * fails it; one that lands too seldom fails the landing count after the writer (the bound
     * itself follows the job's pace), and one that stops fails the drain.
     *
     * <p>Checked after every writer commit, for each bucket in which the job has landed two
     * compactions (before that the bound is the job's start-up, not its contract).
     */
    private static final class RunBound {
        private final FileStoreTable table;
        private final String jobUser;
        private final int trigger;
        /** The snapshot that added each data file of the writer. */
        private final Map<String, Long> addedIn = new HashMap<>();
        /** Per bucket, the snapshots of the job that changed it, in order. */
        private final Map<BucketId, List<Long>> landings = new HashMap<>();

        private long scannedUpTo;
        int checked;

        RunBound(FileStoreTable table, JobSpec spec) {
            this.table = table;
            this.jobUser = spec.commitUser();
            this.trigger = table.schema().tableOptions().get(CompactionOptions.COMPACTION_TRIGGER);
            assertThat(table.schema().tableOptions().get(CompactionOptions.NUM_LEVELS) - 1)
                    .isEqualTo(trigger);
        }

        void check(int commit, long seed) {
            scanSnapshots();
            boolean any = false;
            for (Map.Entry<BucketId, Levels> e : levels(table).entrySet()) {
                List<Long> landed = landings.getOrDefault(e.getKey(), List.of());
                if (landed.size() < 2) {
                    continue;
                }
                any = true;
                long previous = landed.get(landed.size() - 2);
                Levels l = e.getValue();
                String where = "seed " + seed + ", after writer commit " + commit + ", bucket " + e.getKey() + " " + l
                        + ", the job's last two landings in it: snapshots " + previous + " and "
                        + landed.get(landed.size() - 1);
                for (DataFileMeta f : l.level0()) {
                    assertThat(addedIn.get(f.fileName()))
                            .as("%s: the snapshot that added level-0 file %s", where, f.fileName())
                            .isGreaterThan(previous);
                }
                assertThat(l.numberOfSortedRuns() - l.level0().size())
                        .as("%s: runs above level 0", where)
                        .isLessThanOrEqualTo(trigger);
            }
            if (any) {
                checked++;
            }
        }

        /** How often the job's compactions landed in the bucket with the fewest. */
        int fewestLandings() {
            return landings.isEmpty()
                    ? 0
                    : landings.values().stream().mapToInt(List::size).min().getAsInt();
        }

        private void scanSnapshots() {
            long latest = table.snapshotManager().latestId().getAsLong();
            for (long id = scannedUpTo + 1; id <= latest; id++) {
                Snapshot s = table.snapshotManager().snapshot(id);
                boolean job = s.commitUser().equals(jobUser);
                Set<BucketId> buckets = new HashSet<>();
                for (ManifestEntry e : table.manifests().scanner().entries(s.deltaManifestList())) {
                    buckets.add(e.bucketId());
                    if (!job && e.kind() == FileKind.ADD) {
                        addedIn.put(e.file().fileName(), id);
                    }
                }
                if (job) {
                    long landing = id;
                    buckets.forEach(b ->
                            landings.computeIfAbsent(b, x -> new ArrayList<>()).add(landing));
                }
            }
            scannedUpTo = latest;
        }
    }

    /** Each identifier of the job's commit user appears in at most one snapshot: no commit was made twice. */
    private static void assertNoDuplicateCommits(FileStoreTable t, String user) {
        Set<Long> seen = new HashSet<>();
        for (long id = 1; id <= t.snapshotManager().latestId().getAsLong(); id++) {
            Snapshot s = t.snapshotManager().snapshot(id);
            if (s.commitUser().equals(user)) {
                assertThat(seen.add(s.commitIdentifier()))
                        .as("identifier %d committed twice", s.commitIdentifier())
                        .isTrue();
            }
        }
        assertThat(seen).as("the job committed").isNotEmpty();
    }

    /** Files with the job's prefix that no snapshot references. */
    static List<String> unreferencedJobFiles(FileStoreTable t, String user) throws IOException {
        Set<String> referenced = new HashSet<>();
        for (long id = 1; id <= t.snapshotManager().latestId().getAsLong(); id++) {
            Snapshot s = t.snapshotManager().snapshot(id);
            t.manifests()
                    .scanner()
                    .entries(s.deltaManifestList())
                    .forEach(e -> referenced.add(e.file().fileName()));
            if (s.changelogManifestList() != null) {
                t.manifests()
                        .scanner()
                        .entries(s.changelogManifestList())
                        .forEach(e -> referenced.add(e.file().fileName()));
            }
        }
        String tag = JobTables.jobFileTag(user);
        try (Stream<Path> files = Files.walk(Path.of(t.paths().root().toUri()))) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith(tag) && !referenced.contains(n))
                    .collect(Collectors.toList());
        }
    }

    static void waitFor(BooleanSupplier condition, long millis, String what, Supplier<String> state)
            throws InterruptedException {
        long deadline = System.currentTimeMillis() + millis;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("timed out waiting for: " + what + "; " + state.get());
            }
            Thread.sleep(100);
        }
    }

    static String jobState(JobClient job) {
        try {
            String status = job.getJobStatus().get().toString();
            if (job.getJobStatus().get().isGloballyTerminalState()) {
                try {
                    job.getJobExecutionResult().get();
                } catch (Exception e) {
                    status += " " + causes(e);
                }
            }
            return "job " + status;
        } catch (Exception e) {
            return "job status unknown: " + e;
        }
    }

    /** Every cause's class and message, outermost first, then the root cause's first frames. */
    static String causes(Throwable e) {
        StringBuilder b = new StringBuilder();
        Throwable root = e;
        for (Throwable t = e; t != null && b.length() < 20_000; t = t.getCause()) {
            b.append("\n  caused by ").append(t);
            root = t;
        }
        StackTraceElement[] frames = root.getStackTrace();
        for (int i = 0; i < Math.min(25, frames.length); i++) {
            b.append("\n    at ").append(frames[i]);
        }
        return b.toString();
    }

    /** The LSM shape per bucket and the last snapshots, for failure messages. */
    static String describe(FileStoreTable t) {
        StringBuilder b = new StringBuilder();
        levels(t)
                .forEach(
                        (k, l) -> b.append("\n  bucket ").append(k).append(": ").append(l));
        long latest = t.snapshotManager().latestId().getAsLong();
        for (long id = Math.max(1, latest - 5); id <= latest; id++) {
            b.append("\n  ").append(t.snapshotManager().snapshot(id));
        }
        return b.toString();
    }

    /** Fails the rewrite task (it is chained to it) after a result was written but before it reached the committer. */
    static final class FailRewrites implements MapFunction<CompactionCommittable, CompactionCommittable> {
        private int seen;

        @Override
        public CompactionCommittable map(CompactionCommittable c) {
            if (++seen % 3 == 0 && REWRITE_FAILURES.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new IllegalStateException("injected failure in a rewrite task");
            }
            return c;
        }
    }

    /** Fails the committer's task right after a commit, before the next checkpoint. */
    static final class FailAfterCommit implements MapFunction<CompactionEvent, CompactionEvent> {
        private int commits;

        @Override
        public CompactionEvent map(CompactionEvent e) {
            if (CompactionEvent.COMMITTED.equals(e.kind)
                    && ++commits % 2 == 0
                    && COMMIT_FAILURES.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new IllegalStateException("injected failure in the committer");
            }
            return e;
        }
    }
}
