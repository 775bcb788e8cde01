package io.strata.scheduler.quartz;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.scheduler.config.TableSettings;
import io.strata.scheduler.ops.OperationKind;
import io.strata.scheduler.time.OffPeakWindow;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.spi.OperableTrigger;

/**
 * The plan of a catch-up, with the triggers of real schedules and instants given by the test: the
 * misfires of a downtime are spaced over the spread in a fixed order, a job gets one slot, fires on
 * schedule are never held back.
 */
class CatchUpSpreadTest {
    private static final Duration SPREAD = Duration.ofMinutes(10);
    private static final Instant NOW = Instant.parse("2026-06-10T08:00:00.123Z");

    private static TableSettings settings() {
        return new TableSettings(
                Optional.of(new TableSettings.Expiration(
                        "0 0 * * * ?", ZoneOffset.UTC, OptionalInt.empty(), OptionalInt.empty(), Optional.empty())),
                Optional.empty(),
                Optional.empty(),
                Optional.of(new TableSettings.AutoTag("0 5 0 * * ?", ZoneOffset.UTC)),
                Optional.of(new TableSettings.OrphanCleanup("0 30 3 * * ?", ZoneOffset.UTC, Duration.ofDays(1), false)),
                Optional.of(new TableSettings.FullCompaction(
                        "0 0 3 * * ?", OffPeakWindow.parse("02:00-05:00", ZoneOffset.UTC))),
                Optional.of(new TableSettings.BacklogCompaction(Duration.ofMinutes(1), 10, 10)),
                TableSettings.Compaction.embedded(1));
    }

    /** The stored trigger of {@code kind} on {@code table}, whose next fire is {@code due}. */
    private static OperableTrigger trigger(String table, OperationKind kind, Instant due) {
        Schedule s = Schedule.of(table, settings()).stream()
                .filter(x -> x.kind() == kind)
                .findFirst()
                .orElseThrow();
        OperableTrigger t = (OperableTrigger) s.trigger();
        t.setStartTime(Date.from(due.minus(Duration.ofDays(30))));
        t.setNextFireTime(Date.from(due));
        return t;
    }

    private static final CatchUpSpread.Turn RUN = new CatchUpSpread.Turn.Now();

    private static CatchUpSpread.Turn waitUntil(Instant slot) {
        return new CatchUpSpread.Turn.WaitUntil(slot);
    }

    /** What Quartz does for a misfire: tells the listener, then applies the instruction (fire now). */
    private static Instant misfire(CatchUpSpread c, OperableTrigger t, Instant handledAt) {
        c.triggerMisfired(t);
        t.setNextFireTime(Date.from(handledAt));
        return handledAt;
    }

    @Test
    void aDowntimesMisfiresAreSpacedOverTheSpreadLongestOverdueFirstThenByTableAndOperation() {
        CatchUpSpread c = new CatchUpSpread(SPREAD);
        Instant yesterday = Instant.parse("2026-06-09T03:00:00Z");
        Map<String, OperableTrigger> triggers = new LinkedHashMap<>();
        for (String table : List.of("db.b", "db.a")) {
            triggers.put(table + " full", trigger(table, OperationKind.FULL_COMPACTION, yesterday));
            triggers.put(
                    table + " exp", trigger(table, OperationKind.EXPIRATION, Instant.parse("2026-06-09T06:00:00Z")));
        }
        // the oldest misfire: an automatic tag due two days ago
        triggers.put("db.c tag", trigger("db.c", OperationKind.AUTO_TAG, Instant.parse("2026-06-08T00:05:00Z")));
        Instant handled = NOW.minusMillis(40);
        triggers.values().forEach(t -> misfire(c, t, handled));

        // Quartz fires them now, in whatever order it acquires them
        Map<String, CatchUpSpread.Turn> held = new LinkedHashMap<>();
        triggers.forEach((name, t) -> held.put(name, c.turn(t, handled, NOW)));

        Duration gap = SPREAD.dividedBy(5);
        assertThat(held)
                .containsEntry("db.c tag", RUN)
                .containsEntry("db.a full", waitUntil(NOW.plus(gap)))
                .containsEntry("db.b full", waitUntil(NOW.plus(gap.multipliedBy(2))))
                .containsEntry("db.a exp", waitUntil(NOW.plus(gap.multipliedBy(3))))
                .containsEntry("db.b exp", waitUntil(NOW.plus(gap.multipliedBy(4))));
        assertThat(c.planned())
                .hasSize(4)
                .containsEntry(new JobKey("expiration", "db.b"), NOW.plus(gap.multipliedBy(4)));
    }

    @Test
    void aSpreadFireRunsInItsSlotAndAFireOnScheduleIsNeverHeldBack() {
        CatchUpSpread c = new CatchUpSpread(SPREAD);
        Instant due = Instant.parse("2026-06-10T03:00:00Z");
        OperableTrigger a = trigger("db.a", OperationKind.EXPIRATION, due);
        OperableTrigger b = trigger("db.b", OperationKind.EXPIRATION, due);
        misfire(c, a, NOW);
        misfire(c, b, NOW);
        assertThat(c.turn(a, NOW, NOW)).isEqualTo(RUN);
        Instant slot = NOW.plus(SPREAD.dividedBy(2));
        assertThat(c.turn(b, NOW, NOW.plusMillis(3))).isEqualTo(waitUntil(slot));

        // the regular fire of a at 09:00 is on its schedule
        assertThat(c.turn(a, Instant.parse("2026-06-10T09:00:00Z"), Instant.parse("2026-06-10T09:00:00.010Z")))
                .isEqualTo(RUN);
        // b's one-shot at its slot runs, and b has no slot left
        Trigger spread = Schedule.catchUp(b.getJobKey(), slot);
        assertThat(spread.getKey().getName()).isEqualTo("expiration-catch-up");
        assertThat(spread.getKey().getGroup()).isEqualTo("db.b");
        assertThat(c.turn(spread, slot, slot.plusMillis(2))).isEqualTo(RUN);
        assertThat(c.planned()).isEmpty();
    }

