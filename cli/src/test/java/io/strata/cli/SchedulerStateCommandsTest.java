package io.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.scheduler.SchedulerService;
import io.strata.scheduler.config.ConfigLoader;
import io.strata.scheduler.lease.LeaseAcquisition;
import io.strata.scheduler.lease.LeaseOperation;
import io.strata.scheduler.quartz.SchedulerDatabase;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code strata scheduler trigger|history|status|pause|resume} in-process, on the database of a
 * scheduler service running beside them.
 */
class SchedulerStateCommandsTest {
    @TempDir
    Path dir;

    private Path config(Path warehouse) throws Exception {
        return Files.writeString(dir.resolve("scheduler.yaml"), """
                warehouse: %s
                scheduler-id: cli-test
                discovery-interval: 1h
                shutdown-timeout: 10s
                store:
                  h2-path: %s
                tables:
                  databases:
                    - name: db
                defaults:
                  expiration:
                    cron: "0 0 3 1 1 ? 2099"
                    retain-min: 1
                    older-than: 0 ms
                """.formatted(
                        warehouse, dir.resolve("state").resolve("quartz")));
    }

    @Test
    void triggerHistoryStatusPauseAndResumeWhileTheServiceRuns() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        TestTables.oneRowTable(warehouse.toString());
        String cfg = config(warehouse).toString();
        try (SchedulerService service = SchedulerService.start(ConfigLoader.load(Path.of(cfg)))) {
            CliRunner.Result trigger = CliRunner.run(
                    "scheduler", "trigger", "--config", cfg, "--table", "db.t", "--operation", "expiration");
            assertThat(trigger.exit()).as(trigger.err()).isZero();
            assertThat(trigger.out()).startsWith("db.t expiration: expired 0 snapshots");

            CliRunner.Result history = CliRunner.run("scheduler", "history", "--config", cfg, "--table", "db.t");
            assertThat(history.exit()).as(history.err()).isZero();
            assertThat(history.out())
                    .containsPattern("db\\.t +expiration +SUCCEEDED")
                    .contains("1 runs");
            CliRunner.Result json = CliRunner.run("scheduler", "history", "--config", cfg, "--json");
            assertThat(json.out()).contains("\"outcome\" : \"SUCCEEDED\"").contains("\"owner\" : \"cli-test-manual\"");
            assertThat(CliRunner.run("scheduler", "history", "--config", cfg, "--table", "db.other")
                            .out())
                    .contains("0 runs");

            CliRunner.Result pause = CliRunner.run(
                    "scheduler",
                    "pause",
                    "--config",
                    cfg,
                    "--table",
                    "db.t",
                    "--operation",
                    "expiration",
                    "--reason",
                    "upgrade");
            assertThat(pause.exit()).as(pause.err()).isZero();
            assertThat(pause.out()).contains("paused db.t / expiration");
            CliRunner.Result paused = CliRunner.run(
                    "scheduler", "trigger", "--config", cfg, "--table", "db.t", "--operation", "expiration");
            assertThat(paused.out()).contains("skipped: paused").contains("upgrade");
            CliRunner.Result status = CliRunner.run("scheduler", "status", "--config", cfg);
            assertThat(status.exit()).as(status.err()).isZero();
            assertThat(status.out())
                    .containsPattern("db\\.t +expiration +2099-01-01T03:00:00Z")
                    .contains("pauses: 1")
                    .contains("upgrade");
            assertThat(CliRunner.run("scheduler", "status", "--config", cfg, "--json")
                            .out())
                    .contains("\"nextFire\" : \"2099-01-01T03:00:00Z\"")
                    .contains("\"reason\" : \"upgrade\"");

            CliRunner.Result resume = CliRunner.run(
                    "scheduler", "resume", "--config", cfg, "--table", "db.t", "--operation", "expiration");
            assertThat(resume.out()).contains("resumed db.t / expiration");
            CliRunner.Result again = CliRunner.run(
                    "scheduler", "resume", "--config", cfg, "--table", "db.t", "--operation", "expiration");
            assertThat(again.exit()).isEqualTo(1);
            assertThat(again.err()).contains("db.t / expiration is not paused");

            LeaseAcquisition held = service.database()
                    .leases()
                    .acquire("db.t", LeaseOperation.SNAPSHOT_EXPIRATION, "other-host", Duration.ofMinutes(1));
            CliRunner.Result leased = CliRunner.run("scheduler", "status", "--config", cfg);
            assertThat(leased.out()).contains("leases: 1").containsPattern("db\\.t +snapshot-expiration +other-host");
            CliRunner.Result blocked = CliRunner.run(
                    "scheduler", "trigger", "--config", cfg, "--table", "db.t", "--operation", "expiration");
            assertThat(blocked.out()).contains("skipped: held back by").contains("other-host");
            service.database().leases().release(held.lease());

            CliRunner.Result all = CliRunner.run("scheduler", "history", "--config", cfg, "--limit", "2");
            assertThat(all.out()).containsPattern("db\\.t +expiration +SKIPPED").contains("2 runs");
            CliRunner.Result unknown =
                    CliRunner.run("scheduler", "trigger", "--config", cfg, "--table", "db.t", "--operation", "vacuum");
            assertThat(unknown.exit()).isEqualTo(1);
            assertThat(unknown.err()).contains("unknown operation 'vacuum'; known: expiration");
        }
        // the history outlives the service
        try (SchedulerDatabase db =
                SchedulerDatabase.open(ConfigLoader.load(Path.of(cfg)).store(), 1, Clock.systemUTC())) {
            assertThat(db.history().recent(Optional.empty(), 10)).hasSize(3);
        }
    }

    @Test
    void triggerRunsChangelogExpirationPartitionExpirationAndAutoTagAndHistoryCountsThem() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        FileStoreTable t = Catalog.open(warehouse.toString())
                .createTable(
                        "db",
                        "p",
                        Schema.newBuilder()
                                .column("dt", "STRING NOT NULL")
                                .column("k", "BIGINT NOT NULL")
                                .primaryKey("dt", "k")
                                .partitionKeys("dt")
                                .option("bucket", "1")
                                .option("write-only", "true")
                                .option("partition.expiration-time", "7d")
                                .option("tag.automatic-creation", "process-time")
                                .build());
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            w.write(GenericRow.insert(today.minusDays(30).toString(), 1L));
            w.write(GenericRow.insert(today.toString(), 2L));
            c.commit(1, w.prepareCommit());
        }
        Path cfg = Files.writeString(dir.resolve("retention.yaml"), """
                warehouse: %s
                scheduler-id: cli-retention
                store:
                  h2-path: %s
                tables:
                  names: [db.p]
                defaults:
                  changelog-expiration:
                    cron: "0 0 3 1 1 ? 2099"
                  partition-expiration:
                    cron: "0 0 3 1 1 ? 2099"
                  auto-tag:
                    cron: "0 0 3 1 1 ? 2099"
                """.formatted(
                        warehouse, dir.resolve("state").resolve("quartz")));
        String[] trigger = {"scheduler", "trigger", "--config", cfg.toString(), "--table", "db.p", "--operation"};

        CliRunner.Result changelog = CliRunner.run(with(trigger, "changelog-expiration"));
        assertThat(changelog.exit()).as(changelog.err()).isZero();
        assertThat(changelog.out()).startsWith("db.p changelog-expiration: no kept changelog due to expire");
        CliRunner.Result partitions = CliRunner.run(with(trigger, "partition-expiration"));
        assertThat(partitions.exit()).as(partitions.err()).isZero();
        assertThat(partitions.out())
                .startsWith("db.p partition-expiration: dropped 1 partitions in snapshot 2: dt=" + today.minusDays(30));
        CliRunner.Result tag = CliRunner.run(with(trigger, "auto-tag"));
        assertThat(tag.exit()).as(tag.err()).isZero();
        assertThat(tag.out()).startsWith("db.p auto-tag: no tag created: no snapshot committed before");

        CliRunner.Result json = CliRunner.run("scheduler", "history", "--config", cfg.toString(), "--json");
        assertThat(json.out())
                .contains("\"operation\" : \"partition-expiration\"")
                .contains("\"partitionsExpired\" : 1")
                .contains("\"operation\" : \"auto-tag\"")
                .contains("\"operation\" : \"changelog-expiration\"");
        assertThat(TestTables.scan(Catalog.open(warehouse.toString()).getTable("db.p")))
                .singleElement()
                .satisfies(r -> assertThat(r.get(0)).isEqualTo(today.toString()));
    }

    private static String[] with(String[] args, String last) {
        String[] out = java.util.Arrays.copyOf(args, args.length + 1);
        out[args.length] = last;
        return out;
    }
}
