package io.strata.cli;

import static io.strata.cli.CliRunner.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.strata.cli.CliRunner.Result;
import java.nio.file.Path;
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
}
