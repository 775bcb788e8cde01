package io.strata.compaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.compaction.job.JobSpec;
import io.strata.compaction.job.JobTables;
import io.strata.compaction.job.PartitionFilterSpec;
import io.strata.compaction.rewrite.CompactionCommittable;
import io.strata.compaction.source.CompactionWork;
import io.strata.compaction.source.CompactionWorkSerializer;
import io.strata.storage.commit.CommitMessage;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.compact.TableCompactor;
import io.strata.storage.data.BucketId;
import io.strata.storage.format.ColumnStats;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.format.FileSource;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.options.WriteOptions;
import io.strata.storage.schema.Schema;
import io.strata.storage.schema.TableSchema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Partition filters, versioned forms and file tags: the small parts the job relies on. */
class JobPartsTest {
    @TempDir
    Path dir;

    private TableSchema schema() {
        return Catalog.open(dir.toString())
                .createTable(
                        "db",
                        "p",
                        Schema.newBuilder()
                                .column("dt", "DATE NOT NULL")
                                .column("region", "STRING NOT NULL")
                                .column("id", "BIGINT NOT NULL")
                                .primaryKey("dt", "region", "id")
                                .partitionKeys("dt", "region")
                                .option("bucket", "2")
                                .build())
                .schema();
    }

    @Test
    void whereFiltersPartitionsByTypedComparisons() {
        TableSchema s = schema();
        int nov1 = (int) LocalDate.parse("2026-11-01").toEpochDay();
        EntryFilter f = PartitionFilterSpec.parse(List.of(), "dt >= '2026-11-01' AND region = 'eu'")
                .toEntryFilter("db.p", s);
        assertThat(f.accept(new Object[] {nov1, "eu"}, 0)).isTrue();
        assertThat(f.accept(new Object[] {nov1 + 3, "eu"}, 1)).isTrue();
        assertThat(f.accept(new Object[] {nov1 - 1, "eu"}, 0)).isFalse();
        assertThat(f.accept(new Object[] {nov1, "us"}, 0)).isFalse();
        assertThat(f.mayContainPartitions(new Object[] {nov1 - 10, "aa"}, new Object[] {nov1 - 1, "zz"}))
                .isFalse();
        assertThat(f.mayContainPartitions(new Object[] {nov1 - 10, "aa"}, new Object[] {nov1, "zz"}))
                .isTrue();

        EntryFilter any = PartitionFilterSpec.parse(List.of("dt=2026-11-01,region=eu", "region=us"), null)
                .toEntryFilter("db.p", s);
        assertThat(any.accept(new Object[] {nov1 + 5, "us"}, 0)).isTrue();
        assertThat(any.accept(new Object[] {nov1 + 5, "eu"}, 0)).isFalse();
    }

    @Test
    void badFiltersNameTheTableAndTheColumn() {
        TableSchema s = schema();
        assertThatThrownBy(() -> PartitionFilterSpec.parse(List.of(), "id = 3").toEntryFilter("db.p", s))
                .hasMessageContaining("db.p")
                .hasMessageContaining("'id' is not a partition column");
        assertThatThrownBy(() ->
                        PartitionFilterSpec.parse(List.of(), "dt = 'yesterday'").toEntryFilter("db.p", s))
                .hasMessageContaining("db.p")
                .hasMessageContaining("'yesterday' is not a valid date");
        assertThatThrownBy(() -> PartitionFilterSpec.parse(List.of(), "dt ~ 3"))
                .hasMessageContaining("cannot parse 'dt ~ 3'");
        assertThatThrownBy(() -> PartitionFilterSpec.parse(List.of("dt"), null)).hasMessageContaining("k=v");
    }

    @Test
    void workAndCommittableRoundTripAndRejectUnknownVersions() throws IOException {
        CompactionWork w =
                new CompactionWork("t", BucketId.of(new Object[] {19000, "eu"}, 3), 42, CompactStrategy.LOOKUP);
        CompactionWorkSerializer ser = new CompactionWorkSerializer();
        CompactionWork back = ser.deserialize(ser.getVersion(), ser.serialize(w));
        assertThat(back.splitId()).isEqualTo(w.splitId());
        assertThat(back.bucketId()).isEqualTo(BucketId.of(new Object[] {19000, "eu"}, 3));
        assertThat(back.strategyValue()).isEqualTo(CompactStrategy.LOOKUP);
        assertThatThrownBy(() -> ser.deserialize(99, ser.serialize(w))).hasMessageContaining("version 99");

        CompactionCommittable c = new CompactionCommittable();
        c.table = "db.t";
        c.strategy = "FULL";
        c.plannedFromSnapshot = 7;
        c.setCommitMessage(CommitMessage.compact(new Object[] {1}, 2, 4, List.of(), List.of()));
        c.rowsRead = 10;
        c.sortedRunsBefore = 5;
        CompactionCommittable c2 = CompactionCommittable.fromBytes(c.toBytes());
        assertThat(c2.commitMessage()).isEqualTo(c.commitMessage());
        assertThat(c2.rowsRead).isEqualTo(10);
        assertThat(c2.sortedRunsBefore).isEqualTo(5);
        byte[] bad = c.toBytes();
        bad[3] = 9;
        assertThatThrownBy(() -> CompactionCommittable.fromBytes(bad)).hasMessageContaining("version 9");
    }

