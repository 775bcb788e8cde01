package io.strata.scheduler.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.strata.compaction.SessionCluster;
import io.strata.scheduler.SchedulerService;
import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.config.TableSettings.Compaction;
import io.strata.scheduler.config.TableSettings.FlinkCluster;
import io.strata.scheduler.support.ModelWriter;
import io.strata.scheduler.support.SchedulerTests;
import io.strata.scheduler.table.TableHealth;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.GenericRow;
import io.strata.storage.table.system.FilesTable;
import io.strata.storage.testutil.TestTables;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The scheduler's compactions on a real Flink session cluster (a JobManager and a TaskManager in
 * their own JVMs, from compaction-job's test jar), through its REST endpoint as configured with
 * {@code runs-on: rest}: the service's backlog compactions run there from one uploaded jar, a jar
 * the cluster lost is uploaded again, a failed job names its id and cause, and an interrupt
 * cancels the job over REST, or leaves it running when {@code cancel-on-shutdown} is false.
 */
class ClusterCompactionIT {
    private static final String MAIN = "io.strata.compaction.CompactionJob";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Under target/, not a temporary directory: the cluster's logs stay for a failure's reader. */
    private static Path dir;

    private static SessionCluster cluster;
    private static Path jar;

    @BeforeAll
    static void startCluster() throws Exception {
        dir = Path.of("target", "cluster-compaction-" + System.currentTimeMillis())
                .toAbsolutePath();
        jar = Path.of(System.getProperty("strata.shaded.jar")).toAbsolutePath().normalize();
        assertThat(jar)
                .as("the shaded job jar (compaction-job's package phase)")
                .isRegularFile();
        cluster = SessionCluster.start(Files.createDirectories(dir.resolve("cluster")));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static FlinkCluster flink(boolean cancelOnShutdown) {
        return new FlinkCluster("127.0.0.1", cluster.restPort(), jar, cancelOnShutdown, Duration.ofMillis(200));
    }

    @Test
    void theServicesBacklogCompactionsRunOnTheClusterFromOneUploadedJar() throws Exception {
        Path warehouse = dir.resolve("wh-backlog");
        SchedulerConfig config =
                SchedulerTests.config(warehouse, SchedulerTests.h2Store(dir.resolve("store-backlog")), """
                tables:
                  names: [db.events]
                defaults:
                  backlog-compaction:
                    poll-interval: 500 ms
                    max-sorted-runs: 3
                    max-level0-files: 100
                  compaction:
                    runs-on: rest
                    rest-address: 127.0.0.1:%d
                    job-jar: %s
                    poll-interval: 200 ms
                    parallelism: 2
                """.formatted(
                                cluster.restPort(), jar));
        Set<String> jarsBefore = jarIds();
        BlockingQueue<Outcome> outcomes = new LinkedBlockingQueue<>();
        // the table's own trigger agrees with the threshold, so the minor compaction picks the backlog
        try (ModelWriter feeder =
                new ModelWriter(warehouse.toString(), "events", Map.of("num-sorted-run.compaction-trigger", "3"), 16)) {
            for (int i = 0; i < 6; i++) {
                feeder.commitBatch(50);
            }
            try (SchedulerService s = SchedulerService.start(
                    config,
                    PlacedCompactions.of(warehouse.toString(), dir.toFile()),
                    Clock.systemUTC(),
                    outcomes::add)) {
                s.discoverNow();
                for (int round = 1; round <= 2; round++) {
                    int runsBefore = TableHealth.probe(feeder.table()).maxSortedRuns();
                    CompactionReport r = awaitCompacted(outcomes).report();
                    assertThat(r.strategy()).isEqualTo(CompactStrategy.MINOR);
                    assertThat(r.buckets()).as("round %d: %s", round, r).isEqualTo(2);
                    assertThat(r.sortedRunsAfter()).as("round %d: %s", round, r).isLessThan(r.sortedRunsBefore());
                    assertThat(r.committedSnapshots()).isNotEmpty();
                    assertThat(TableHealth.probe(feeder.table()).maxSortedRuns())
                            .as("round %d: sorted runs of the worst bucket", round)
                            .isLessThan(runsBefore)
                            .isLessThanOrEqualTo(3);
                    assertThat(scan(feeder))
                            .as("round %d: the table reads as written", round)
                            .isEqualTo(feeder.model());
                    for (int i = 0; i < 5; i++) {
                        feeder.commitBatch(50);
                    }
                }
            }
        }
        Set<String> uploaded = jarIds();
        uploaded.removeAll(jarsBefore);
        assertThat(uploaded)
                .as("jars this scheduler uploaded for its compactions")
                .hasSize(1);
        List<JsonNode> jobs = jobsNamed("strata compaction db.events (minor, batch)");
        assertThat(jobs).hasSizeGreaterThanOrEqualTo(2);
        assertThat(jobs).allSatisfy(j -> assertThat(j.path("state").asText()).isEqualTo("FINISHED"));
    }

    @Test
    void aJarTheClusterLostIsUploadedAgain() throws Exception {
        Path warehouse = dir.resolve("wh-reupload");
        try (ModelWriter feeder = new ModelWriter(warehouse.toString(), "t", Map.of(), 17);
                RestCompactionRunner runner = new RestCompactionRunner(warehouse.toString())) {
            Set<String> before = jarIds();
            for (int i = 0; i < 4; i++) {
                feeder.commitBatch(30);
            }
            runner.compact("db.t", CompactStrategy.FULL, Compaction.on(flink(true), 1));
            Set<String> first = jarIds();
            first.removeAll(before);
            assertThat(first).hasSize(1);
            assertThat(cluster.delete("/jars/" + first.iterator().next())).isEqualTo(200);

            for (int i = 0; i < 4; i++) {
                feeder.commitBatch(30);
            }
            CompactionReport r = runner.compact("db.t", CompactStrategy.FULL, Compaction.on(flink(true), 1));
            assertThat(r.sortedRunsAfter()).as("%s", r).isEqualTo(2);
            Set<String> second = jarIds();
            second.removeAll(before);
            assertThat(second).as("the jar uploaded again").hasSize(1).doesNotContainAnyElementsOf(first);
            assertThat(scan(feeder)).isEqualTo(feeder.model());
        }
        assertThat(Thread.getAllStackTraces().keySet().stream()
                        .filter(Thread::isAlive)
                        .map(Thread::getName)
                        .filter(n -> n.startsWith("strata-flink-rest-") || n.startsWith("flink-rest-client-netty")))
                .as("threads of the closed runner's REST client")
                .isEmpty();
    }

    @Test
    void aJobThatFailsOnTheClusterThrowsItsIdAndCause() throws Exception {
        Path warehouse = dir.resolve("wh-failing");
        try (ModelWriter feeder = new ModelWriter(warehouse.toString(), "broken", Map.of(), 18);
                RestCompactionRunner runner = new RestCompactionRunner(warehouse.toString())) {
            for (int i = 0; i < 3; i++) {
                feeder.commitBatch(30);
            }
            String lost = FilesTable.rows(feeder.table(), null).get(0).file.fileName();
            try (Stream<Path> files = Files.walk(warehouse)) {
                Path file = files.filter(f -> f.getFileName().toString().equals(lost))
                        .findFirst()
                        .orElseThrow();
                Files.delete(file);
            }
            assertThatThrownBy(() -> runner.compact("db.broken", CompactStrategy.FULL, Compaction.on(flink(true), 1)))
                    .isInstanceOf(ClusterJobException.class)
                    .satisfies(e -> {
                        String id = ((ClusterJobException) e).jobId();
                        assertThat(id).matches("[0-9a-f]{32}");
                        assertThat(e.getMessage())
                                .contains("db.broken")
                                .contains(id)
                                .contains("ended FAILED")
                                .contains(lost);
                        assertThat(state(id)).isEqualTo("FAILED");
                    });
        }
    }

    @Test
    void anInterruptCancelsTheJobOverRestOrLeavesItRunning() throws Exception {
        Path warehouse = dir.resolve("wh-interrupt");
        String blockerJob = null;
        try (ModelWriter blocker = new ModelWriter(warehouse.toString(), "blocker", Map.of(), 19);
                ModelWriter slow = new ModelWriter(warehouse.toString(), "slow", Map.of(), 20);
                RestCompactionRunner runner = new RestCompactionRunner(warehouse.toString())) {
            blocker.commitBatch(10);
            for (int i = 0; i < 4; i++) {
                slow.commitBatch(30);
            }
            // a streaming job on both of the cluster's slots: the compaction waits for a slot, running
            String blockerJar = cluster.uploadJar(jar);
            HttpResponse<String> run = cluster.runJar(
                    blockerJar,
                    MAIN,
                    List.of(
                            "--warehouse",
                            warehouse.toString(),
                            "--table",
                            "db.blocker",
                            "--mode",
                            "streaming",
                            "--parallelism",
                            "2"));
            assertThat(run.statusCode()).as(run.body()).isEqualTo(200);
            blockerJob = JSON.readTree(run.body()).path("jobid").asText();
            awaitNoFreeSlot();
            long latest = slow.table().snapshotManager().latestId().orElseThrow();

            String cancelled = interruptWhileRunning(runner, Compaction.on(flink(true), 2));
            assertThat(awaitTerminal(cancelled))
                    .as("the job interrupted with cancel-on-shutdown")
                    .isEqualTo("CANCELED");
            assertThat(slow.table().snapshotManager().latestId().orElseThrow())
                    .as("nothing committed by the cancelled job")
                    .isEqualTo(latest);

            String leftRunning = interruptWhileRunning(runner, Compaction.on(flink(false), 2));
            assertThat(state(leftRunning))
                    .as("the job interrupted without cancel-on-shutdown")
                    .isEqualTo("RUNNING");
            assertThat(cluster.cancel(blockerJob)).isEqualTo(202);
            assertThat(awaitTerminal(leftRunning))
                    .as("it runs on once it has slots")
                    .isEqualTo("FINISHED");
            assertThat(TableHealth.probe(slow.table()).maxSortedRuns()).isEqualTo(1);
            assertThat(scan(slow)).isEqualTo(slow.model());
        } finally {
            if (blockerJob != null && !isTerminal(state(blockerJob))) {
                cluster.cancel(blockerJob);
            }
        }
    }

    /**
     * Starts a full compaction of db.slow on a thread of its own, interrupts the thread once the
     * cluster has the job, and checks the runner ends with the interrupt; returns the job's id.
     */
    private static String interruptWhileRunning(RestCompactionRunner runner, Compaction placement) throws Exception {
        String name = "strata compaction db.slow (full, batch)";
        Set<String> known =
                jobsNamed(name).stream().map(j -> j.path("jid").asText()).collect(Collectors.toSet());
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread caller = new Thread(() -> {
            try {
                runner.compact("db.slow", CompactStrategy.FULL, placement);
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        caller.start();
        String job = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (job == null && System.nanoTime() < deadline) {
            for (JsonNode j : jobsNamed(name)) {
                if (!known.contains(j.path("jid").asText())) {
                    job = j.path("jid").asText();
                }
            }
            Thread.sleep(100);
        }
        assertThat(job).as("the compaction job on the cluster").isNotNull();
        assertThat(state(job)).as("waiting for a slot").isEqualTo("RUNNING");
        caller.interrupt();
        caller.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(caller.isAlive())
                .as("the runner returns after the interrupt")
                .isFalse();
        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
        return job;
    }

    private static Outcome.Compacted awaitCompacted(BlockingQueue<Outcome> outcomes) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            Outcome o = outcomes.poll(1, TimeUnit.SECONDS);
            if (o instanceof Outcome.Compacted c) {
                return c;
            }
        }
        throw new AssertionError("no backlog compaction within 90 s; JobManager log:\n" + cluster.tail("jobmanager"));
    }

    private static Map<Long, String> scan(ModelWriter feeder) {
        Map<Long, String> rows = new TreeMap<>();
        for (GenericRow row : TestTables.scan(feeder.table())) {
            rows.put((Long) row.get(0), (String) row.get(1));
        }
        return rows;
    }

    private static Set<String> jarIds() throws Exception {
        Set<String> ids = new TreeSet<>();
        cluster.get("/jars").path("files").forEach(f -> ids.add(f.path("id").asText()));
        return ids;
    }

    private static List<JsonNode> jobsNamed(String name) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        cluster.get("/jobs/overview").path("jobs").forEach(j -> {
            if (j.path("name").asText().equals(name)) {
                out.add(j);
            }
        });
        return out;
    }

    private static String state(String jobId) throws Exception {
        return cluster.get("/jobs/" + jobId).path("state").asText();
    }

    private static boolean isTerminal(String state) {
        return state.equals("FINISHED") || state.equals("FAILED") || state.equals("CANCELED");
    }

    private static String awaitTerminal(String jobId) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            String s = state(jobId);
            if (isTerminal(s)) {
                return s;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("job " + jobId + " did not end within 60 s");
    }

    private static void awaitNoFreeSlot() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (cluster.get("/overview").path("slots-available").asInt(-1) == 0) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the blocking job did not take both slots within 60 s");
    }
}
