package io.strata.cli;

import static io.strata.cli.CliRunner.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.strata.cli.CliRunner.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code strata compact} on a damaged table: the error names the table, bucket and file first. */
class CompactFailureCommandTest {
    @TempDir
    Path dir;

    @Test
    void aMissingDataFileIsNamedAtTheTopAndTheOtherBucketsAreCompacted() throws IOException {
        String wh = dir.resolve("wh").toString();
        CliRunner.gen(wh, "db.t", 3, 2000, 5000);
        Path victim;
        try (Stream<Path> files = Files.walk(dir.resolve("wh/db.db/t/bucket-2"))) {
            victim = files.filter(p -> p.getFileName().toString().startsWith("data-"))
                    .findFirst()
                    .orElseThrow();
        }
        Files.delete(victim);

        Result compact = run("compact", "--warehouse", wh, "--table", "db.t", "--strategy", "full");

        assertThat(compact.exit()).isEqualTo(1);
        List<String> errors = compact.err()
                .lines()
                .filter(l -> l.startsWith("strata: error: "))
                .toList();
        assertThat(errors).hasSize(1);
        assertThat(errors.get(0))
                .startsWith("strata: error: table db.t, bucket 2: ")
                .contains(victim.getFileName().toString())
                .contains("data file is missing")
                .contains("3 other buckets committed");
        assertThat(compact.err()).contains("strata: bucket failed: table db.t, bucket 2: ");
        Result buckets = run("buckets", "--warehouse", wh, "--table", "db.t", "--json");
        assertThat(buckets.exit()).isZero();
        assertThat(buckets.out().replaceAll("\\s+", ""))
                .as("buckets 0, 1 and 3 compacted to one sorted run, bucket 2 left with its 3")
                .contains("\"bucket\":0,\"sortedRuns\":1")
                .contains("\"bucket\":2,\"sortedRuns\":3");
    }
}
