package io.strata.scheduler.quartz;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.scheduler.SchedulerService;
import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.history.Run;
import io.strata.scheduler.history.RunOutcome;
import io.strata.scheduler.ops.OperationKind;
import io.strata.scheduler.ops.Outcome;
import io.strata.scheduler.support.SchedulerTests;
import io.strata.storage.testutil.TestTables;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quartz.CronTrigger;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.Trigger;
import org.quartz.TriggerKey;
import org.quartz.impl.matchers.GroupMatcher;

/**
 * Schedules live in the JDBC job store: a scheduler started again on the same store finds the
 * triggers it stored, with their next fire times, and replaces only those whose config changed;
 * its pauses and run history, in the same database, hold across the restart too. On H2, on
 * PostgreSQL and clustered on PostgreSQL (where a node that stopped leaves the cluster, so it
 * starts again under its id at once).
 */
class JobStoreRestartTest {
    private static final String SCHEDULES = """
            tables:
              names: [db.t]
            defaults:
              expiration:
                cron: "0 0 3 * * ?"
              full-compaction:
                cron: "0 0 2 * * ?"
                window: 02:00-05:00
                zone: Europe/Berlin
              backlog-compaction:
                poll-interval: 1h
            """;

    @TempDir
    Path dir;

    @Test
    void schedulesSurviveARestartOnAnH2File() throws Exception {
        restartKeepsSchedules(SchedulerTests.h2Store(dir));
    }