    @Test
    void shippedFileListsRoundTripAndVersionOneWorksAreStillRead() throws IOException {
        DataFileMeta f = new DataFileMeta(
                "data-1.parquet",
                1234,
                10,
                1,
                new Object[] {1L},
                new Object[] {9L},
                3,
                12,
                0,
                0,
                List.of(new ColumnStats(0, 1L, 9L, 0)),
                77,
                FileSource.APPEND);
        CompactionWork w = new CompactionWork("t", BucketId.of(new Object[] {5}, 1), 8, CompactStrategy.FULL)
                .withFiles(List.of(f, f));
        CompactionWorkSerializer ser = new CompactionWorkSerializer();
        CompactionWork back = ser.deserialize(ser.getVersion(), ser.serialize(w));
        assertThat(back.filesValue()).hasValue(List.of(f, f));
        assertThat(back.splitId()).isEqualTo(w.splitId());

        CompactionWork none = new CompactionWork("t", BucketId.of(new Object[] {5}, 1), 8, CompactStrategy.FULL);
        assertThat(ser.deserialize(ser.getVersion(), ser.serialize(none)).filesValue())
                .isEmpty();

        // version 1, as a build before file lists wrote it
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bos);
        out.writeUTF("t");
        out.writeInt(none.partition.length);
        out.write(none.partition);
        out.writeInt(1);
        out.writeLong(8);
        out.writeUTF("FULL");
        CompactionWork v1 = ser.deserialize(1, bos.toByteArray());
        assertThat(v1.splitId()).isEqualTo(none.splitId());
        assertThat(v1.filesValue()).isEmpty();

        // a bucket with too many files to ship is planned from the manifests instead
        List<DataFileMeta> many = Collections.nCopies(20_000, f);
        assertThat(new CompactionWork("t", BucketId.of(new Object[] {5}, 1), 8, CompactStrategy.FULL)
                        .withFiles(many)
                        .files)
                .isNull();

