package io.strata.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.scheduler.config.ConfigLoader;
import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.history.Run;
import io.strata.scheduler.history.RunOutcome;
import io.strata.scheduler.lease.TestDatabase;
import io.strata.scheduler.quartz.SchedulerDatabase;
import io.strata.scheduler.support.FireLog;
import io.strata.scheduler.support.FireLog.Fired;
import io.strata.scheduler.support.ModelWriter;
import io.strata.scheduler.support.PostgresServer;
import io.strata.scheduler.support.SchedulerNode;
import io.strata.scheduler.support.SchedulerTests;
import io.strata.storage.testutil.TestTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two clustered schedulers on one PostgreSQL job store, one in a child JVM and one in this JVM
 * (Quartz allows one scheduler of a name per JVM): every fire of every trigger runs on exactly one
 * of them, and a second live process under a scheduler-id in use is refused before it touches the
 * first one's runs.
 */
class ClusteredSchedulersPostgresTest {
    private static final long SEED = 16;
    private static final int TABLES = 6;
    private static final Duration WINDOW = Duration.ofSeconds(8);

    @TempDir
    Path dir;

    @RegisterExtension
    static final PostgresServer POSTGRES = new PostgresServer();

    private static String yaml(Path warehouse, TestDatabase db, String id, String body) {
        return SchedulerTests.nodeYaml(warehouse, SchedulerTests.clusteredStore(db), id, "3s", body, "5s");
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    @Test
    void everyFireOfEveryTriggerRunsOnOneNodeOnly() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        List<String> tables = new ArrayList<>();
        for (int i = 0; i < TABLES; i++) {
            try (ModelWriter f = new ModelWriter(warehouse.toString(), "t" + i, Map.of(), SEED + i)) {
                f.commitBatch(5);
            }
            tables.add("db.t" + i);
        }
        // every table's expiration fires every second; six triggers keep both nodes' two threads busy
        String body = "tables:\n  names: " + tables + "\ndefaults:\n  expiration:\n    cron: \"* * * * * ?\"\n";
        TestDatabase db = POSTGRES.newDatabase();
        Path fileA = write("node-a.yaml", yaml(warehouse, db, "node-a", body));
        SchedulerConfig configB = ConfigLoader.parse("node-b.yaml", yaml(warehouse, db, "node-b", body));
        List<Fired> firedA;
        FireLog logB = new FireLog(f -> {});
        Instant from;
        Instant to;
        try (SchedulerNode a = SchedulerNode.start(fileA, dir.resolve("node-a.log"), "none")) {
            a.await("STARTED", Duration.ofSeconds(60));
            try (SchedulerService b =
                    SchedulerService.start(configB, SchedulerTests.noCompactions(), Clock.systemUTC(), o -> {})) {
                b.quartz().getListenerManager().addJobListener(logB);
                // fires scheduled from the next whole second on are seen by both listeners
                from = Instant.now().plusSeconds(1).truncatedTo(ChronoUnit.SECONDS);
                to = from.plus(WINDOW);
                Thread.sleep(Duration.between(Instant.now(), to).toMillis() + 3_000);
                a.stop();
            }
            firedA = a.fired();
        }
        List<Fired> inWindowA = inWindow(firedA, from, to);
        List<Fired> inWindowB = inWindow(logB.fired(), from, to);
        List<Fired> all = new ArrayList<>(inWindowA);
        all.addAll(inWindowB);
        long seconds = WINDOW.toSeconds();
        for (String t : tables) {
            List<Long> scheduled = all.stream()
                    .filter(f -> f.table().equals(t))
                    .map(Fired::scheduledMillis)
                    .sorted()
                    .toList();
            assertThat(scheduled)
                    .as(
                            "%s: the fires scheduled in [%s, %s), each on one node (node-a %s, node-b %s)",
                            t, from, to, inWindowA, inWindowB)
                    .doesNotHaveDuplicates()
                    .hasSize((int) seconds);
        }
        assertThat(inWindowA).as("node-a fired too").isNotEmpty();
        assertThat(inWindowB).as("node-b fired too").isNotEmpty();

        try (Connection c = db.dataSource().getConnection();
                Statement q = c.createStatement()) {
            assertThat(count(q, "SELECT COUNT(*) FROM QRTZ_SCHEDULER_STATE"))
                    .as("both nodes left the cluster when they stopped")
                    .isZero();
            assertThat(count(q, "SELECT COUNT(*) FROM QRTZ_FIRED_TRIGGERS")).isZero();
            assertThat(count(q, "SELECT COUNT(*) FROM QRTZ_TRIGGERS WHERE TRIGGER_STATE <> 'WAITING'"))
                    .as("the triggers the stopping nodes had acquired for their next fires are released")
                    .isZero();
        }
        try (SchedulerDatabase state = SchedulerDatabase.open(configB.store(), 2, Clock.systemUTC())) {
            Map<String, List<Run>> runsByFire = state.history().recent(Optional.empty(), 10_000).stream()
                    .filter(r -> r.fireId().isPresent())
                    .collect(Collectors.groupingBy(r -> r.fireId().get()));
            assertThat(runsByFire.values().stream().flatMap(List::stream))
                    .as("no fire was held back by a lease of the other node")
                    .allSatisfy(r -> assertThat(r.outcome()).isEqualTo(RunOutcome.SUCCEEDED));
            for (Fired f : inWindowA) {
                assertThat(runsByFire.get(f.fireId()))
                        .as("the run of %s", f)
                        .singleElement()
                        .satisfies(r -> assertThat(r.owner()).isEqualTo("node-a"));
            }
            for (Fired f : inWindowB) {
                assertThat(runsByFire.get(f.fireId()))
                        .as("the run of %s", f)
                        .singleElement()
                        .satisfies(r -> assertThat(r.owner()).isEqualTo("node-b"));
            }
        }
    }

