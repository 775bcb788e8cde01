package io.strata.cli;

import static io.strata.cli.CliRunner.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.strata.cli.CliRunner.Result;
import io.strata.storage.format.PageMap;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A table with one damaged data file: {@code scan --count --checksum} exits 1 naming the file, never prints an answer. */
class CorruptFileCommandsTest {
    @TempDir
    Path dir;

    @Test
    void aScanOverAFlippedPageExitsOneNamingTheFileAndPrintsNoAnswer() throws IOException {
        String wh = dir.resolve("wh").toString();
        CliRunner.gen(wh, "db.t", 3, 5000, 20000);
        Path file;
        try (Stream<Path> s = Files.walk(dir.resolve("wh").resolve("db.db").resolve("t"))) {
            file = s.filter(p -> p.getFileName().toString().startsWith("data-"))
                    .max(Comparator.comparingLong(p -> p.toFile().length()))
                    .orElseThrow();
        }
        PageMap.Page page = PageMap.dataPage(file, "ts", 0);
        PageMap.flip(file, page.bodyStart() + page.bodyLength() / 2);

        Result r = run("scan", "--warehouse", wh, "--table", "db.t", "--count", "--checksum");

        assertThat(r.exit()).as(r.err()).isEqualTo(1);
        assertThat(r.out()).as("no answer printed").isEmpty();
        assertThat(r.err().strip())
                .startsWith("strata: error: ")
                .contains(file.toString())
                .contains("column ts, row group 0, page 0 at byte " + page.headerStart())
                .contains("CRC32 mismatch");
    }
}
