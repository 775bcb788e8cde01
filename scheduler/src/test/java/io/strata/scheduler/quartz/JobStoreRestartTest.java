package io.strata.scheduler.quartz;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.scheduler.SchedulerService;
import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.support.SchedulerTests;
import io.strata.storage.testutil.TestTables;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quartz.CronTrigger;
import org.quartz.Scheduler;
import org.quartz.Trigger;
import org.quartz.TriggerKey;
import org.quartz.impl.matchers.GroupMatcher;

/**
 * Schedules live in the JDBC job store: a scheduler started again on the same store finds the
 * triggers it stored, with their next fire times, and replaces only those whose config changed.
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

    private void restartKeepsSchedules(String store) throws Exception {
        Path warehouse = dir.resolve("warehouse");
        TestTables.oneRowTable(warehouse.toString());
        SchedulerConfig config = SchedulerTests.config(warehouse, store, SCHEDULES);
        Map<String, String> before;
        try (SchedulerService s = start(config)) {
            before = triggers(s.quartz());
            assertThat(before).containsOnlyKeys("db.t.expiration", "db.t.full-compaction", "db.t.backlog-compaction");
        }
        try (SchedulerService s = start(config)) {
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
