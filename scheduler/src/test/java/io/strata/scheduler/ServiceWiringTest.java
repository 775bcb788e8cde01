package io.strata.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.history.Run;
import io.strata.scheduler.history.RunOutcome;
import io.strata.scheduler.lease.LeaseAcquisition;
import io.strata.scheduler.lease.LeaseOperation;
import io.strata.scheduler.ops.OperationKind;
import io.strata.scheduler.ops.Outcome;
import io.strata.scheduler.quartz.SchedulerDatabase;
import io.strata.scheduler.support.ModelWriter;
import io.strata.scheduler.support.SchedulerTests;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service wired end to end on a temporary warehouse: every run goes through pause, lease and
 * run history, and the HTTP server shows the table's series, the run counter and the status page.
 */
class ServiceWiringTest {
    private static final long SEED = 17;
    private static final String OWNER = "wiring-test-scheduler";

    @TempDir
    Path dir;

    private SchedulerConfig config(Path warehouse) {
        return SchedulerTests.config(warehouse, SchedulerTests.h2Store(dir), """
                scheduler-id: %s
                tables:
                  databases:
                    - name: db
                defaults:
                  expiration:
                    cron: "0 0 3 1 1 ? 2099"
                    retain-min: 2
                    older-than: 0 ms
                """.formatted(OWNER));
    }

    @Test
    void runsAreLeasedPausedAndRecordedAndServed() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        try (ModelWriter feeder = new ModelWriter(warehouse.toString(), "t", Map.of(), SEED)) {
            for (int i = 0; i < 6; i++) {
                feeder.commitBatch(10);
            }
        }
        SchedulerConfig config = config(warehouse);
        // a run an earlier process of this owner left running
        long left;
        try (SchedulerDatabase db = SchedulerDatabase.open(config.store(), 2, Clock.systemUTC())) {
            left = db.history().start("db.t", "expiration", Optional.empty(), OWNER);
        }
        try (SchedulerService s =
                        SchedulerService.start(config, SchedulerTests.noCompactions(), Clock.systemUTC(), o -> {});
                HealthServer http = HealthServer.start(0, s)) {
            var history = s.database().history();
            assertThat(history.find(left).orElseThrow().outcome()).isEqualTo(RunOutcome.INTERRUPTED);

            Outcome done = s.dispatcher()
                    .run("db.t", OperationKind.EXPIRATION, Instant.now())
                    .orElseThrow();
            assertThat(done).isInstanceOf(Outcome.Expired.class);
            Run succeeded = history.recent(Optional.of("db.t"), 1).get(0);
            assertThat(succeeded.outcome()).isEqualTo(RunOutcome.SUCCEEDED);
            assertThat(succeeded.owner()).isEqualTo(OWNER);
            assertThat(succeeded.counters().snapshotsExpired()).isEqualTo(4);
            assertThat(succeeded.counters().filesDeleted()).isPositive();
            assertThat(succeeded.end()).isPresent();
            assertThat(s.database().leases().live())
                    .as("the lease is released after the run")
                    .isEmpty();

            s.database().pauses().pause(Optional.of("db.t"), Optional.empty(), "ops", Optional.of("migration"));
            Outcome paused = s.dispatcher()
                    .run("db.t", OperationKind.EXPIRATION, Instant.now())
                    .orElseThrow();
            assertThat(paused).isInstanceOf(Outcome.Skipped.class);
            Run skippedByPause = history.recent(Optional.of("db.t"), 1).get(0);
            assertThat(skippedByPause.outcome()).isEqualTo(RunOutcome.SKIPPED);
            assertThat(skippedByPause.heldBack())
                    .hasValueSatisfying(h -> assertThat(h).contains("paused").contains("migration"));
            s.database().pauses().resume(Optional.of("db.t"), Optional.empty());

            LeaseAcquisition other = s.database()
                    .leases()
                    .acquire("db.t", LeaseOperation.SNAPSHOT_EXPIRATION, "other-host", Duration.ofMinutes(1));
            assertThat(other.isGranted()).isTrue();
            Outcome blocked = s.dispatcher()
                    .run("db.t", OperationKind.EXPIRATION, Instant.now())
                    .orElseThrow();
            assertThat(((Outcome.Skipped) blocked).reason()).contains("other-host");
            Run skippedByLease = history.recent(Optional.of("db.t"), 1).get(0);
            assertThat(skippedByLease.outcome()).isEqualTo(RunOutcome.SKIPPED);
            assertThat(skippedByLease.heldBack())
                    .hasValueSatisfying(h -> assertThat(h).contains("other-host"));

            s.database().leases().release(other.lease());
            assertThatThrownBy(() -> s.guard().run("db.t", OperationKind.EXPIRATION, Optional.of("fire-1"), () -> {
                        throw new IllegalStateException("disk full");
                    }))
                    .hasMessage("disk full");
            Run failed = history.recent(Optional.of("db.t"), 1).get(0);
            assertThat(failed.outcome()).isEqualTo(RunOutcome.FAILED);
            assertThat(failed.fireId()).contains("fire-1");
            assertThat(failed.error()).hasValueSatisfying(e -> assertThat(e).contains("disk full"));
            assertThat(s.database().leases().live())
                    .as("released after a failure")
                    .isEmpty();
            other = s.database()
                    .leases()
                    .acquire("db.t", LeaseOperation.SNAPSHOT_EXPIRATION, "other-host", Duration.ofMinutes(1));
            s.guard().publishLeases();

            HttpClient client = HttpClient.newHttpClient();
            String metrics = get(client, http.port(), "/metrics");
            assertThat(metrics)
                    .contains("strata_table_snapshots_retained{table=\"db.t\"}")
                    .contains(
                            "strata_operation_runs_total{operation=\"expiration\",outcome=\"succeeded\",table=\"db.t\"}"
                                    + " 1.0")
                    .contains(
                            "strata_lease_held{operation=\"snapshot-expiration\",owner=\"other-host\",table=\"db.t\"}");
            String page = get(client, http.port(), "/");
            assertThat(page)
                    .contains("db.t")
                    .contains("expiration")
                    .contains(OWNER)
                    .contains("disk full");
            s.database().leases().release(other.lease());
        }
    }

    private static String get(HttpClient client, int port, String path) throws Exception {
        HttpResponse<String> r = client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path).isEqualTo(200);
        return r.body();
    }
}
