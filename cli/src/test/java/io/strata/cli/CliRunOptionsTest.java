package io.strata.cli;

import static io.strata.cli.CliRunner.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.strata.cli.CliRunner.Result;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code strata gen --option} and {@code compact --table-option} on an existing table (issue 13). */
class CliRunOptionsTest {
    @TempDir
    Path dir;

    private String wh() {
        return dir.resolve("wh").toString();
    }

    private Result gen(String... extra) {
        String[] base = {
            "gen",
            "--warehouse",
            wh(),
            "--table",
            "db.t",
            "--commits",
            "2",
            "--rows-per-commit",
            "500",
            "--key-space",
            "1000"
        };
        String[] args = new String[base.length + extra.length];
        System.arraycopy(base, 0, args, 0, base.length);
        System.arraycopy(extra, 0, args, base.length, extra.length);
        return run(args);
    }

    private int snapshots() {
        return run("snapshots", "--warehouse", wh(), "--table", "db.t").lines().size() - 1;
    }

    @BeforeEach
    void createTable() {
        Result created = gen("--option", "write-only=true");
        assertThat(created.exit()).as(created.err()).isZero();
        assertThat(snapshots()).isEqualTo(2);
    }

    @Test
    void genRefusesToOverrideTheCommitLockAndWritesNothing() {
        Result r = gen("--option", "commit.lock.class=com.example.NoOpLock");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err().strip())
                .startsWith("strata: error: table db.t: option 'commit.lock.class' defines the table")
                .contains("commit.lock.class=(none)")
                .contains("com.example.NoOpLock")
                .doesNotContain("\n");
        assertThat(snapshots()).as("no commit was made").isEqualTo(2);
    }

    @Test
    void genRefusesAnotherBucketCountGivenEitherWay() {
        Result option = gen("--option", "bucket=8");
        assertThat(option.exit()).isEqualTo(1);
        assertThat(option.err()).contains("'bucket'").contains("bucket=4").contains("db.t");
        Result flag = gen("--buckets", "8");
        assertThat(flag.exit()).isEqualTo(1);
        assertThat(flag.err()).contains("'bucket'").contains("bucket=4");
        Result changelog = gen("--option", "changelog-producer=input");
        assertThat(changelog.exit()).isEqualTo(1);
        assertThat(changelog.err()).contains("'changelog-producer'").contains("changelog-producer=none");
        assertThat(snapshots()).isEqualTo(2);
    }

    @Test
    void genAcceptsTheTablesValuesAndPerRunOptions() {
        Result r = gen(
                "--buckets",
                "4",
                "--option",
                "bucket=4",
                "--option",
                "write-only=true",
                "--option",
                "write-buffer-size=8 mb",
                "--option",
                "num-sorted-run.compaction-trigger=3");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(snapshots()).isEqualTo(4);
    }

    @Test
    void compactRefusesATableDefiningTableOptionBeforePlanning() {
        Result r = run(
                "compact",
                "--warehouse",
                wh(),
                "--table",
                "db.t",
                "--dry-run",
                "--table-option",
                "merge-engine=first-row");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("table db.t").contains("'merge-engine'").contains("merge-engine=deduplicate");
        assertThat(r.out()).isEmpty();
    }
}
