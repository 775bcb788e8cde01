package io.strata.scheduler.quartz;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.scheduler.SchedulerService;
import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.history.Run;
import io.strata.scheduler.history.RunOutcome;
import io.strata.scheduler.ops.CompactionReport;
import io.strata.scheduler.ops.CompactionRunner;
import io.strata.scheduler.ops.Outcome;
import io.strata.scheduler.support.ModelWriter;
import io.strata.scheduler.support.SchedulerTests;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quartz.Trigger;
import org.quartz.TriggerKey;

/**
 * A service started again after a simulated downtime (its stored triggers' next fire times set a
 * day back in the job store, so Quartz finds them misfired at start): the fires it catches up with
 * are spaced over {@code catch-up-spread} in a fixed order instead of all at once, each table's
 * operation runs once, a full compaction whose window is closed in its slot waits for the window's
 * next opening, and orphan cleanup, which does not catch up, does not run.
 *
 * <p>The service's clock is fixed inside the default off-peak window (and outside db.t2's); Quartz
 * fires the spread one-shots on the system clock, so the spread is short (3 s, six fires: one
 * every 500 ms) and the test waits for the outcomes, not for time.
 */
class CatchUpAfterDowntimeTest {
    private static final Duration SPREAD = Duration.ofSeconds(3);
    private static final Pattern HELD_UNTIL = Pattern.compile("held back by catch-up spread until (\\S+)");
    private static final List<String> TABLES = List.of("db.t0", "db.t1", "db.t2");

    @TempDir
    Path dir;

    private SchedulerConfig config(Path warehouse) {
        return SchedulerTests.config(warehouse, SchedulerTests.h2Store(dir), """
                catch-up-spread: 3s
                tables:
                  names: [db.t0, db.t1, db.t2]
                defaults:
                  expiration:
                    cron: "0 0 3 1 1 ? 2099"
                    retain-min: 1
                    older-than: 0 ms
                  orphan-cleanup:
                    cron: "0 30 3 1 1 ? 2099"
                  full-compaction:
                    cron: "0 0 3 1 1 ? 2099"
                    window: 02:00-05:00
                    zone: UTC
                overrides:
                  db.t2:
                    full-compaction:
                      window: 22:00-23:00
                """);
    }

    /** Sets the next fire time of the trigger {@code operation} of {@code table}: a downtime since then. */
    private static void missedSince(Connection c, String table, String operation, Instant due) throws Exception {
        try (PreparedStatement u = c.prepareStatement(
                "UPDATE QRTZ_TRIGGERS SET NEXT_FIRE_TIME = ? WHERE TRIGGER_GROUP = ? AND TRIGGER_NAME = ?")) {
            u.setLong(1, due.toEpochMilli());
            u.setString(2, table);
            u.setString(3, operation);
            assertThat(u.executeUpdate())
                    .as("trigger %s of %s", operation, table)
                    .isEqualTo(1);
        }
    }

    @Test
    void theFiresADowntimeLeftDueAreSpacedOverTheSpreadAndEachRunsOnce() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        for (int i = 0; i < TABLES.size(); i++) {
            try (ModelWriter feeder = new ModelWriter(warehouse.toString(), "t" + i, Map.of(), 41 + i)) {
                for (int b = 0; b < 3; b++) {
                    feeder.commitBatch(5);
                }
            }
        }
        SchedulerConfig config = config(warehouse);
        assertThat(config.catchUpSpread()).isEqualTo(SPREAD);
        // tomorrow 03:00 UTC: inside 02:00-05:00, outside db.t2's 22:00-23:00, after every commit
        Instant night = Instant.now().truncatedTo(ChronoUnit.DAYS).plus(Duration.ofHours(27));
        Clock clock = Clock.fixed(night, ZoneOffset.UTC);
        Map<String, Instant> compactedAt = new ConcurrentHashMap<>();
        CompactionRunner recording = (table, strategy, placement) -> {
            compactedAt.put(table, Instant.now());
            return new CompactionReport(table, strategy, 1, 2, 1, 1_000, List.of("2"), 0);
        };
        try (SchedulerService s = SchedulerService.start(config, recording, clock, o -> {})) {
            assertThat(s.schedules()).hasSize(9);
        }

        Instant down = Instant.now().minus(Duration.ofDays(1));
        try (Connection c = java.sql.DriverManager.getConnection(
                config.store().jdbcUrl(), config.store().user(), config.store().password())) {
            for (String t : TABLES) {
                missedSince(c, t, "expiration", t.equals("db.t2") ? down.minus(Duration.ofDays(1)) : down);
                missedSince(c, t, "full-compaction", down);
                missedSince(c, t, "orphan-cleanup", down);
            }
        }

