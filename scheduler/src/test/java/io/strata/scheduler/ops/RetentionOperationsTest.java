package io.strata.scheduler.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.scheduler.SchedulerService;
import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.history.Run;
import io.strata.scheduler.history.RunOutcome;
import io.strata.scheduler.http.StatusView;
import io.strata.scheduler.support.DailyPartitions;
import io.strata.scheduler.support.ModelWriter;
import io.strata.scheduler.support.SchedulerTests;
import io.strata.storage.data.GenericRow;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.testutil.TestTables;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Changelog expiration, partition expiration and automatic tags fired by their cron (every second
 * here) on real tables in a temporary warehouse, each doing what its engine operation does; tables
 * of the selected database an operation does not apply to are skipped with the reason.
 */
class RetentionOperationsTest {
    private static final long SEED = 18;
    private static final String EVERY_SECOND = "\"* * * * * ?\"";

    @TempDir
    Path dir;

    private final BlockingQueue<Outcome> outcomes = new LinkedBlockingQueue<>();
    private final List<Outcome> seen = new ArrayList<>();

    private SchedulerConfig config(Path warehouse, String defaults) {
        return SchedulerTests.config(warehouse, SchedulerTests.h2Store(dir), """
                tables:
                  databases:
                    - name: db
                """ + defaults);
    }