    @Test
    void aJobWhoseScheduleAndDeferralBothMisfiredGetsOneSlot() {
        CatchUpSpread c = new CatchUpSpread(SPREAD);
        Instant due = Instant.parse("2026-06-10T03:00:00Z");
        OperableTrigger full = trigger("db.a", OperationKind.FULL_COMPACTION, due);
        OperableTrigger deferred = (OperableTrigger) Schedule.deferred(full.getJobKey(), due.plusSeconds(60));
        deferred.setNextFireTime(Date.from(due.plusSeconds(60)));
        OperableTrigger other = trigger("db.b", OperationKind.EXPIRATION, due);
        misfire(c, other, NOW);
        misfire(c, full, NOW);
        misfire(c, deferred, NOW);
        // two jobs: db.a full-compaction (due first) now, db.b expiration half the spread later
        assertThat(c.turn(deferred, NOW, NOW)).isEqualTo(RUN);
        assertThat(c.turn(other, NOW, NOW)).isEqualTo(waitUntil(NOW.plus(SPREAD.dividedBy(2))));
        assertThat(c.turn(full, NOW, NOW))
                .as("its job ran in its slot with the deferral's fire: this one does not run")
                .isEqualTo(new CatchUpSpread.Turn.CaughtUp(NOW));
    }

    @Test
    void aLaterCatchUpStartsAfterTheSlotsOfTheEarlierOne() {
        CatchUpSpread c = new CatchUpSpread(SPREAD);
        Instant due = Instant.parse("2026-06-10T03:00:00Z");
        OperableTrigger a = trigger("db.a", OperationKind.EXPIRATION, due);
        OperableTrigger b = trigger("db.b", OperationKind.EXPIRATION, due);
        misfire(c, a, NOW);
        misfire(c, b, NOW);
        c.turn(a, NOW, NOW);
        assertThat(c.turn(b, NOW, NOW)).isEqualTo(waitUntil(NOW.plus(Duration.ofMinutes(5))));
        // a minute later Quartz's misfire handler finds two more
        Instant later = NOW.plus(Duration.ofMinutes(1));
        OperableTrigger x = trigger("db.x", OperationKind.AUTO_TAG, due);
        OperableTrigger y = trigger("db.y", OperationKind.AUTO_TAG, due);
        misfire(c, x, later);
        misfire(c, y, later);
        // y fires first; x comes first by table, and the gap is now half the spread
        assertThat(c.turn(y, later, later)).isEqualTo(waitUntil(NOW.plus(Duration.ofMinutes(15))));
        assertThat(c.turn(x, later, later)).isEqualTo(waitUntil(NOW.plus(Duration.ofMinutes(10))));
    }

    @Test
    void aSpreadFireThatWaitedPastTheMisfireThresholdRunsAtOnce() {
        CatchUpSpread c = new CatchUpSpread(SPREAD);
        Instant due = Instant.parse("2026-06-10T03:00:00Z");
        OperableTrigger a = trigger("db.a", OperationKind.EXPIRATION, due);
        OperableTrigger b = trigger("db.b", OperationKind.EXPIRATION, due);
        misfire(c, a, NOW);
        misfire(c, b, NOW);
        c.turn(a, NOW, NOW);
        Instant slot = ((CatchUpSpread.Turn.WaitUntil) c.turn(b, NOW, NOW)).slot();
        // every thread busy: b's one-shot misfires two minutes after its slot and fires now
        OperableTrigger spread = (OperableTrigger) Schedule.catchUp(b.getJobKey(), slot);
        spread.setNextFireTime(Date.from(slot));
        Instant late = slot.plus(Duration.ofMinutes(2));
        misfire(c, spread, late);
        assertThat(c.turn(spread, late, late)).isEqualTo(RUN);
        assertThat(c.planned()).isEmpty();
    }

    @Test
    void whatDoesNotFireNowOnAMisfireIsNotSpreadNorIsAnythingWithoutASpread() {
        CatchUpSpread c = new CatchUpSpread(SPREAD);
        Instant due = Instant.parse("2026-06-10T03:30:00Z");
        OperableTrigger orphans = trigger("db.a", OperationKind.ORPHAN_CLEANUP, due);
        OperableTrigger backlog = trigger("db.a", OperationKind.BACKLOG_COMPACTION, due);
        OperableTrigger recovery = (OperableTrigger) TriggerBuilder.newTrigger()
                .withIdentity("recover_node-a_1", Scheduler.DEFAULT_RECOVERY_GROUP)
                .forJob(new JobKey("expiration", "db.b"))
                .startAt(Date.from(due))
                .build();
        OperableTrigger x = trigger("db.x", OperationKind.EXPIRATION, due);
        OperableTrigger y = trigger("db.y", OperationKind.EXPIRATION, due);
        for (OperableTrigger t : List.of(orphans, backlog, recovery, x)) {
            misfire(c, t, NOW);
        }
        assertThat(c.turn(x, NOW, NOW)).as("the only misfire to spread").isEqualTo(RUN);
        assertThat(c.planned()).isEmpty();

        CatchUpSpread none = new CatchUpSpread(Duration.ZERO);
        misfire(none, x, NOW);
        misfire(none, y, NOW);
        assertThat(none.turn(x, NOW, NOW)).isEqualTo(RUN);
        assertThat(none.turn(y, NOW, NOW)).isEqualTo(RUN);
    }
}