        BlockingQueue<Outcome> outcomes = new LinkedBlockingQueue<>();
        Map<String, Instant> ranAt = new ConcurrentHashMap<>();
        List<Run> runs;
        List<TriggerKey> catchUpTriggersLeft = new ArrayList<>();
        Trigger deferred;
        Instant started = Instant.now();
        try (SchedulerService s = SchedulerService.start(config, recording, clock, o -> {
            if (!(o instanceof Outcome.Skipped k && k.reason().startsWith("held back by catch-up spread"))) {
                ranAt.put(o.table() + " " + o.kind().key(), Instant.now());
            }
            outcomes.add(o);
        })) {
            // six fires catch up: three expirations and three full compactions; five wait for a slot
            List<Outcome> seen = new ArrayList<>();
            while (ranAt.size() < 6) {
                Outcome o = outcomes.poll(30, TimeUnit.SECONDS);
                assertThat(o).as("an outcome within 30 s; so far %s", seen).isNotNull();
                seen.add(o);
            }
            assertThat(s.dispatcher().catchUp().planned())
                    .as("slots not yet come")
                    .isEmpty();
            deferred = s.quartz().getTrigger(new TriggerKey("full-compaction" + Schedule.DEFERRED_SUFFIX, "db.t2"));
        }
        // after the close, which waits for the last fire to complete (and its one-shot to go)
        try (SchedulerDatabase db = SchedulerDatabase.open(config.store(), 2, clock);
                Connection c = db.dataSource().getConnection();
                PreparedStatement q = c.prepareStatement("SELECT TRIGGER_GROUP, TRIGGER_NAME FROM QRTZ_TRIGGERS");
                ResultSet rows = q.executeQuery()) {
            runs = db.history().recent(Optional.empty(), 1_000);
            while (rows.next()) {
                TriggerKey k = new TriggerKey(rows.getString(2), rows.getString(1));
                if (Schedule.isCatchUp(k)) {
                    catchUpTriggersLeft.add(k);
                }
            }
        }

        // the slots: longest overdue first (db.t2's expiration, two days: not held back, it runs at
        // once), then by table and operation
        Map<String, Instant> slots = new TreeMap<>();
        for (Run r : runs) {
            Matcher m = HELD_UNTIL.matcher(r.heldBack().orElse(""));
            if (m.matches()) {
                assertThat(slots.put(r.table() + " " + r.operation(), Instant.parse(m.group(1))))
                        .as("one hold of %s %s", r.table(), r.operation())
                        .isNull();
            }
        }
        List<String> order = List.of(
                "db.t0 expiration",
                "db.t0 full-compaction",
                "db.t1 expiration",
                "db.t1 full-compaction",
                "db.t2 full-compaction");
        assertThat(slots).as("fires held back for the spread").containsOnlyKeys(order);
        Duration gap = SPREAD.dividedBy(6);
        Instant first = slots.get(order.get(0)).minus(gap);
        for (int i = 0; i < order.size(); i++) {
            assertThat(slots.get(order.get(i)))
                    .as("slot of %s", order.get(i))
                    .isEqualTo(first.plus(gap.multipliedBy(i + 1)));
        }
        assertThat(first).as("the first slot: when the catch-up began").isBetween(started, slots.get(order.get(0)));
        for (String op : order) {
            // Quartz fires a trigger up to 2 ms before its time
            assertThat(ranAt.get(op))
                    .as("%s ran in its slot, not before", op)
                    .isAfter(slots.get(op).minusMillis(3));
        }
        assertThat(compactedAt).containsOnlyKeys("db.t0", "db.t1");
        assertThat(compactedAt.get("db.t1"))
                .isAfter(slots.get("db.t1 full-compaction").minusMillis(3));

        // each table's operation ran once; orphan cleanup does not catch up
        Map<String, Integer> ranOnce = new TreeMap<>();
        for (Run r : runs) {
            if (!r.heldBack().orElse("").startsWith("held back by catch-up spread")) {
                ranOnce.merge(r.table() + " " + r.operation(), 1, Integer::sum);
            }
        }
        assertThat(ranOnce)
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "db.t0 expiration", 1,
                        "db.t1 expiration", 1,
                        "db.t2 expiration", 1,
                        "db.t0 full-compaction", 1,
                        "db.t1 full-compaction", 1,
                        "db.t2 full-compaction", 1));
        assertThat(runs)
                .filteredOn(r -> r.operation().equals("expiration"))
                .allSatisfy(r -> assertThat(r.outcome()).isIn(RunOutcome.SUCCEEDED, RunOutcome.SKIPPED));
        // db.t2's window is closed in its slot: the fire waits for the next opening, 22:00 on the service's clock
        Run t2Full = runs.stream()
                .filter(r -> r.table().equals("db.t2")
                        && r.operation().equals("full-compaction")
                        && r.outcome() == RunOutcome.SKIPPED
                        && r.heldBack().orElse("").contains("outside the off-peak window"))
                .findFirst()
                .orElseThrow();
        assertThat(t2Full.heldBack()).get().asString().contains("22:00-23:00");
        assertThat(deferred)
                .as("db.t2's full compaction deferred to its window")
                .isNotNull();
        assertThat(deferred.getStartTime().toInstant())
                .isEqualTo(night.truncatedTo(ChronoUnit.DAYS).plus(Duration.ofHours(22)));
        assertThat(catchUpTriggersLeft)
                .as("catch-up triggers left after their fires")
                .isEmpty();
    }
}
