package io.strata.storage.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.commit.CommitConflictException;
import io.strata.storage.commit.CommitMessage;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.BucketPlan;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.compact.TableCompactor;
import io.strata.storage.data.BucketId;
import io.strata.storage.data.GenericRow;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.schema.Schema;
import io.strata.storage.snapshot.CommitKind;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.ManualClock;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whole partitions older than partition.expiration-time go in one OVERWRITE snapshot, and never come back. */
class PartitionExpirationTest {
    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(Instant.parse("2026-12-10T12:00:00Z"));

    /** db.t partitioned by a DATE dt (or a 'yyyyMMdd' STRING day), 2 buckets. */
    private FileStoreTable create(String name, String dtType, Map<String, String> options) {
        return Catalog.open(dir.resolve("wh").toString())
                .withClock(clock)
                .createTable(
                        "db",
                        name,
                        Schema.newBuilder()
                                .column("dt", dtType + " NOT NULL")
                                .column("id", "BIGINT NOT NULL")
                                .column("v", "STRING")
                                .primaryKey("dt", "id")
                                .partitionKeys("dt")
                                .option("bucket", "2")
                                .option("write-only", "true")
                                .options(options)
                                .build());
    }

    private static void write(FileStoreTable t, long identifier, List<Object> days, String v) {
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            for (Object day : days) {
                for (long id = 0; id < 10; id++) {
                    w.write(GenericRow.insert(day, id, v));
                }
            }
            c.commit(identifier, w.prepareCommit());
        }
    }

    private static Map<Object, Long> rowsPerDay(FileStoreTable t) {
        return TestTables.scan(t).stream().collect(Collectors.groupingBy(r -> r.fields()[0], Collectors.counting()));
    }

    private static int day(String iso) {
        return (int) LocalDate.parse(iso).toEpochDay();
    }

    @Test
    void dropsDatePartitionsOlderThanTheThresholdInOneOverwriteSnapshot() {
        FileStoreTable t = create("dates", "DATE", Map.of("partition.expiration-time", "7d"));
        write(t, 1, List.of(day("2026-11-30"), day("2026-12-02"), day("2026-12-04"), day("2026-12-09")), "a");
        long before = t.snapshotManager().latestId().getAsLong();

        PartitionExpiration.Result dry = t.newPartitionExpiration().dryRun();
        assertThat(dry.expired()).containsExactlyInAnyOrder("dt=2026-11-30", "dt=2026-12-02");
        assertThat(t.snapshotManager().latestId().getAsLong()).isEqualTo(before);

        PartitionExpiration.Result r = t.newPartitionExpiration().expire();

        assertThat(r.expired()).isEqualTo(dry.expired());
        assertThat(r.snapshot()).contains(before + 1);
        assertThat(t.snapshotManager().latest().orElseThrow().commitKind()).isEqualTo(CommitKind.OVERWRITE);
        assertThat(rowsPerDay(t)).containsOnlyKeys(day("2026-12-04"), day("2026-12-09"));
        assertThat(TestTables.scan(t.newReadBuilder().withSnapshot(before)))
                .as("time travel still reads the dropped partitions")
                .hasSize(40);
        assertThat(t.newPartitionExpiration().expire().expired())
                .as("nothing left to drop")
                .isEmpty();
    }

    @Test
    void aCompactionOfADroppedPartitionFailsCleanlyAndDoesNotBringItBack() {
        FileStoreTable t = create("race", "DATE", Map.of("partition.expiration-time", "7d"));
        write(t, 1, List.of(day("2026-11-01"), day("2026-12-09")), "a");
        write(t, 2, List.of(day("2026-11-01"), day("2026-12-09")), "b");
        TableCompactor compactor =
                t.copyWithOptions(Map.of("write-only", "false")).newCompactor();
        BucketPlan plan = compactor
                .plan(t.snapshotManager().latest().orElseThrow(), EntryFilter.ALL, CompactStrategy.FULL)
                .plans()
                .stream()
                .filter(p -> ((Integer) p.bucket().partition()[0]) == day("2026-11-01"))
                .findFirst()
                .orElseThrow();
        CommitMessage result = compactor.rewrite(plan).toCommitMessage(2);

        t.newPartitionExpiration().expire();

        try (TableCommit c = t.newCommit("compactor")) {
            assertThatThrownBy(() -> c.commit(1, List.of(result))).isInstanceOf(CommitConflictException.class);
        }
        assertThat(t.newCompactionCommitter("compactor", CompactStrategy.FULL)
                        .commit(2, List.of(result), plan.snapshotId())
                        .committedBuckets())
                .as("re-planned from the latest snapshot: the partition has no file left")
                .isZero();
        assertThat(rowsPerDay(t)).containsOnlyKeys(day("2026-12-09"));
        assertThat(compactor.planBucket(
                        BucketId.of(
                                new Object[] {day("2026-11-01")}, plan.bucket().bucket()),
                        CompactStrategy.FULL))
                .isEmpty();
    }

    @Test
    void aPatternAndAFormatterReadStringPartitionsAndUnreadableOnesAreKept() {
        FileStoreTable t = create(
                "strings",
                "STRING",
                Map.of(
                        "partition.expiration-time", "2d",
                        "partition.timestamp-pattern", "$dt",
                        "partition.timestamp-formatter", "yyyyMMdd"));
        write(t, 1, List.of("20261201", "20261209", "not-a-day"), "a");

        PartitionExpiration.Result r = t.newPartitionExpiration().expire();

        assertThat(r.expired()).containsExactly("dt=20261201");
        assertThat(r.unparsed()).singleElement().asString().contains("dt=not-a-day");
        assertThat(rowsPerDay(t)).containsOnlyKeys("20261209", "not-a-day");
    }

    @Test
    void withoutTheOptionOrPartitionsItSaysWhatIsMissing() {
        FileStoreTable t = create("plain", "DATE", Map.of());
        assertThatThrownBy(() -> t.newPartitionExpiration().expire())
                .hasMessageContaining("partition.expiration-time")
                .hasMessageContaining("db.plain");
        FileStoreTable bad = create(
                "badfmt",
                "STRING",
                Map.of("partition.expiration-time", "1d", "partition.timestamp-formatter", "yyyyQQQQQQ"));
        write(bad, 1, List.of("x"), "a");
        assertThatThrownBy(() -> bad.newPartitionExpiration().expire())
                .hasMessageContaining("partition.timestamp-formatter");
    }
}
