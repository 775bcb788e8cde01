package io.strata.compaction;

import static io.strata.compaction.JobTestSupport.create;
import static io.strata.compaction.JobTestSupport.ingest;
import static io.strata.compaction.JobTestSupport.levels;
import static io.strata.compaction.JobTestSupport.runToEnd;
import static io.strata.compaction.JobTestSupport.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.compaction.commit.CompactionFailedException;
import io.strata.compaction.job.JobSpec;
import io.strata.storage.data.BucketId;
import io.strata.storage.data.PartitionPath;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.maintenance.ReachableFiles;
import io.strata.storage.mergetree.Levels;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.testutil.TableModel;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A damaged data file fails the compaction of its bucket only: the job ends with an error naming
 * the table, bucket and file at the top, that bucket's files stay as they were, the other buckets'
 * compactions are committed, and no uncommitted output is left behind.
 */
class BucketFailureJobTest {
    @RegisterExtension
    static final MiniClusterExtension MINI = JobTestSupport.miniCluster();

    @TempDir
    Path dir;

    /** How a test damages the chosen file. */
    private enum Damage {
        MISSING,
        GARBAGE
    }

    @Test
    void aMissingFileFailsItsBucketAndTheOtherBucketsCommitInBatch() throws Exception {
        Damaged d = damagedTable("missing", Damage.MISSING);

        assertThatThrownBy(() -> runToEnd(spec(dir.toString(), "full", "batch", 2, "--table", "missing")))
                .satisfies(e -> d.assertReported(e, "missing", true));

        d.assertOnlyTheDamagedBucketIsUncompacted(true);
    }

    @Test
    void aGarbageFileFailsItsBucketAndTheOtherBucketsCommitInBatch() throws Exception {
        Damaged d = damagedTable("garbage", Damage.GARBAGE);

        assertThatThrownBy(() -> runToEnd(spec(dir.toString(), "full", "batch", 2, "--table", "garbage")))
                .satisfies(e -> d.assertReported(e, "garbage", true));

        d.assertOnlyTheDamagedBucketIsUncompacted(true);
    }

    @Test
    void aStreamingJobCommitsTheOtherBucketsThenFails() throws Exception {
        Damaged d = damagedTable("stream", Damage.MISSING);
        JobSpec spec = spec(dir.toString(), "minor", "streaming", 2, "--table", "stream");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(JobTestSupport.restarts(0));
        CompactionPipeline.build(env, spec);
        JobClient job = env.executeAsync("damaged bucket, streaming");

        assertThatThrownBy(() -> job.getJobExecutionResult().get(120, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .satisfies(e -> d.assertReported(e, "stream", false));

        // the job failed at the first checkpoint after the failure: what reached the committer by
        // then is committed, the rest is left to the job's restart
        d.assertOnlyTheDamagedBucketIsUncompacted(false);
    }

    /** A table of 4 buckets with level-0 runs in each, and one data file of one bucket damaged. */
    private Damaged damagedTable(String name, Damage damage) throws IOException {
        FileStoreTable t = create(dir.toString(), name, false, 4, Map.of());
        ingest(t, new TableModel(TableModel.Mode.DEDUPLICATE), new Random(7), 4, 400, 300, "writer", 1);
        Map<BucketId, Levels> before = levels(t);
        assertThat(before).as("every bucket has data").hasSize(4);
        BucketId bucket = before.keySet().iterator().next();
        DataFileMeta file = before.get(bucket).allFiles().get(0);
        Path path = Path.of(t.paths()
                .dataFile(
                        PartitionPath.of(t.schema().partitionKeys(), bucket.partition()),
                        bucket.bucket(),
                        file.fileName())
                .toUri());
        if (damage == Damage.MISSING) {
            Files.delete(path);
        } else {
            byte[] junk = new byte[(int) Files.size(path)];
            new Random(3).nextBytes(junk);
            try (RandomAccessFile f = new RandomAccessFile(path.toFile(), "rw")) {
                f.write(junk);
            }
        }
        return new Damaged(t, before, bucket, file);
    }

    private record Damaged(FileStoreTable table, Map<BucketId, Levels> before, BucketId bucket, DataFileMeta file) {
        /** The message the user sees first names the table, the bucket and the damaged file. */
        /** With {@code allCommitted}, the other three buckets were committed before the job failed. */
        void assertReported(Throwable thrown, String tableName, boolean allCommitted) {
            CompactionFailedException failure = ExceptionUtils.findThrowable(thrown, CompactionFailedException.class)
                    .orElseThrow(() -> new AssertionError("no CompactionFailedException in the cause chain", thrown));
            assertThat(failure.getMessage())
                    .contains("table db." + tableName)
                    .contains("bucket " + bucket.bucket())
                    .contains(file.fileName())
                    .contains(allCommitted ? "3 other buckets committed" : "other bucket");
            assertThat(failure.failedBuckets()).isEqualTo(1);
            assertThat(JobFailures.describe(thrown)).isEqualTo(failure.getMessage());
        }

        /** With {@code allOthers}, every other bucket was compacted; else those that were committed. */
        void assertOnlyTheDamagedBucketIsUncompacted(boolean allOthers) throws IOException {
            Map<BucketId, Levels> after = levels(table);
            assertThat(names(after.get(bucket).allFiles()))
                    .as("the damaged bucket is unchanged")
                    .isEqualTo(names(before.get(bucket).allFiles()));
            for (Map.Entry<BucketId, Levels> e : after.entrySet()) {
                if (!e.getKey().equals(bucket) && allOthers) {
                    assertThat(e.getValue().numberOfSortedRuns())
                            .as("bucket %s compacted", e.getKey())
                            .isLessThan(before.get(e.getKey()).numberOfSortedRuns());
                }
            }
            Set<String> referenced = new ReachableFiles(table.context()).referencedByRetainedSnapshots();
            Set<String> onDisk = new ReachableFiles(table.context())
                    .dataDirectoryFiles(n -> !n.startsWith(".")).stream()
                            .map(p -> p.getName())
                            .collect(Collectors.toSet());
            if (allOthers) {
                assertThat(onDisk).as("no uncommitted output left behind").isSubsetOf(referenced);
            } else {
                // results that reached the committer after its last checkpoint went with the failed
                // attempt: its outputs are removed by the restarted job or orphan cleanup, never referenced
                assertThat(onDisk.stream().filter(n -> !referenced.contains(n)))
                        .as("what is left unreferenced is the failed attempt's compaction output")
                        .allMatch(n -> n.startsWith("compact-"));
            }
        }

        private static Set<String> names(List<DataFileMeta> files) {
            Set<String> s = new HashSet<>();
            files.forEach(f -> s.add(f.fileName()));
            return s;
        }
    }
}