    /** The first outcome of {@code kind} on {@code table} the schedule delivered, waiting up to 30 s. */
    private Outcome await(String table, OperationKind kind) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            for (Outcome o : seen) {
                if (o.table().equals(table) && o.kind() == kind) {
                    return o;
                }
            }
            Outcome next = outcomes.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (next == null) {
                throw new AssertionError("no " + kind.key() + " of " + table + " within 30 s; got " + seen);
            }
            seen.add(next);
        }
    }

    private static Run firstRun(SchedulerService s, String table, OperationKind kind) throws Exception {
        List<Run> runs = s.database().history().recent(Optional.of(table), 100);
        return runs.stream()
                .filter(r -> r.operation().equals(kind.key()) && r.outcome() != RunOutcome.RUNNING)
                .reduce((newer, older) -> older)
                .orElseThrow(() -> new AssertionError("no finished run of " + kind.key() + " on " + table));
    }

    private static Map<Long, String> contents(List<GenericRow> rows) {
        Map<Long, String> out = new TreeMap<>();
        rows.forEach(r -> out.put((Long) r.get(0), (String) r.get(1)));
        return out;
    }

    @Test
    void changelogExpirationExpiresTheKeptChangelogsByItsOverrideAndNoSnapshot() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        Map<String, String> retention = Map.of(
                "snapshot.num-retained.min", "1",
                "snapshot.num-retained.max", "2",
                "changelog.num-retained.max", "100",
                "changelog.time-retained", "1d");
        Map<Long, String> model;
        try (ModelWriter feeder = new ModelWriter(warehouse.toString(), "t", retention, SEED)) {
            for (int i = 0; i < 8; i++) {
                feeder.commitBatch(10);
            }
            model = feeder.model();
            // the table's own retention keeps the changes of the 6 snapshots that expire
            feeder.table().newSnapshotExpiration().expire();
        }
        FileStoreTable t = Catalog.open(warehouse.toString()).getTable("db.t");
        assertThat(t.snapshotManager().listIds()).containsExactly(7L, 8L);
        assertThat(t.context().changelogManager().ids()).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);

        SchedulerConfig config = config(warehouse, """
                defaults:
                  changelog-expiration:
                    cron: %s
                    retain-max: 4
                """.formatted(EVERY_SECOND));
        try (SchedulerService s =
                SchedulerService.start(config, SchedulerTests.noCompactions(), Clock.systemUTC(), outcomes::add)) {
            Outcome o = await("db.t", OperationKind.CHANGELOG_EXPIRATION);
            assertThat(o.summary()).startsWith("expired the kept changelogs of snapshots 1..4, deleted ");
            Run run = firstRun(s, "db.t", OperationKind.CHANGELOG_EXPIRATION);
            assertThat(run.outcome()).isEqualTo(RunOutcome.SUCCEEDED);
            assertThat(run.counters().changelogsExpired()).isEqualTo(4);
            assertThat(run.counters().snapshotsExpired()).isZero();
            assertThat(run.counters().filesDeleted()).isPositive();
        }
        // retain-max 4 overrides the table's 100: the changes of the latest 4 snapshots (5..8) stay
        assertThat(t.context().changelogManager().ids()).containsExactly(5L, 6L);
        assertThat(t.newIncrementalRead().historyStart()).hasValue(5);
        assertThat(t.snapshotManager().listIds()).as("no snapshot expires").containsExactly(7L, 8L);
        assertThat(contents(TestTables.scan(t))).as("seed " + SEED).isEqualTo(model);
    }

    @Test
    void partitionExpirationDropsOldPartitionsADryRunDeletesNothingAndOtherTablesAreSkipped() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        List<LocalDate> days = List.of(today.minusDays(20), today.minusDays(10), today.minusDays(3), today);
        // no partition.expiration-time of its own: the config's older-than sets it for the runs
        DailyPartitions events = new DailyPartitions(warehouse.toString(), "events", Map.of());
        events.write(days);
        DailyPartitions dry =
                new DailyPartitions(warehouse.toString(), "dry", Map.of("partition.expiration-time", "7d"));
        dry.write(days);
        long drySnapshots = dry.table().snapshotManager().latestId().getAsLong();
        TestTables.oneRowTable(warehouse.toString()); // db.t, not partitioned

        SchedulerConfig config = config(warehouse, """
                defaults:
                  partition-expiration:
                    cron: %s
                    older-than: 7d
                overrides:
                  db.dry:
                    partition-expiration:
                      dry-run: true
                """.formatted(EVERY_SECOND));
        try (SchedulerService s =
                SchedulerService.start(config, SchedulerTests.noCompactions(), Clock.systemUTC(), outcomes::add)) {
            Outcome dropped = await("db.events", OperationKind.PARTITION_EXPIRATION);
            String old = "dt=" + today.minusDays(20) + ", dt=" + today.minusDays(10);
            assertThat(dropped.summary()).startsWith("dropped 2 partitions in snapshot 2: " + old);
            assertThat(firstRun(s, "db.events", OperationKind.PARTITION_EXPIRATION)
                            .counters()
                            .partitionsExpired())
                    .isEqualTo(2);

            Outcome dryRun = await("db.dry", OperationKind.PARTITION_EXPIRATION);
            assertThat(dryRun.summary()).isEqualTo("dry run: would drop 2 partitions: " + old);
            assertThat(firstRun(s, "db.dry", OperationKind.PARTITION_EXPIRATION)
                            .counters()
                            .isNone())
                    .isTrue();

            await("db.t", OperationKind.PARTITION_EXPIRATION);
            Run skipped = firstRun(s, "db.t", OperationKind.PARTITION_EXPIRATION);
            assertThat(skipped.outcome()).isEqualTo(RunOutcome.SKIPPED);
            assertThat(skipped.heldBack()).hasValue("table db.t is not partitioned: no partition to expire");
        }
        Map<Object, Long> rowsPerDay =
                TestTables.scan(Catalog.open(warehouse.toString()).getTable("db.events")).stream()
                        .collect(Collectors.groupingBy(r -> r.get(0), TreeMap::new, Collectors.counting()));
        assertThat(rowsPerDay)
                .as("the old partitions' rows are gone, the others remain")
                .containsExactly(
                        Map.entry(today.minusDays(3).toString(), (long) DailyPartitions.ROWS_PER_DAY),
                        Map.entry(today.toString(), (long) DailyPartitions.ROWS_PER_DAY));
        FileStoreTable dryTable = Catalog.open(warehouse.toString()).getTable("db.dry");
        assertThat(dryTable.snapshotManager().latestId())
                .as("a dry run commits nothing")
                .hasValue(drySnapshots);
        assertThat(TestTables.scan(dryTable)).hasSize(days.size() * DailyPartitions.ROWS_PER_DAY);
    }

    @Test
    void anAutoTagRunTagsTheLastSnapshotOfTheDayThatEndedAndExpiresOldAutoTags() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        Map<Long, String> tagged;
        try (ModelWriter feeder = new ModelWriter(
                        warehouse.toString(),
                        "t",
                        Map.of("tag.automatic-creation", "process-time", "tag.num-retained-max", "1"),
                        SEED);
                ModelWriter plain = new ModelWriter(warehouse.toString(), "plain", Map.of(), SEED)) {
            feeder.commitBatch(10);
            feeder.table().tags().create("2026-01-01", Optional.of(1L), Optional.empty()); // an older automatic name
            feeder.commitBatch(10);
            plain.commitBatch(10);
            tagged = feeder.model();
            assertThat(feeder.table().tags().list())
                    .as("no commit after the day ended")
                    .hasSize(1);
            Instant committed = Instant.ofEpochMilli(
                    feeder.table().snapshotManager().snapshot(2).timeMillis());
            String day = committed.atZone(ZoneOffset.UTC).toLocalDate().toString();
            // the scheduler's clock, the engine's for its runs, is half an hour into the next day
            Clock nextDay = Clock.fixed(
                    committed
                            .truncatedTo(ChronoUnit.DAYS)
                            .plus(Duration.ofHours(24).plusMinutes(30)),
                    ZoneOffset.UTC);

            SchedulerConfig config = config(warehouse, """
                    defaults:
                      auto-tag:
                        cron: %s
                    """.formatted(EVERY_SECOND));
            try (SchedulerService s =
                    SchedulerService.start(config, SchedulerTests.noCompactions(), nextDay, outcomes::add)) {
                Outcome o = await("db.t", OperationKind.AUTO_TAG);
                assertThat(o.summary())
                        .isEqualTo("created tag '" + day + "' on snapshot 2; deleted automatic tags beyond "
                                + "tag.num-retained-max: [2026-01-01]");
                assertThat(firstRun(s, "db.t", OperationKind.AUTO_TAG)
                                .counters()
                                .tagsCreated())
                        .isEqualTo(1);

                await("db.plain", OperationKind.AUTO_TAG);
                assertThat(firstRun(s, "db.plain", OperationKind.AUTO_TAG).heldBack())
                        .hasValue("table db.plain has tag.automatic-creation none: set it to process-time for "
                                + "automatic tags");

                ByteArrayOutputStream scrape = new ByteArrayOutputStream();
                s.metrics().write(scrape);
                assertThat(scrape.toString(StandardCharsets.UTF_8))
                        .contains("strata_operation_last_success_timestamp_seconds{operation=\"auto-tag\","
                                + "table=\"db.t\"}");
                StatusView.TableStatus status = s.statusView().tables().stream()
                        .filter(ts -> ts.table().equals("db.t"))
                        .findFirst()
                        .orElseThrow();
                // the last run, a later fire's, may have found the tag there already
                assertThat(status.operations()).singleElement().satisfies(op -> {
                    assertThat(op.operation()).isEqualTo("auto-tag");
                    assertThat(op.nextFire()).isPresent();
                    assertThat(op.lastRun())
                            .hasValueSatisfying(r -> assertThat(r.outcome()).isEqualTo("succeeded"));
                });
            }
            feeder.commitBatch(10);
            FileStoreTable t = Catalog.open(warehouse.toString()).getTable("db.t");
            assertThat(t.tags().list())
                    .singleElement()
                    .satisfies(tag -> assertThat(tag.name()).isEqualTo(day));
            assertThat(contents(TestTables.scan(t.newReadBuilder().withTag(day))))
                    .as("time travel to the tag reads the day's last snapshot")
                    .isEqualTo(tagged);
            assertThat(contents(TestTables.scan(t))).isEqualTo(feeder.model()).isNotEqualTo(tagged);
        }
    }
}