    private static long count(Statement q, String sql) throws SQLException {
        try (ResultSet r = q.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }

    private static List<Fired> inWindow(List<Fired> fired, Instant from, Instant to) {
        return fired.stream()
                .filter(f -> f.operation().equals("expiration"))
                .filter(f -> f.scheduledMillis() >= from.toEpochMilli() && f.scheduledMillis() < to.toEpochMilli())
                .toList();
    }

    @Test
    void aSecondLiveProcessUnderTheSameIdIsRefusedAndLeavesTheFirstOnesRunAlone() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        TestTables.oneRowTable(warehouse.toString());
        String body = SchedulerTests.fullCompactionWhenTriggered();
        TestDatabase db = POSTGRES.newDatabase();
        Path file = write("node-a.yaml", yaml(warehouse, db, "node-a", body));
        SchedulerConfig same = ConfigLoader.parse("again.yaml", yaml(warehouse, db, "node-a", body));
        try (SchedulerNode a = SchedulerNode.startCompactingAndBlocked(file, dir.resolve("node-a.log"))) {
            long t0 = System.nanoTime();
            assertThatThrownBy(() ->
                            SchedulerService.start(same, SchedulerTests.noCompactions(), Clock.systemUTC(), o -> {}))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("again.yaml: scheduler-id: 'node-a' is in use by a live scheduler");
            assertThat(Duration.ofNanos(System.nanoTime() - t0))
                    .as("told within a check-in interval plus Quartz's 7.5 s")
                    .isLessThan(Duration.ofSeconds(12));
            try (SchedulerDatabase state = SchedulerDatabase.open(same.store(), 2, Clock.systemUTC())) {
                assertThat(state.history().running())
                        .as("the live node's run is still running")
                        .singleElement()
                        .satisfies(r -> assertThat(r.owner()).isEqualTo("node-a"));
                assertThat(state.leases().live()).extracting(l -> l.owner()).containsExactly("node-a");
            }
        }
    }
}
