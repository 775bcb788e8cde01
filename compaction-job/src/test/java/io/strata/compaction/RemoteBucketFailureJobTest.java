package io.strata.compaction;

import static io.strata.compaction.BucketFailureJobTest.damagedTable;
import static io.strata.compaction.JobTestSupport.contents;
import static io.strata.compaction.JobTestSupport.levels;
import static io.strata.compaction.JobTestSupport.runToEnd;
import static io.strata.compaction.JobTestSupport.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.compaction.BucketFailureJobTest.Damage;
import io.strata.compaction.BucketFailureJobTest.Damaged;
import io.strata.storage.testutil.MiniHdfs;
import io.strata.storage.testutil.S3Warehouse;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link BucketFailureJobTest}'s damaged-input cases on HDFS (a MiniDFSCluster) and on S3A against
 * s3proxy, both started once for the class in this JVM: a missing or truncated data file fails
 * its bucket alone, naming table, bucket and the file's full URI; the other buckets' compactions
 * are committed, the failed bucket's files stay, and with the file put back the scan equals the
 * model and the batch job compacts the bucket. S3 tables commit under {@link S3Warehouse}'s JDBC
 * lock (H2): s3proxy ignores conditional create.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class RemoteBucketFailureJobTest {
    @RegisterExtension
    static final MiniClusterExtension MINI = JobTestSupport.miniCluster();

    private static MiniDFSCluster hdfs;
    private static S3Warehouse s3;

    @BeforeAll
    static void startServers() throws Exception {
        hdfs = MiniHdfs.start("remote-failure-minidfs");
        s3 = S3Warehouse.start("remote-failure-s3");
        s3.installAsDefault();
    }

    @AfterAll
    static void stopServers() {
        if (hdfs != null) {
            hdfs.shutdown(true);
        }
        if (s3 != null) {
            s3.close();
        }
    }

    /** A new warehouse on {@code fs} ("hdfs" or "s3"). */
    private static String warehouse(String fs) {
        String name = "wh-" + UUID.randomUUID();
        return switch (fs) {
            case "hdfs" -> MiniHdfs.uri(hdfs, name);
            case "s3" -> s3.uri(name);
            default -> throw new IllegalArgumentException(fs);
        };
    }

    private static Map<String, String> options(String fs) {
        return fs.equals("s3") ? s3.commitLockOptions() : Map.of();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hdfs", "s3"})
    void aMissingFileFailsItsBucketAndTheOtherBucketsCommitThenPutBackTheJobCompactsIt(String fs) throws Exception {
        String wh = warehouse(fs);
        Damaged d = damagedTable(wh, "missing", Damage.MISSING, false, options(fs));
        assertThat(d.table().fileIO().scheme()).isEqualTo(fs.equals("s3") ? "s3a" : "hdfs");

        assertThatThrownBy(() -> runToEnd(spec(wh, "full", "batch", 2, "--table", "missing")))
                .satisfies(e -> {
                    d.assertReported(e, "data file is missing", "3 other buckets committed");
                    assertThat(BucketFailureJobTest.reported(e, 1))
                            .as("the file's full URI")
                            .contains("corrupt or unreadable file " + d.path() + ": ");
                });
        d.assertOnlyTheDamagedBucketIsUncompacted();

        runToEnd(spec(wh, "full", "batch", 2, "--table", "missing"));
        assertThat(levels(d.table()).values())
                .as("the bucket, its file put back, is compacted by the next run")
                .allMatch(l -> l.numberOfSortedRuns() == 1);
        assertThat(contents(d.table())).isEqualTo(d.model().contents());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hdfs", "s3"})
    void aTruncatedFileOfAPartitionedTableFailsItsBucketAndTheOtherBucketsCommit(String fs) throws Exception {
        String wh = warehouse(fs);
        Damaged d = damagedTable(wh, "truncated", Damage.TRUNCATED, true, options(fs));

        assertThatThrownBy(() -> runToEnd(spec(wh, "full", "batch", 2, "--table", "truncated")))
                .satisfies(e -> {
                    d.assertReported(e, "corrupt or unreadable file", "7 other buckets committed");
                    assertThat(BucketFailureJobTest.reported(e, 1))
                            .contains("corrupt or unreadable file " + d.path() + ": ")
                            .contains("the file has " + d.original().length / 2 + " bytes, the manifest records "
                                    + d.original().length);
                });
        d.assertOnlyTheDamagedBucketIsUncompacted();
    }
}