    @Test
    void schedulesSurviveARestartOnPostgres() throws Exception {
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder()
                .setDataDirectory(dir.resolve("pg"))
                .setCleanDataDirectory(true)
                .start()) {
            String store = "store:\n  jdbc-url: " + pg.getJdbcUrl("postgres", "postgres") + "\n  user: postgres\n";
            restartKeepsSchedules(store);
        }
    }

    @Test
    void schedulesSurviveARestartOfAClusteredSchedulerThatStartsAgainAtOnce() throws Exception {
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder()
                .setDataDirectory(dir.resolve("pg"))
                .setCleanDataDirectory(true)
                .start()) {
            String store = "store:\n  jdbc-url: " + pg.getJdbcUrl("postgres", "postgres")
                    + "\n  user: postgres\n  clustered: true\n  cluster-checkin-interval: 1s\n";
            restartKeepsSchedules(store);
            try (Connection c = pg.getPostgresDatabase().getConnection();
                    Statement q = c.createStatement()) {
                assertThat(count(q, "SELECT COUNT(*) FROM QRTZ_SCHEDULER_STATE"))
                        .as("the stopped node left the cluster")
                        .isZero();
                assertThat(count(q, "SELECT COUNT(*) FROM QRTZ_FIRED_TRIGGERS")).isZero();
                assertThat(count(q, "SELECT COUNT(*) FROM QRTZ_TRIGGERS WHERE TRIGGER_STATE <> 'WAITING'"))
                        .as("no trigger left acquired by the stopped node")
                        .isZero();
            }
        }
    }

    @Test
    void pausesAndHistorySurviveARestartOnAnH2File() throws Exception {
        restartKeepsPausesAndHistory(SchedulerTests.h2Store(dir));
    }

    @Test
    void pausesAndHistorySurviveARestartOnPostgres() throws Exception {
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder()
                .setDataDirectory(dir.resolve("pg"))
                .setCleanDataDirectory(true)
                .start()) {
            restartKeepsPausesAndHistory(
                    "store:\n  jdbc-url: " + pg.getJdbcUrl("postgres", "postgres") + "\n  user: postgres\n");
        }
    }

    private void restartKeepsPausesAndHistory(String store) throws Exception {
        Path warehouse = dir.resolve("warehouse");
        TestTables.oneRowTable(warehouse.toString());
        SchedulerConfig config = SchedulerTests.config(warehouse, store, """
                scheduler-id: restart-test
                tables:
                  names: [db.t]
                defaults:
                  expiration:
                    cron: "0 0 3 1 1 ? 2099"
                """);
        List<Run> before;
        try (SchedulerService s = start(config)) {
            assertThat(s.dispatcher().run("db.t", OperationKind.EXPIRATION, Instant.now()))
                    .hasValueSatisfying(o -> assertThat(o).isInstanceOf(Outcome.Expired.class));
            s.database().pauses().pause(Optional.of("db.t"), Optional.empty(), "ops", Optional.of("migration"));
            before = s.database().history().recent(Optional.of("db.t"), 10);
            assertThat(before)
                    .singleElement()
                    .satisfies(r -> assertThat(r.outcome()).isEqualTo(RunOutcome.SUCCEEDED));
        }
        try (SchedulerService s = start(config)) {
            assertThat(s.database().history().recent(Optional.of("db.t"), 10))
                    .as("the run history, unchanged")
                    .isEqualTo(before);
            assertThat(s.database().pauses().pausedBy("db.t", "expiration"))
                    .singleElement()
                    .satisfies(p -> assertThat(p.reason()).contains("migration"));
            Outcome paused = s.dispatcher()
                    .run("db.t", OperationKind.EXPIRATION, Instant.now())
                    .orElseThrow();
            assertThat(paused).isInstanceOf(Outcome.Skipped.class);
            Run skipped = s.database().history().recent(Optional.of("db.t"), 1).get(0);
            assertThat(skipped.outcome()).isEqualTo(RunOutcome.SKIPPED);
            assertThat(skipped.heldBack()).hasValueSatisfying(h -> assertThat(h).contains("migration"));
        }
    }

    private static long count(Statement q, String sql) throws Exception {
        try (ResultSet r = q.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }

    private void restartKeepsSchedules(String store) throws Exception {
        Path warehouse = dir.resolve("warehouse");
        TestTables.oneRowTable(warehouse.toString());
        SchedulerConfig config = SchedulerTests.config(warehouse, store, SCHEDULES);
        Map<String, String> before;
        try (SchedulerService s = start(config)) {
            before = triggers(s.quartz());
            assertThat(before).containsOnlyKeys("db.t.expiration", "db.t.full-compaction", "db.t.backlog-compaction");
        }
        // as an earlier version stored them
        try (SchedulerDatabase db = SchedulerDatabase.open(config.store(), 1, Clock.systemUTC());
                Connection c = db.dataSource().getConnection();
                Statement q = c.createStatement()) {
            assertThat(q.executeUpdate("UPDATE QRTZ_JOB_DETAILS SET REQUESTS_RECOVERY = FALSE"))
                    .isEqualTo(3);
        }
        long t0 = System.nanoTime();
        try (SchedulerService s = start(config)) {
            for (String g : s.quartz().getJobGroupNames()) {
                for (JobKey k : s.quartz().getJobKeys(GroupMatcher.jobGroupEquals(g))) {
                    assertThat(s.quartz().getJobDetail(k).requestsRecovery())
                            .as("%s requests recovery again", k)
                            .isTrue();
                }
            }
            assertThat(Duration.ofNanos(System.nanoTime() - t0))
                    .as("started again at once")
                    .isLessThan(Duration.ofSeconds(5));
            assertThat(triggers(s.quartz()))
                    .as("the stored triggers, unchanged")
                    .isEqualTo(before);
            CronTrigger full = (CronTrigger) s.quartz().getTrigger(new TriggerKey("full-compaction", "db.t"));
            assertThat(full.getTimeZone().getID()).isEqualTo("Europe/Berlin");
            assertThat(full.getMisfireInstruction()).isEqualTo(CronTrigger.MISFIRE_INSTRUCTION_FIRE_ONCE_NOW);
        }
        SchedulerConfig changed = SchedulerTests.config(warehouse, store, """
                tables:
                  names: [db.t]
                defaults:
                  expiration:
                    cron: "0 15 4 * * ?"
                """);
        try (SchedulerService s = start(changed)) {
            Map<String, String> after = triggers(s.quartz());
            assertThat(after).containsOnlyKeys("db.t.expiration");
            CronTrigger e = (CronTrigger) s.quartz().getTrigger(new TriggerKey("expiration", "db.t"));
            assertThat(e.getCronExpression()).isEqualTo("0 15 4 * * ?");
        }
    }

    private static SchedulerService start(SchedulerConfig config) throws Exception {
        return SchedulerService.start(config, SchedulerTests.noCompactions(), Clock.systemUTC(), o -> {});
    }

    /**
     * Every trigger, as {@code group.name}, with its start time (a trigger created anew has a new
     * one) and, for a cron trigger, its next fire time (a poll may have fired meanwhile).
     */
    private static Map<String, String> triggers(Scheduler s) throws Exception {
        Map<String, String> out = new TreeMap<>();
        for (String g : s.getTriggerGroupNames()) {
            for (TriggerKey k : s.getTriggerKeys(GroupMatcher.triggerGroupEquals(g))) {
                Trigger t = s.getTrigger(k);
                out.put(
                        g + "." + k.getName(),
                        t.getStartTime() + (t instanceof CronTrigger ? ", next " + t.getNextFireTime() : ""));
            }
        }
        return out;
    }
}
