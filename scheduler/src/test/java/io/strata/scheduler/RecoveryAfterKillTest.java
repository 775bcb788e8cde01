package io.strata.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.scheduler.config.ConfigLoader;
import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.history.Run;
import io.strata.scheduler.history.RunOutcome;
import io.strata.scheduler.lease.Lease;
import io.strata.scheduler.ops.CompactionReport;
import io.strata.scheduler.ops.CompactionRunner;
import io.strata.scheduler.ops.Outcome;
import io.strata.scheduler.quartz.SchedulerDatabase;
import io.strata.scheduler.support.FireLog;
import io.strata.scheduler.support.FireLog.Fired;
import io.strata.scheduler.support.PostgresServer;
import io.strata.scheduler.support.SchedulerNode;
import io.strata.scheduler.support.SchedulerTests;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scheduler killed with SIGKILL in the middle of a full compaction (a child JVM whose compaction
 * blocks): Quartz re-fires the job, on the other node of a cluster or at the scheduler's restart,
 * and the recovered fire compacts only once the dead run's lease has expired; the dead run is
 * recorded interrupted, the recovered one succeeded.
 */
class RecoveryAfterKillTest {

    @TempDir
    Path dir;

    @RegisterExtension
    static final PostgresServer POSTGRES = new PostgresServer();

    /** Compactions that return at once, recording when each started. */
    private static final class RecordingRunner implements CompactionRunner {
        final List<Instant> started = new CopyOnWriteArrayList<>();

        @Override
        public CompactionReport compact(
                String table,
                io.strata.storage.compact.CompactStrategy strategy,
                io.strata.scheduler.config.TableSettings.Compaction placement) {
            started.add(Instant.now());
            return new CompactionReport(table, strategy, 1, 3, 1, 1_000, List.of("2"), 0);
        }
    }

    private static String yaml(Path warehouse, String store, String id, String leaseTtl) {
        return SchedulerTests.nodeYaml(
                warehouse, store, id, leaseTtl, SchedulerTests.fullCompactionWhenTriggered(), "2s");
    }

