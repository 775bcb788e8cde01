package io.strata.cli;

import static io.strata.cli.CliRunner.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.strata.cli.CliRunner.Result;
import io.strata.storage.testutil.DirListing;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Commands given what a table cannot answer: exit 1 and one error line that says why, never a quiet empty answer. */
class BadInputCommandsTest {
    @TempDir
    Path dir;

    private String wh;

    @BeforeEach
    void fiveSnapshots() {
        wh = dir.resolve("wh").toString();
        CliRunner.gen(wh, "db.t", 5, 200, 500);
    }

    @Test
    void aChangelogFromPastTheLatestSnapshotSaysSo() {
        Result r = run("scan", "--warehouse", wh, "--table", "db.t", "--changelog", "--from-snapshot", "99");

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().strip())
                .startsWith("strata: error: table db.t: the changes after snapshot 99 up to snapshot 5")
                .contains("the latest snapshot is 5");
    }

    @Test
    void aChangelogUpToASnapshotThatDoesNotExistSaysSo() {
        Result r = run("scan", "--warehouse", wh, "--table", "db.t", "--changelog", "--snapshot", "9");

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err().strip()).isEqualTo("strata: error: table db.t has no snapshot 9: the latest is 5");
    }

    @Test
    void aChangelogFromTheLatestSnapshotIsEmptyNotAnError() {
        Result r = run("scan", "--warehouse", wh, "--table", "db.t", "--changelog", "--from-snapshot", "5");

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("+I=0 -U=0 +U=0 -D=0");
    }

    @Test
    void aSnapshotIdBelowOneIsNotASnapshotNotAnExpiredOne() {
        for (String id : new String[] {"0", "-3"}) {
            Result r = run("scan", "--warehouse", wh, "--table", "db.t", "--snapshot", id, "--count");

            assertThat(r.exit()).as(id).isEqualTo(1);
            assertThat(r.out()).isEmpty();
            assertThat(r.err().strip())
                    .isEqualTo("strata: error: --snapshot " + id + " is not a snapshot id: ids start at 1");
        }
    }

    @Test
    void aNegativeFromSnapshotIsRefusedNotReportedAsExpiredHistory() {
        Result r = run("scan", "--warehouse", wh, "--table", "db.t", "--changelog", "--from-snapshot", "-1");

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().strip())
                .startsWith("strata: error: --from-snapshot -1 is not a snapshot id: give 0 for the changes from "
                        + "the first snapshot");
    }

    @Test
    void fromSnapshotWithoutChangelogIsRefusedInsteadOfCountingTheWholeTable() {
        Result r = run("scan", "--warehouse", wh, "--table", "db.t", "--from-snapshot", "2", "--count");

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().strip()).startsWith("strata: error: --from-snapshot takes --changelog");
    }

    @Test
    void aLimitBelowMinusOneIsRefused() {
        Result r = run("scan", "--warehouse", wh, "--table", "db.t", "--limit", "-5");

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().strip())
                .isEqualTo("strata: error: --limit -5 is not a row count: give N >= 0, or -1 for all");
    }

    @Test
    void compactWithARunOptionOutOfRangeFailsBeforeChangingTheTable() {
        Path table = dir.resolve("wh").resolve("db.db").resolve("t");
        Map<String, String> before = DirListing.of(table);

        Result r = run(
                "compact",
                "--warehouse",
                wh,
                "--table",
                "db.t",
                "--table-option",
                "num-sorted-run.compaction-trigger=0");

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err().strip())
                .isEqualTo("strata: error: table db.t: option 'num-sorted-run.compaction-trigger' = 0 is out of "
                        + "range: must be between 1 and 1000");
        assertThat(DirListing.of(table)).isEqualTo(before);

        r = run("compact", "--warehouse", wh, "--table", "db.t", "--table-option", "num-sorted-run.stop-trigger=2");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err().strip())
                .isEqualTo("strata: error: table db.t: option 'num-sorted-run.stop-trigger' = 2 must be >= option "
                        + "'num-sorted-run.compaction-trigger' = 5 (its default)");
        assertThat(DirListing.of(table)).isEqualTo(before);
    }

    @Test
    void expireFlagsOutOfRangeNameTheFlagAndTheOption() {
        Path table = dir.resolve("wh").resolve("db.db").resolve("t");
        Map<String, String> before = DirListing.of(table);

        Result r = run("expire", "--warehouse", wh, "--table", "db.t", "--retain-min", "0");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err().strip())
                .isEqualTo("strata: error: table db.t: option 'snapshot.num-retained.min' = 0 is out of range: "
                        + "must be >= 1 (--retain-min sets snapshot.num-retained.min)");

        r = run("expire", "--warehouse", wh, "--table", "db.t", "--retain-min", "3", "--retain-max", "2");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err().strip())
                .isEqualTo("strata: error: table db.t: option 'snapshot.num-retained.max' = 2 must be >= option "
                        + "'snapshot.num-retained.min' = 3 (--retain-min sets snapshot.num-retained.min, "
                        + "--retain-max sets snapshot.num-retained.max)");
        assertThat(DirListing.of(table)).isEqualTo(before);
    }

    @Test
    void aSnapshotPastTheLatestNamesTheLatest() {
        for (String command : new String[] {"scan", "files", "buckets"}) {
            Result r = run(command, "--warehouse", wh, "--table", "db.t", "--snapshot", "99");

            assertThat(r.exit()).as(command).isEqualTo(1);
            assertThat(r.out()).as(command).isEmpty();
            assertThat(r.err().strip())
                    .as(command)
                    .isEqualTo("strata: error: table db.t has no snapshot 99: the latest is 5");
        }
    }

    @Test
    void anExpiredSnapshotNamesTheEarliestRetained() {
        Result expire = run(
                "expire",
                "--warehouse",
                wh,
                "--table",
                "db.t",
                "--retain-min",
                "1",
                "--retain-max",
                "2",
                "--older-than",
                "0 s");
        assertThat(expire.exit()).as(expire.err()).isZero();

        Result r = run("scan", "--warehouse", wh, "--table", "db.t", "--snapshot", "1", "--count");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().strip())
                .isEqualTo("strata: error: table db.t: snapshot 1 has expired; the earliest retained snapshot is 5");
    }

    @Test
    void genWithARunOptionOutOfRangeCommitsNothing() {
        Path table = dir.resolve("wh").resolve("db.db").resolve("t");
        Map<String, String> before = DirListing.of(table);

        Result r = run(
                "gen",
                "--warehouse",
                wh,
                "--table",
                "db.t",
                "--commits",
                "1",
                "--rows-per-commit",
                "10",
                "--key-space",
                "10",
                "--option",
                "write-buffer-size=0");

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err().strip())
                .isEqualTo("strata: error: table db.t: option 'write-buffer-size' = 0 is out of range: must be > 0");
        assertThat(DirListing.of(table)).isEqualTo(before);
    }

    @Test
    void partitionExpirationOfZeroIsRefusedInsteadOfDroppingEveryPartition() {
        Path table = dir.resolve("wh").resolve("db.db").resolve("t");
        Map<String, String> before = DirListing.of(table);

        Result r = run("expire-partitions", "--warehouse", wh, "--table", "db.t", "--older-than", "0 s");

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err().strip())
                .isEqualTo("strata: error: table db.t: option 'partition.expiration-time' = 0 s is out of range: "
                        + "must be > 0 (--older-than sets partition.expiration-time)");
        assertThat(DirListing.of(table)).isEqualTo(before);
    }
}
