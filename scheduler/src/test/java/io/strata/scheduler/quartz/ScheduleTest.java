package io.strata.scheduler.quartz;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.scheduler.config.ConfigLoader;
import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.ops.OperationKind;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.quartz.CronTrigger;
import org.quartz.SimpleTrigger;
import org.quartz.Trigger;

/** Each schedule's trigger: its kind, zone, explicit misfire instruction and next fire time. */
class ScheduleTest {
    @Test
    void everyScheduleHasItsOwnExplicitMisfireInstruction() {
        SchedulerConfig c = ConfigLoader.parse("s.yaml", """
                warehouse: /tmp/w
                defaults:
                  expiration:
                    cron: "0 0 * * * ?"
                  changelog-expiration:
                    cron: "0 15 * * * ?"
                  partition-expiration:
                    cron: "0 0 1 * * ?"
                  auto-tag:
                    cron: "0 5 0 * * ?"
                  orphan-cleanup:
                    cron: "0 30 3 * * ?"
                  full-compaction:
                    cron: "0 0 2 * * ?"
                    window: 02:00-05:00
                    zone: Europe/Berlin
                  backlog-compaction:
                    poll-interval: 30s
                """);
        List<Schedule> schedules = Schedule.of("db.t", c.settingsFor("db.t"));
        Map<OperationKind, Integer> misfire = new TreeMap<>();
        for (Schedule s : schedules) {
            Trigger t = s.trigger();
            assertThat(t.getKey().getGroup()).isEqualTo("db.t");
            assertThat(t.getDescription()).isEqualTo(s.definition());
            misfire.put(s.kind(), t.getMisfireInstruction());
        }
        assertThat(misfire)
                .containsExactlyEntriesOf(new TreeMap<>(Map.of(
                        OperationKind.EXPIRATION, CronTrigger.MISFIRE_INSTRUCTION_FIRE_ONCE_NOW,
                        OperationKind.CHANGELOG_EXPIRATION, CronTrigger.MISFIRE_INSTRUCTION_FIRE_ONCE_NOW,
                        OperationKind.PARTITION_EXPIRATION, CronTrigger.MISFIRE_INSTRUCTION_FIRE_ONCE_NOW,
                        OperationKind.AUTO_TAG, CronTrigger.MISFIRE_INSTRUCTION_FIRE_ONCE_NOW,
                        OperationKind.ORPHAN_CLEANUP, CronTrigger.MISFIRE_INSTRUCTION_DO_NOTHING,
                        OperationKind.FULL_COMPACTION, CronTrigger.MISFIRE_INSTRUCTION_FIRE_ONCE_NOW,
                        OperationKind.BACKLOG_COMPACTION,
                                SimpleTrigger.MISFIRE_INSTRUCTION_RESCHEDULE_NEXT_WITH_REMAINING_COUNT)));
    }

    @Test
    void nextFireTimesFollowTheCronInItsZoneAcrossDaylightSaving() {
        Schedule at2 = fullCompactionAt("0 0 2 * * ?");
        Schedule at3 = fullCompactionAt("0 0 3 * * ?");
        // 02:00 Berlin summer time is 00:00 UTC
        assertThat(at2.nextFireAfter(Instant.parse("2026-06-10T12:00:00Z")))
                .contains(Instant.parse("2026-06-11T00:00:00Z"));
        // spring forward, 2026-03-29: 02:00 does not exist that day and Quartz skips the fire, which is
        // why the sample config starts its 02:00-05:00 window's run at 03:00
        assertThat(at2.nextFireAfter(Instant.parse("2026-03-28T12:00:00Z")))
                .contains(Instant.parse("2026-03-30T00:00:00Z"));
        assertThat(at3.nextFireAfter(Instant.parse("2026-03-28T12:00:00Z")))
                .contains(Instant.parse("2026-03-29T01:00:00Z"));
        // fall back, 2026-10-25: 03:00 happens once (02:00-03:00 twice), at 02:00 UTC
        assertThat(at3.nextFireAfter(Instant.parse("2026-10-24T12:00:00Z")))
                .contains(Instant.parse("2026-10-25T02:00:00Z"));
    }

    private static Schedule fullCompactionAt(String cron) {
        SchedulerConfig c = ConfigLoader.parse("s.yaml", """
                warehouse: /tmp/w
                defaults:
                  full-compaction:
                    cron: "%s"
                    window: 02:00-05:00
                    zone: Europe/Berlin
                """.formatted(cron));
        return Schedule.of("db.t", c.settingsFor("db.t")).get(0);
    }
}