    @Test
    void theOtherNodeRecoversAKilledNodesRunOnceItsLeaseExpired() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        TestTables.oneRowTable(warehouse.toString());
        String store = SchedulerTests.clusteredStore(POSTGRES.newDatabase());
        // longer than Quartz takes to count the killed node failed (1 s check-in + 7.5 s + a check-in)
        String ttl = "15s";
        Path fileA = Files.writeString(dir.resolve("node-a.yaml"), yaml(warehouse, store, "node-a", ttl));
        SchedulerConfig configB = ConfigLoader.parse("node-b.yaml", yaml(warehouse, store, "node-b", ttl));
        RecordingRunner compactions = new RecordingRunner();
        BlockingQueue<Outcome> outcomes = new LinkedBlockingQueue<>();
        FireLog firedOnB = new FireLog(f -> {});
        try (SchedulerDatabase state = SchedulerDatabase.open(configB.store(), 2, Clock.systemUTC());
                SchedulerNode a = SchedulerNode.startCompactingAndBlocked(fileA, dir.resolve("node-a.log"))) {
            Run dead = state.history().running().get(0);
            assertThat(dead.owner()).isEqualTo("node-a");
            try (SchedulerService b = SchedulerService.start(configB, compactions, Clock.systemUTC(), outcomes::add)) {
                b.quartz().getListenerManager().addJobListener(firedOnB);
                // killed right after a renewal, its lease lives a full TTL more
                Lease last = awaitRenewal(state, "node-a");
                a.kill();
                Instant killed = Instant.now();

                Outcome o = outcomes.poll(60, TimeUnit.SECONDS);
                assertThat(o).as("the recovered fire's outcome on node-b").isInstanceOf(Outcome.Compacted.class);
                assertThat(compactions.started)
                        .singleElement()
                        .satisfies(at -> assertThat(at)
                                .as("compacting only after the dead run's lease expired")
                                .isAfterOrEqualTo(last.expiresAt()));
                Fired recovered = firedOnB.fired().stream()
                        .filter(Fired::recovering)
                        .findFirst()
                        .orElseThrow();
                assertThat(recovered.atInstant())
                        .as("the fire came before the lease expired, and waited for it")
                        .isAfter(killed)
                        .isBefore(last.expiresAt());
                assertThat(firedOnB.fired()).as("node-b fired the job once").hasSize(1);

                Run interrupted = state.history().find(dead.id()).orElseThrow();
                assertThat(interrupted.outcome()).isEqualTo(RunOutcome.INTERRUPTED);
                assertThat(interrupted.end()).isPresent();
                assertThat(interrupted.error())
                        .hasValueSatisfying(e -> assertThat(e)
                                .contains("'node-a' stopped during the run")
                                .contains("'node-b' re-fired it as fire " + recovered.fireId()));
                List<Run> runs = state.history().recent(Optional.of("db.t"), 10);
                assertThat(runs)
                        .as("the dead run and its recovery, nothing skipped")
                        .hasSize(2);
                Run redone = runs.get(0);
                assertThat(redone.owner()).isEqualTo("node-b");
                assertThat(redone.outcome()).isEqualTo(RunOutcome.SUCCEEDED);
                assertThat(redone.fireId()).contains(recovered.fireId());
                assertThat(redone.start()).isAfterOrEqualTo(last.expiresAt());
                assertThat(state.leases().lastEpoch("db.t")).isGreaterThan(last.epoch());
                assertThat(state.leases().live()).as("released").isEmpty();
            }
        }
    }

    @Test
    void aSchedulerRestartedAfterAKillRecoversItsRunOnceItsLeaseExpired() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        TestTables.oneRowTable(warehouse.toString());
        String text = yaml(warehouse, SchedulerTests.h2Store(dir), "node-a", "6s");
        Path file = Files.writeString(dir.resolve("node-a.yaml"), text);
        SchedulerConfig config = ConfigLoader.parse("node-a.yaml", text);
        RecordingRunner compactions = new RecordingRunner();
        BlockingQueue<Outcome> outcomes = new LinkedBlockingQueue<>();
        Lease last;
        long deadId;
        // the database first: this JVM then serves the H2 file (AUTO_SERVER), so what the node
        // committed (its last lease renewal) survives the SIGKILL, which would take unwritten pages
        // with it if the node served the file
        try (SchedulerDatabase state = SchedulerDatabase.open(config.store(), 2, Clock.systemUTC());
                SchedulerNode a = SchedulerNode.startCompactingAndBlocked(file, dir.resolve("node-a.log"))) {
            deadId = state.history().running().get(0).id();
            last = awaitRenewal(state, "node-a");
            a.kill();
        }
        try (SchedulerService s = SchedulerService.start(config, compactions, Clock.systemUTC(), outcomes::add)) {
            Instant started = Instant.now();
            assertThat(started).as("restarted before the old lease expired").isBefore(last.expiresAt());
            Outcome o = outcomes.poll(60, TimeUnit.SECONDS);
            assertThat(o).as("the recovered fire's outcome").isInstanceOf(Outcome.Compacted.class);
            assertThat(compactions.started)
                    .singleElement()
                    .satisfies(at -> assertThat(at)
                            .as("compacting only after the dead run's lease expired")
                            .isAfterOrEqualTo(last.expiresAt()));
            var history = s.database().history();
            Run interrupted = history.find(deadId).orElseThrow();
            assertThat(interrupted.outcome()).isEqualTo(RunOutcome.INTERRUPTED);
            assertThat(interrupted.error())
                    .hasValueSatisfying(e -> assertThat(e).contains("earlier process"));
            List<Run> runs = history.recent(Optional.of("db.t"), 10);
            assertThat(runs).hasSize(2);
            assertThat(runs.get(0).outcome()).isEqualTo(RunOutcome.SUCCEEDED);
            assertThat(runs.get(0).owner()).isEqualTo("node-a");
            assertThat(runs.get(0).fireId())
                    .hasValueSatisfying(id -> assertThat(id).startsWith("node-a"));
            assertThat(runs.get(0).fireId()).isNotEqualTo(interrupted.fireId());
        }
    }

    /** The live lease of {@code owner} just after its holder renewed it (a TTL third later than the one seen first). */
    private static Lease awaitRenewal(SchedulerDatabase state, String owner) throws SQLException, InterruptedException {
        Lease first = state.leases().live().stream()
                .filter(l -> l.owner().equals(owner))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no lease of " + owner));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            for (Lease l : state.leases().live()) {
                if (l.owner().equals(owner)
                        && l.epoch() == first.epoch()
                        && l.expiresAt().isAfter(first.expiresAt())) {
                    return l;
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the lease of " + owner + " was not renewed within 30 s: " + first.describe());
    }
}