        CompactionWork damaged = ser.deserialize(ser.getVersion(), ser.serialize(w));
        damaged.files = Arrays.copyOf(damaged.files, damaged.files.length - 3);
        assertThatThrownBy(damaged::filesValue)
                .hasMessageContaining("corrupt file list of compaction work")
                .hasMessageContaining("t, partition=[5], bucket=1");
    }

    @Test
    void anInvalidTableOptionFailsWhenThePipelineIsBuiltNamingTableAndOption() {
        JobTestSupport.create(dir.toString(), "t", false, 1, Map.of());
        JobSpec spec = JobTestSupport.spec(
                dir.toString(), "full", "batch", 1, "--table", "t", "--table-option", "target-file-sise=64 mb");
        assertThatThrownBy(() -> CompactionPipeline.build(StreamExecutionEnvironment.getExecutionEnvironment(), spec))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("db.t")
                .hasMessageContaining("'target-file-sise'")
                .hasMessageContaining("target-file-size");
    }

    @Test
    void aTableOptionOutOfRangeIsRefusedWhenThePipelineIsBuilt() {
        JobTestSupport.create(
                dir.toString(),
                "t",
                false,
                2,
                Map.of("commit.lock.class", "io.strata.storage.fs.CommitLockTest$JvmLock"));
        Map<String, String> cases = Map.of(
                "num-sorted-run.compaction-trigger=0",
                        "table db.t: option 'num-sorted-run.compaction-trigger' = 0 is out of range: must be between 1 "
                                + "and 1000",
                "target-file-size=0 mb", "table db.t: option 'target-file-size' = 0 mb is out of range: must be > 0",
                "num-sorted-run.stop-trigger=2",
                        "table db.t: option 'num-sorted-run.stop-trigger' = 2 must be >= option "
                                + "'num-sorted-run.compaction-trigger' = 3");
        cases.forEach((option, message) -> {
            JobSpec spec =
                    JobTestSupport.spec(dir.toString(), "full", "batch", 1, "--table", "t", "--table-option", option);
            assertThatThrownBy(
                            () -> CompactionPipeline.build(StreamExecutionEnvironment.getExecutionEnvironment(), spec))
                    .as(option)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(message);
        });
    }

    @Test
    void aTableOptionThatDefinesTheTableIsRefusedWhenThePipelineIsBuilt() {
        JobTestSupport.create(
                dir.toString(),
                "t",
                false,
                2,
                Map.of("commit.lock.class", "io.strata.storage.fs.CommitLockTest$JvmLock"));
        for (String option : List.of(
                "commit.lock.class=io.strata.storage.table.RunOptionsTest$NoLock",
                "bucket=4",
                "changelog-producer=lookup",
                "merge-engine=first-row")) {
            JobSpec spec =
                    JobTestSupport.spec(dir.toString(), "full", "batch", 1, "--table", "t", "--table-option", option);
            String key = option.substring(0, option.indexOf('='));
            assertThatThrownBy(
                            () -> CompactionPipeline.build(StreamExecutionEnvironment.getExecutionEnvironment(), spec))
                    .as(option)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("table db.t")
                    .hasMessageContaining("'" + key + "'")
                    .hasMessageContaining("defines the table");
        }
        JobSpec lock = JobTestSupport.spec(
                dir.toString(), "full", "batch", 1, "--table", "t", "--table-option", "commit.lock.class=x.Lock");
        assertThatThrownBy(() -> new JobTables(lock, 0).table("t"))
                .hasMessageContaining("commit.lock.class=io.strata.storage.fs.CommitLockTest$JvmLock");

        JobSpec tuned = JobTestSupport.spec(
                dir.toString(),
                "full",
                "batch",
                1,
                "--table",
                "t",
                "--table-option",
                "bucket=2",
                "--table-option",
                "num-sorted-run.compaction-trigger=8",
                "--table-option",
                "target-file-size=64 mb");
        FileStoreTable handle = new JobTables(tuned, 0).table("t");
        assertThat(handle.schema().numBuckets()).isEqualTo(2);
        assertThat(handle.schema().tableOptions().get(WriteOptions.TARGET_FILE_SIZE))
                .isEqualTo(64L << 20);
        assertThat(TableCompactor.numLevels(handle.schema().tableOptions()))
                .as("the table's levels (trigger 3 + 1), not the job's trigger's")
                .isEqualTo(4);
    }

    @Test
    void argumentsRoundTripThroughTheCommandLineAJarRunSends() {
        CompactionJob.Args given = picocli.CommandLine.populateCommand(
                new CompactionJob.Args(),
                "--warehouse",
                "hdfs://nn/w",
                "--table",
                "db.t",
                "--where",
                "region = '-eu'",
                "--strategy",
                "full",
                "--parallelism",
                "3",
                "--partial-commit-every",
                "5",
                "--table-option",
                "target-file-size=-1",
                "--commit-user",
                "-user");
        CompactionJob.Args parsed = picocli.CommandLine.populateCommand(
                new CompactionJob.Args(), given.toArgv().toArray(new String[0]));
        JobSpec a = given.toSpec();
        JobSpec b = parsed.toSpec();
        assertThat(b.toString()).isEqualTo(a.toString());
        assertThat(b.partitions().toString()).isEqualTo(a.partitions().toString());
        assertThat(b.tableOptions()).isEqualTo(Map.of("target-file-size", "-1"));
        assertThat(b.partialCommitEvery()).isEqualTo(5);
        assertThat(b.discoveryIntervalMillis()).isEqualTo(a.discoveryIntervalMillis());
        assertThat(b.commitUser()).isEqualTo("-user");

        CompactionJob.Args byHand = new CompactionJob.Args();
        byHand.warehouse = "/w";
        byHand.tables = List.of("db.t");
        assertThat(byHand.toArgv())
                .as("fields left null are left out")
                .containsExactly("--warehouse=/w", "--table=db.t", "--parallelism=0", "--partial-commit-every=0");
    }

    @Test
    void fileTagsIdentifyTheJobAndTheAttempt() {
        String prefix = JobTables.filePrefix("user-a", 3);
        assertThat(JobTables.attemptOf(prefix + "-data-uuid-0.parquet", "user-a"))
                .isEqualTo(3);
        assertThat(JobTables.attemptOf(prefix + "-data-uuid-0.parquet", "user-b"))
                .isEqualTo(-1);
        assertThat(JobTables.attemptOf("data-uuid-0.parquet", "user-a")).isEqualTo(-1);
    }

    /** A cluster job's failure as the scheduler shows it: the first exception that is not Flink's on the first line. */
    @Test
    void aClusterJobsFailureShowsTheJobsOwnExceptionFirst() {
        String suppressed =
                "org.apache.flink.runtime.JobException: Recovery is suppressed by NoRestartBackoffTimeStrategy";
        String ours = "io.strata.compaction.commit.CompactionFailedException: table db.t, bucket 2: corrupt file f";
        assertThat(RestSubmitter.causeFirst(suppressed + "\nCaused by: " + ours))
                .isEqualTo(ours + "\nunder: " + suppressed);
        assertThat(RestSubmitter.causeFirst(
                        suppressed + "\nCaused by: java.util.concurrent.CompletionException: x\nCaused by: " + ours))
                .isEqualTo(
                        ours + "\nunder: " + suppressed + "\nCaused by: java.util.concurrent.CompletionException: x");
        assertThat(RestSubmitter.causeFirst(ours + "\nCaused by: java.io.IOException: disk"))
                .as("already first")
                .isEqualTo(ours + "\nCaused by: java.io.IOException: disk");
        assertThat(RestSubmitter.causeFirst(suppressed)).isEqualTo(suppressed);
    }
}
