package io.strata.compaction;

import static io.strata.compaction.JobTestSupport.contents;
import static io.strata.compaction.JobTestSupport.create;
import static io.strata.compaction.JobTestSupport.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.strata.compaction.job.JobSpec;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.maintenance.OrphanCleanResult;
import io.strata.storage.maintenance.TableFiles;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.snapshot.SnapshotNotFoundException;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Expiration (two at once) and orphan cleanup racing a writer, a streaming compaction job and a
 * reader: the job never fails (it runs without restarts, so any failure would end it) and keeps
 * landing compactions while the snapshots it planned from expire (paimon #9533); no read fails
 * except by being told its snapshot expired; no file a retained snapshot needs is lost.
 */
class MaintenanceWithStreamingJobTest {
    @RegisterExtension
    static final MiniClusterExtension MINI = JobTestSupport.miniCluster();

    @TempDir
    Path dir;

    private static final Map<String, String> AGGRESSIVE =
            Map.of("snapshot.num-retained.min", "3", "snapshot.time-retained", "0 s", "snapshot.expire.limit", "4");

    @Test
    @DisplayName("paimon #9533: expirations and orphan cleanup racing a writer and a streaming compaction job lose"
            + " no live file, fail no read, and the job keeps compacting while its planned snapshots expire")
    void paimon9533ExpirationAndOrphanCleanupRaceAWriterAndAStreamingJob() throws Exception {
        String wh = dir.toString();
        FileStoreTable t =
                create(wh, "live", true, 2, Map.of("changelog-producer", "lookup", "manifest.merge-min-count", "3"));
        JobSpec spec = spec(
                wh,
                "minor",
                "streaming",
                2,
                "--table",
                "live",
                "--discovery-interval",
                "100 ms",
                "--checkpoint-interval",
                "300 ms");
        // no restarts: a failure of any job task ends the job, and the test sees it
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(JobTestSupport.restarts(0));
        CompactionPipeline.build(env, spec).sinkTo(new DiscardingSink<>());
        JobClient job = env.executeAsync("streaming compaction beside maintenance");

        TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
        AtomicBoolean writing = new AtomicBoolean(true);
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        AtomicInteger expirations = new AtomicInteger();
        AtomicInteger cleanups = new AtomicInteger();
        Set<Long> jobLandings = ConcurrentHashMap.newKeySet();
        List<Thread> threads = new ArrayList<>();
        threads.add(new Thread(
                () -> {
                    Random rnd = new Random(71);
                    try (TableWrite w = t.newWrite("writer");
                            TableCommit c = t.newCommit("writer")) {
                        for (int i = 1; i <= 60; i++) {
                            for (int r = 0; r < 40; r++) {
                                GenericRow row = TableModel.randomRow(rnd, 200);
                                model.apply(row);
                                w.write(row);
                            }
                            c.commit(i, w.prepareCommit());
                            Thread.sleep(50);
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    } finally {
                        writing.set(false);
                    }
                },
                "writer"));
        for (int e = 0; e < 2; e++) {
            threads.add(new Thread(
                    () -> {
                        while (writing.get()) {
                            try {
                                t.copyWithOptions(AGGRESSIVE)
                                        .newSnapshotExpiration()
                                        .expire();
                                expirations.incrementAndGet();
                            } catch (SnapshotNotFoundException concurrent) {
                                // the other expiration removed a snapshot this one planned from: it failed closed
                            } catch (Throwable x) {
                                failures.add(x);
                                return;
                            }
                        }
                    },
                    "expiration-" + e));
        }
        threads.add(new Thread(
                () -> {
                    while (writing.get()) {
                        try {
                            OrphanCleanResult r =
                                    t.newOrphanFilesClean(Duration.ofHours(1)).clean();
                            if (!r.deleted().isEmpty()) {
                                failures.add(new AssertionError("orphan cleanup deleted young files " + r.deleted()));
                            }
                            cleanups.incrementAndGet();
                        } catch (Throwable x) {
                            failures.add(x);
                            return;
                        }
                    }
                },
                "orphan-clean"));
        threads.add(new Thread(
                () -> {
                    while (writing.get()) {
                        try {
                            t.snapshotManager()
                                    .latest()
                                    .filter(s -> s.commitUser().equals(spec.commitUser()))
                                    .ifPresent(s -> jobLandings.add(s.id()));
                            TestTables.scan(t);
                        } catch (SnapshotNotFoundException expired) {
                            if (!String.valueOf(expired.getMessage()).contains("has expired")) {
                                failures.add(expired);
                                return;
                            }
                        } catch (Throwable x) {
                            failures.add(x);
                            return;
                        }
                    }
                },
                "reader"));

        threads.forEach(Thread::start);
        for (Thread th : threads) {
            th.join(180_000);
            assertThat(th.isAlive()).as("%s finished", th.getName()).isFalse();
        }
        // the writer stopped: the job compacts every level-0 file left (lookup forces them up), which it
        // can only do if it was not stuck on a plan whose snapshot expired
        StreamingCompactionJobTest.waitFor(
                () -> JobTestSupport.levels(t).values().stream()
                        .allMatch(l -> l.level0().isEmpty()),
                60_000,
                "every level-0 file compacted",
                () -> StreamingCompactionJobTest.jobState(job) + StreamingCompactionJobTest.describe(t));
        JobStatus status = job.getJobStatus().get();
        String state = StreamingCompactionJobTest.jobState(job);
        job.cancel().get();

        failures.forEach(Throwable::printStackTrace); // the threads' stacks, for a failure below
        assertThat(failures).as("failures of the racing threads").isEmpty();
        assertThat(status).as("the job ran through: %s", state).isEqualTo(JobStatus.RUNNING);
        assertThat(expirations.get()).as("expirations ran").isPositive();
        assertThat(cleanups.get()).as("orphan cleanups ran").isPositive();
        long earliest = t.snapshotManager().earliestId().getAsLong();
        Snapshot latest = t.snapshotManager().latest().orElseThrow();
        for (long id = earliest; id <= latest.id(); id++) {
            assertThat(TestTables.scan(t.newReadBuilder().withSnapshot(id)))
                    .as("snapshot %d", id)
                    .isNotNull();
        }
        assertThat(earliest)
                .as("expirations removed snapshots the job had planned from")
                .isGreaterThan(20);
        assertThat(jobLandings)
                .as("the job's compactions the reader saw land during the race")
                .isNotEmpty();
        assertThat(latest.commitUser())
                .as("the job's compaction after the writer stopped")
                .isEqualTo(spec.commitUser());
        assertThat(contents(t)).isEqualTo(model.contents());
        assertThat(TableFiles.onDisk(t)).as("every referenced file is on disk").containsAll(TableFiles.referenced(t));
    }
}
