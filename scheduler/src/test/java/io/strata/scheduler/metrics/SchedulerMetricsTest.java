package io.strata.scheduler.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.scheduler.table.TableHealth;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.GenericRow;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.table.system.BucketsTable;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchedulerMetricsTest {
    @TempDir
    Path dir;

    private FileStoreTable table(int buckets) {
        return Catalog.open(dir.resolve("wh").toString())
                .createTable(
                        "db",
                        "t",
                        Schema.newBuilder()
                                .column("id", "BIGINT NOT NULL")
                                .column("v", "STRING")
                                .primaryKey("id")
                                .option("bucket", Integer.toString(buckets))
                                .option("write-only", "true")
                                .build());
    }

    private static void commits(FileStoreTable t, int n) throws Exception {
        for (int c = 0; c < n; c++) {
            try (TableWrite w = t.newWrite("w");
                    TableCommit commit = t.newCommit("w")) {
                for (long id = 0; id < 64; id++) {
                    w.write(GenericRow.insert(id, "v" + c));
                }
                commit.commit(c + 1, w.prepareCommit());
            }
        }
    }

    private static String text(SchedulerMetrics m) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        m.write(out);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aPollReadsTheShapeOfEveryBucketOfTheLatestSnapshot() throws Exception {
        FileStoreTable t = table(4);
        TableHealth empty = TableHealth.probe(t);
        assertThat(empty.snapshotsRetained()).isZero();
        assertThat(empty.buckets()).isEmpty();

        commits(t, 6);
        TableHealth h = TableHealth.probe(t);
        assertThat(h.latestSnapshot()).isEqualTo(6);
        assertThat(h.snapshotsRetained()).isEqualTo(6);
        assertThat(h.buckets()).hasSize(4);
        assertThat(h.buckets()).allSatisfy(b -> {
            assertThat(b.sortedRuns()).isEqualTo(6);
            assertThat(b.level0Files()).isEqualTo(6);
        });
        List<BucketsTable.BucketRow> rows = BucketsTable.rows(t, 6L);
        assertThat(h.liveBytes())
                .isEqualTo(rows.stream().mapToLong(r -> r.bytes).sum());
        assertThat(h.liveFiles()).isEqualTo(24);
        assertThat(h.bucketsOverSortedRuns(5)).isEqualTo(4);
        assertThat(h.bucketsOverLevel0Files(6)).isZero();

        t.copyWithOptions(Map.of("write-only", "false")).newCompactor().compact(CompactStrategy.FULL, "c", 1);
        TableHealth after = TableHealth.probe(t);
        assertThat(after.latestSnapshot()).isEqualTo(7);
        assertThat(after.maxSortedRuns()).isEqualTo(1);
        assertThat(after.level0Files()).isZero();
    }

    @Test
    void theTextFormatCarriesEachTablesBacklogAndOperations() throws Exception {
        FileStoreTable t = table(2);
        commits(t, 3);
        SchedulerMetrics m = new SchedulerMetrics(10);
        m.update(TableHealth.probe(t), 2, 5);
        m.recordRun("db.t", "expire", "succeeded", Duration.ofMillis(1500), Instant.ofEpochSecond(1_700_000_000), true);
        m.recordRun("db.t", "expire", "failed", Duration.ofMillis(250), Instant.ofEpochSecond(1_700_000_100), false);
        m.setLeases(List.of(new SchedulerMetrics.HeldLease("db.t", "compaction", "host-a")));
        m.setQueue(3, 1);

        String text = text(m);
        assertThat(text)
                .contains("strata_table_snapshots_retained{table=\"db.t\"} 3.0")
                .contains("strata_table_sorted_runs_max{table=\"db.t\"} 3.0")
                .contains("strata_table_sorted_runs_total{table=\"db.t\"} 6.0")
                .contains("strata_table_buckets_over_threshold{table=\"db.t\",threshold=\"sorted-runs\"} 2.0")
                .contains("strata_table_buckets_over_threshold{table=\"db.t\",threshold=\"level0-files\"} 0.0")
                .contains("strata_bucket_sorted_runs{bucket=\"0\",partition=\"\",table=\"db.t\"} 3.0")
                .contains("strata_operation_runs_total{operation=\"expire\",outcome=\"succeeded\",table=\"db.t\"} 1.0")
                .contains("strata_operation_runs_total{operation=\"expire\",outcome=\"failed\",table=\"db.t\"} 1.0")
                .contains("strata_operation_last_success_timestamp_seconds{operation=\"expire\",table=\"db.t\"} 1.7E9")
                .contains("strata_operation_last_duration_seconds{operation=\"expire\",table=\"db.t\"} 0.25")
                .contains("strata_lease_held{operation=\"compaction\",owner=\"host-a\",table=\"db.t\"} 1.0")
                .contains("strata_scheduler_queue_length 3.0")
                .contains("# HELP strata_table_live_bytes");
        m.setLeases(List.of());
        assertThat(text(m)).doesNotContain("strata_lease_held{");
    }

    @Test
    void onlyTheWorstBucketsGetSeriesOfTheirOwn() throws Exception {
        List<TableHealth.Bucket> buckets = new ArrayList<>();
        for (int b = 0; b < 8; b++) {
            buckets.add(new TableHealth.Bucket("dt=1", b, b + 1, b, b + 1, 100));
        }
        SchedulerMetrics m = new SchedulerMetrics(3);
        m.update(new TableHealth("db.t", 9, 9, 0, 36, 800, buckets), 5, 5);
        String text = text(m);
        assertThat(text.lines().filter(l -> l.startsWith("strata_bucket_sorted_runs{")))
                .containsExactlyInAnyOrder(
                        "strata_bucket_sorted_runs{bucket=\"7\",partition=\"dt=1\",table=\"db.t\"} 8.0",
                        "strata_bucket_sorted_runs{bucket=\"6\",partition=\"dt=1\",table=\"db.t\"} 7.0",
                        "strata_bucket_sorted_runs{bucket=\"5\",partition=\"dt=1\",table=\"db.t\"} 6.0");
        assertThat(text).contains("strata_table_buckets_over_threshold{table=\"db.t\",threshold=\"sorted-runs\"} 3.0");
    }

    /** 300 polls of 30 tables whose buckets keep changing: the series stay as many as the tables ask for. */
    @Test
    void seriesStayFlatOverManyPollsAndLeaveWithTheirTable() throws Exception {
        long seed = 20261203L;
        Random rnd = new Random(seed);
        SchedulerMetrics m = new SchedulerMetrics(4);
        int flat = -1;
        for (int round = 0; round < 300; round++) {
            for (int t = 0; t < 30; t++) {
                List<TableHealth.Bucket> buckets = new ArrayList<>();
                for (int b = 0; b < 6; b++) {
                    buckets.add(new TableHealth.Bucket(
                            "dt=" + rnd.nextInt(1_000_000), b, rnd.nextInt(20), rnd.nextInt(20), 1, 1));
                }
                m.update(new TableHealth("db.t" + t, round + 1, 10, 0, 6, 6, buckets), 5, 5);
                m.recordRun("db.t" + t, "compaction", "succeeded", Duration.ofSeconds(1), Instant.now(), true);
            }
            if (round == 0) {
                flat = m.seriesCount();
            }
            assertThat(m.seriesCount()).as("seed %d, round %d", seed, round).isEqualTo(flat);
        }
        String before = text(m);
        assertThat(before).contains("table=\"db.t7\"");
        m.forget("db.t7");
        String after = text(m);
        assertThat(after).doesNotContain("table=\"db.t7\"").contains("table=\"db.t8\"");
        assertThat(m.seriesCount()).isLessThan(flat);
    }
}
