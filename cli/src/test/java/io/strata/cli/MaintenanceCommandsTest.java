package io.strata.cli;

import static io.strata.cli.CliRunner.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.strata.cli.CliRunner.Result;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.GenericRow;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code strata expire} and {@code strata orphan-clean}: flags override the table's options for one run; dry runs change nothing. */
class MaintenanceCommandsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private String wh() {
        return dir.resolve("wh").toString();
    }

    /** db.t with 8 snapshots: 6 appends and 2 full compactions. */
    @BeforeEach
    void history() {
        FileStoreTable t = Catalog.open(wh())
                .createTable(
                        "db",
                        "t",
                        Schema.newBuilder()
                                .column("id", "BIGINT NOT NULL")
                                .column("v", "STRING")
                                .primaryKey("id")
                                .option("bucket", "1")
                                .option("write-only", "true")
                                .build());
        long identifier = 0;
        for (int c = 0; c < 6; c++) {
            try (TableWrite w = t.newWrite("w");
                    TableCommit commit = t.newCommit("w")) {
                for (long id = 0; id < 20; id++) {
                    w.write(GenericRow.insert(id, "v" + c));
                }
                commit.commit(++identifier, w.prepareCommit());
            }
            if (c % 3 == 2) {
                t.copyWithOptions(Map.of("write-only", "false"))
                        .newCompactor()
                        .compact(CompactStrategy.FULL, "compactor", c);
            }
        }
    }

    @Test
    void aDryRunListsWhatWouldGoAndDeletesNothing() throws Exception {
        Result r = run(
                "expire",
                "--warehouse",
                wh(),
                "--table",
                "db.t",
                "--retain-min",
                "2",
                "--older-than",
                "0 s",
                "--dry-run",
                "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode j = JSON.readTree(r.out());
        assertThat(j.get("dryRun").asBoolean()).isTrue();
        assertThat(j.get("snapshotsExpired").asLong()).isEqualTo(6);
        assertThat(j.get("earliestRetained").asLong()).isEqualTo(7);
        assertThat(j.get("heldBackBy").asText()).isEqualTo("min_retained");
        assertThat(j.get("files")).isNotEmpty();
        for (JsonNode f : j.get("files")) {
            assertThat(Files.exists(
                            Path.of(new org.apache.hadoop.fs.Path(f.get("path").asText()).toUri())))
                    .as("a dry run deletes nothing: %s", f)
                    .isTrue();
        }
        assertThat(Catalog.open(wh())
                        .getTable("db.t")
                        .snapshotManager()
                        .earliestId()
                        .getAsLong())
                .isEqualTo(1);
    }

    @Test
    void expiresByTheFlagsAndReportsPerKind() throws Exception {
        Result r = run(
                "expire",
                "--warehouse",
                wh(),
                "--table",
                "db.t",
                "--retain-min",
                "2",
                "--older-than",
                "0 s",
                "--max-deletes",
                "4");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("expired snapshots 1..4; earliest retained 5 of 8 (stopped by limit)");
        assertThat(r.out()).contains("snapshot").contains("data").contains("manifest_list");
        FileStoreTable t = Catalog.open(wh()).getTable("db.t");
        assertThat(t.snapshotManager().earliestId().getAsLong()).isEqualTo(5);
        assertThat(t.newReadBuilder().withSnapshot(5)).isNotNull();

        Result json = run(
                "expire", "--warehouse", wh(), "--table", "db.t", "--retain-min", "1", "--older-than", "0 s", "--json");
        JsonNode j = JSON.readTree(json.out());
        assertThat(j.get("snapshotsExpired").asLong()).isEqualTo(3);
        assertThat(j.get("earliestRetained").asLong()).isEqualTo(8);
        // snapshot 8, the second full compaction, replaced what 5..7 appended; their manifests stay in 8's base
        assertThat(j.get("files").findValuesAsText("kind")).contains("snapshot", "data", "manifest_list");

        Result again =
                run("expire", "--warehouse", wh(), "--table", "db.t", "--retain-min", "1", "--older-than", "0 s");
        assertThat(again.out()).contains("nothing to expire (min_retained)");
        Result scan = run("scan", "--warehouse", wh(), "--table", "db.t", "--json");
        assertThat(scan.exit()).as(scan.err()).isZero();
        assertThat(scan.lines()).as("JSON lines, a row each").hasSize(20);
    }

    @Test
    void theTablesRetentionKeepsYoungSnapshotsAndBadFlagsNameTheOption() {
        Result r = run("expire", "--warehouse", wh(), "--table", "db.t");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("nothing to expire (min_retained)"); // 8 snapshots, 10 kept by default
        Result young = run("expire", "--warehouse", wh(), "--table", "db.t", "--retain-min", "1");
        assertThat(young.out()).contains("nothing to expire (time_retained)"); // younger than 1 h
        Result bad = run("expire", "--warehouse", wh(), "--table", "db.t", "--older-than", "-5m");
        assertThat(bad.exit()).isNotZero();
        assertThat(bad.err()).contains("snapshot.time-retained");
        Result bad2 = run("expire", "--warehouse", wh(), "--table", "db.t", "--retain-min", "0");
        assertThat(bad2.exit()).isNotZero();
        assertThat(bad2.err()).contains("snapshot.num-retained.min");
    }

    @Test
    void orphanCleanRefusesRecentThresholdsAndFindsNothingInAHealthyTable() throws Exception {
        Result recent = run("orphan-clean", "--warehouse", wh(), "--table", "db.t", "--older-than", "10m");
        assertThat(recent.exit()).isNotZero();
        assertThat(recent.err()).contains("1 hour").contains("db.t");

        Result dry = run(
                "orphan-clean",
                "--warehouse",
                wh(),
                "--table",
                "db.t",
                "--older-than",
                "0s",
                "--allow-recent",
                "--dry-run",
                "--json");
        assertThat(dry.exit()).as(dry.err()).isZero();
        JsonNode j = JSON.readTree(dry.out());
        assertThat(j.get("files")).as("every file is referenced").isEmpty();
        assertThat(j.get("scanned").asInt()).isGreaterThan(10);

        // a file nothing references, in a bucket directory
        Path bucket = dir.resolve("wh").resolve("db.db").resolve("t").resolve("bucket-0");
        Path orphan = Files.writeString(bucket.resolve("data-orphan.parquet"), "x");
        Files.setLastModifiedTime(orphan, FileTime.from(Instant.now().minusSeconds(60)));
        Result clean =
                run("orphan-clean", "--warehouse", wh(), "--table", "db.t", "--older-than", "0s", "--allow-recent");
        assertThat(clean.exit()).as(clean.err()).isZero();
        assertThat(clean.out()).contains("deleted 1 files");
        assertThat(orphan).doesNotExist();
        Result scan = run("scan", "--warehouse", wh(), "--table", "db.t", "--json");
        assertThat(scan.lines()).hasSize(20);
    }

    /** The JSON of a run with every path made relative to the warehouse {@code wh}. */
    private static String relative(String json, String wh) {
        String root = Path.of(wh).toAbsolutePath().toUri().getPath();
        return json.replace("file:" + root, "").replace(root, "");
    }

    private static void copyTree(Path from, Path to) throws Exception {
        try (java.util.stream.Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path target = to.resolve(from.relativize(p));
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    @Test
    void withParallelismTheFlinkJobDeletesWhatTheSingleProcessRunDeletes() throws Exception {
        Path orphan = dir.resolve("wh")
                .resolve("db.db")
                .resolve("t")
                .resolve("bucket-0")
                .resolve("data-orphan.parquet");
        Files.writeString(orphan, "x");
        Files.setLastModifiedTime(orphan, FileTime.from(Instant.now().minusSeconds(60)));
        String other = dir.resolve("wh2").toString();
        copyTree(dir.resolve("wh"), Path.of(other));
        String[] expire = {"expire", "--table", "db.t", "--retain-min", "2", "--older-than", "0 s", "--json"};
        String[] clean = {"orphan-clean", "--table", "db.t", "--older-than", "0s", "--allow-recent", "--json"};

        Result local = run(with(expire, "--warehouse", wh()));
        Result job = run(with(expire, "--warehouse", other, "--parallelism", "2"));
        assertThat(local.exit()).as(local.err()).isZero();
        assertThat(job.exit()).as(job.err()).isZero();
        assertThat(JSON.readTree(local.out()).get("snapshotsExpired").asLong()).isEqualTo(6);
        assertThat(JSON.readTree(relative(job.out(), other))).isEqualTo(JSON.readTree(relative(local.out(), wh())));

        Result localClean = run(with(clean, "--warehouse", wh()));
        Result jobClean = run(with(clean, "--warehouse", other, "--parallelism", "3"));
        assertThat(localClean.exit()).as(localClean.err()).isZero();
        assertThat(jobClean.exit()).as(jobClean.err()).isZero();
        assertThat(JSON.readTree(localClean.out()).get("files")).hasSize(1);
        assertThat(JSON.readTree(relative(jobClean.out(), other)))
                .isEqualTo(JSON.readTree(relative(localClean.out(), wh())));
        assertThat(run("scan", "--warehouse", other, "--table", "db.t", "--json")
                        .lines())
                .isEqualTo(run("scan", "--warehouse", wh(), "--table", "db.t", "--json")
                        .lines());

        Result lone = run("expire", "--warehouse", wh(), "--table", "db.t", "--flink", "localhost:8081");
        assertThat(lone.exit()).isNotZero();
        assertThat(lone.err()).contains("--parallelism above 1");
        Result badAddress = run(with(clean, "--warehouse", wh(), "--parallelism", "2", "--flink", "localhost"));
        assertThat(badAddress.exit()).isNotZero();
        assertThat(badAddress.err()).contains("--flink must be HOST:PORT");
    }

    private static String[] with(String[] args, String... more) {
        String[] all = java.util.Arrays.copyOf(args, args.length + more.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        return all;
    }

    @Test
    void tagsPinASnapshotThatScansAfterItExpired() throws Exception {
        Result created =
                run("tag", "create", "--warehouse", wh(), "--table", "db.t", "--name", "v1", "--snapshot", "1");
        assertThat(created.exit()).as(created.err()).isZero();
        assertThat(created.out()).contains("tag 'v1' on snapshot 1");
        assertThat(run("tag", "create", "--warehouse", wh(), "--table", "db.t", "--name", "weekly", "--retain", "7d")
                        .exit())
                .isZero();
        Result dup = run("tag", "create", "--warehouse", wh(), "--table", "db.t", "--name", "v1");
        assertThat(dup.exit()).isNotZero();
        assertThat(dup.err()).contains("tag 'v1' exists (on snapshot 1)");

        assertThat(run("expire", "--warehouse", wh(), "--table", "db.t", "--retain-min", "1", "--older-than", "0 s")
                        .exit())
                .isZero();
        Result scan = run("scan", "--warehouse", wh(), "--table", "db.t", "--tag", "v1", "--json");
        assertThat(scan.exit()).as(scan.err()).isZero();
        assertThat(scan.lines()).hasSize(20);
        assertThat(scan.out()).contains("\"v0\"").doesNotContain("\"v5\"");

        JsonNode list = JSON.readTree(run("tag", "list", "--warehouse", wh(), "--table", "db.t", "--json")
                .out());
        assertThat(list.findValuesAsText("name")).containsExactly("v1", "weekly");
        assertThat(list.get(1).get("retain").asText()).isEqualTo("7 d");
        JsonNode view = JSON.readTree(
                run("tags", "--warehouse", wh(), "--table", "db.t", "--json").out());
        assertThat(view).isEqualTo(list);
        assertThat(view.get(0).get("snapshot").asLong()).isEqualTo(1);
        assertThat(view.get(0).get("expires").isNull()).isTrue();
        assertThat(view.get(1).get("expired").asBoolean()).isFalse();
        Result text = run("tags", "--warehouse", wh(), "--table", "db.t");
        assertThat(text.exit()).as(text.err()).isZero();
        assertThat(text.lines().get(0).split("\\s+"))
                .containsExactly(
                        "name", "snapshot", "schema", "snapshot_time", "records", "created", "retain", "expires");
        assertThat(text.lines().get(1)).startsWith("v1").endsWith("never");
        assertThat(text.lines().get(2)).startsWith("weekly").contains("7 d");

        assertThat(run("tag", "delete", "--warehouse", wh(), "--table", "db.t", "--name", "v1")
                        .exit())
                .isZero();
        Result gone = run("scan", "--warehouse", wh(), "--table", "db.t", "--tag", "v1");
        assertThat(gone.exit()).isNotZero();
        assertThat(gone.err()).contains("no tag 'v1'").contains("weekly");
    }

    @Test
    void rollbackMakesASnapshotTheLatestAfterADryRun() throws Exception {
        Result dry = run("rollback", "--warehouse", wh(), "--table", "db.t", "--to-snapshot", "1", "--dry-run");
        assertThat(dry.exit()).as(dry.err()).isZero();
        assertThat(dry.out()).contains("would roll back to snapshot 1; would remove snapshots [8, 7, 6, 5, 4, 3, 2]");
        assertThat(Catalog.open(wh())
                        .getTable("db.t")
                        .snapshotManager()
                        .latestId()
                        .getAsLong())
                .isEqualTo(8);

        JsonNode j =
                JSON.readTree(run("rollback", "--warehouse", wh(), "--table", "db.t", "--to-snapshot", "1", "--json")
                        .out());
        assertThat(j.get("target").asLong()).isEqualTo(1);
        assertThat(j.get("snapshotsRemoved")).hasSize(7);
        Result scan = run("scan", "--warehouse", wh(), "--table", "db.t", "--json");
        assertThat(scan.out()).contains("\"v0\"").doesNotContain("\"v1\"");

        Result both = run("rollback", "--warehouse", wh(), "--table", "db.t", "--to-snapshot", "1", "--to-tag", "x");
        assertThat(both.exit()).isNotZero();
        assertThat(both.err()).contains("mutually exclusive");
    }

    @Test
    void aConsumerReadsItsChangesOnceAndHoldsExpirationBack() throws Exception {
        Result first = run(
                "scan",
                "--warehouse",
                wh(),
                "--table",
                "db.t",
                "--changelog",
                "--consumer",
                "etl",
                "--snapshot",
                "3",
                "--count",
                "--json");
        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(JSON.readTree(first.out()).get("fromSnapshot").asLong()).isZero();
        JsonNode list = JSON.readTree(run("consumer", "list", "--warehouse", wh(), "--table", "db.t", "--json")
                .out());
        assertThat(list.get(0).get("id").asText()).isEqualTo("etl");
        assertThat(list.get(0).get("nextSnapshot").asLong()).isEqualTo(4);

        Result expire = run(
                "expire", "--warehouse", wh(), "--table", "db.t", "--retain-min", "1", "--older-than", "0 s", "--json");
        JsonNode e = JSON.readTree(expire.out());
        assertThat(e.get("earliestRetained").asLong()).isEqualTo(4);
        assertThat(e.get("heldBackBy").asText()).isEqualTo("consumer");
        assertThat(e.get("heldBackDetail").asText()).contains("etl");

        Result next = run(
                "scan",
                "--warehouse",
                wh(),
                "--table",
                "db.t",
                "--changelog",
                "--consumer",
                "etl",
                "--count",
                "--json");
        assertThat(JSON.readTree(next.out()).get("fromSnapshot").asLong()).isEqualTo(3);

        Result reset =
                run("consumer", "reset", "--warehouse", wh(), "--table", "db.t", "--id", "etl", "--next-snapshot", "2");
        assertThat(reset.exit()).isNotZero();
        assertThat(reset.err()).contains("outside the retained snapshots 4..8");
        assertThat(run("consumer", "delete", "--warehouse", wh(), "--table", "db.t", "--id", "etl")
                        .exit())
                .isZero();
        Result gone = run("consumer", "delete", "--warehouse", wh(), "--table", "db.t", "--id", "etl");
        assertThat(gone.err()).contains("no consumer 'etl'");
    }

    @Test
    void expirePartitionsDropsOldDaysAfterADryRun() throws Exception {
        FileStoreTable t = Catalog.open(wh())
                .createTable(
                        "db",
                        "days",
                        Schema.newBuilder()
                                .column("day", "STRING NOT NULL")
                                .column("id", "BIGINT NOT NULL")
                                .primaryKey("day", "id")
                                .partitionKeys("day")
                                .option("bucket", "1")
                                .build());
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            w.write(GenericRow.insert("2020-01-01", 1L));
            w.write(GenericRow.insert("2999-01-01", 1L));
            c.commit(1, w.prepareCommit());
        }
        Result dry =
                run("expire-partitions", "--warehouse", wh(), "--table", "db.days", "--older-than", "30d", "--dry-run");
        assertThat(dry.exit()).as(dry.err()).isZero();
        assertThat(dry.out()).contains("would drop 1 partitions: day=2020-01-01");
        JsonNode j = JSON.readTree(
                run("expire-partitions", "--warehouse", wh(), "--table", "db.days", "--older-than", "30d", "--json")
                        .out());
        assertThat(j.get("partitions").get(0).asText()).isEqualTo("day=2020-01-01");
        assertThat(j.get("snapshot").asLong()).isEqualTo(2);
        Result scan = run("scan", "--warehouse", wh(), "--table", "db.days", "--json");
        assertThat(scan.lines()).hasSize(1);
        assertThat(scan.out()).contains("2999-01-01");
        Result missing = run("expire-partitions", "--warehouse", wh(), "--table", "db.days");
        assertThat(missing.exit()).isNotZero();
        assertThat(missing.err()).contains("partition.expiration-time");
    }
}
