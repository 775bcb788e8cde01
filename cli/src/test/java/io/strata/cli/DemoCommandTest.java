package io.strata.cli;

import static io.strata.cli.CliRunner.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.strata.cli.CliRunner.Result;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's first command, {@code bin/strata demo}, as a user runs it: it verifies the table
 * against the workload before and after the compaction job, and the scheduler's short run compacts
 * the new backlog and expires snapshots, recorded in the run history; only then does it exit 0.
 */
class DemoCommandTest {
    @TempDir
    Path dir;

    @Test
    void theDemoVerifiesTheTableThroughIngestCompactionAndAShortSchedulerRun() {
        Result r = run("demo", "--warehouse", dir.toString());
        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        assertThat(r.out())
                .contains("live_rows=40267 checksum=-1354564158957153659")
                .contains("== 7. the scheduler service")
                .containsPattern("demo\\.workload +backlog-compaction +SUCCEEDED( +\\S+){2}( +0){6} +[1-9][0-9]* ")
                .containsPattern("demo\\.workload +expiration +SUCCEEDED")
                .contains("== result: OK");
    }
}
