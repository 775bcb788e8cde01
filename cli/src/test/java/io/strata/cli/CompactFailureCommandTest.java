package io.strata.cli;

import static io.strata.cli.CliRunner.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.strata.cli.CliRunner.Result;
import java.io.IOException;
import java.io.RandomAccessFile;
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
        Path victim = firstDataFile(dir.resolve("wh/db.db/t/bucket-2"));
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
        assertThat(compact.err()).doesNotContain("Job execution failed");
        assertBucketsCompactedBut(wh, 2);
    }

    @Test
    void aTruncatedDataFileIsNamedAtTheTopWithWhatIsWrong() throws IOException {
        String wh = dir.resolve("wh").toString();
        CliRunner.gen(wh, "db.t", 3, 2000, 5000);
        Path victim = firstDataFile(dir.resolve("wh/db.db/t/bucket-2"));
        long size = Files.size(victim);
        try (RandomAccessFile f = new RandomAccessFile(victim.toFile(), "rw")) {
            f.setLength(size - 100);
        }

        Result compact = run("compact", "--warehouse", wh, "--table", "db.t", "--strategy", "full");

        assertThat(compact.exit()).isEqualTo(1);
        assertThat(compact.err()).doesNotContain("Job execution failed");
        List<String> errors = compact.err()
                .lines()
                .filter(l -> l.startsWith("strata: error: "))
                .toList();
        assertThat(errors).hasSize(1);
        assertThat(errors.get(0))
                .startsWith("strata: error: table db.t, bucket 2: corrupt or unreadable file ")
                .contains("bucket-2/" + victim.getFileName())
                .contains("3 other buckets committed");
        assertBucketsCompactedBut(wh, 2);
    }

    private static Path firstDataFile(Path bucketDir) throws IOException {
        try (Stream<Path> files = Files.walk(bucketDir)) {
            return files.filter(p -> p.getFileName().toString().startsWith("data-"))
                    .findFirst()
                    .orElseThrow();
        }
    }

    private static void assertBucketsCompactedBut(String wh, int failed) {
        Result buckets = run("buckets", "--warehouse", wh, "--table", "db.t", "--json");
        assertThat(buckets.exit()).isZero();
        assertThat(buckets.out().replaceAll("\\s+", ""))
                .as("the other buckets compacted to one sorted run, bucket %d left with its 3", failed)
                .contains("\"bucket\":" + (failed == 0 ? 1 : 0) + ",\"sortedRuns\":1")
                .contains("\"bucket\":" + failed + ",\"sortedRuns\":3");
    }
}
