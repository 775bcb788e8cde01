package io.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command-line flow of issue 2 with the second workload of WORKLOAD.md. */
class CliFlowTest {
    @TempDir
    Path dir;

    private record Result(int exit, String out, String err) {
        List<String> lines() {
            return Arrays.asList(out.strip().split("\n"));
        }
    }

    private Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = StrataCli.commandLine(new PrintWriter(out), new PrintWriter(err))
                .execute(args);
        return new Result(exit, out.toString(), err.toString());
    }

    private String wh() {
        return dir.resolve("wh").toString();
    }

    @Test
    void genScanAndBucketsWithTheSecondWorkload() {
        Result gen = run(
                "gen",
                "--warehouse",
                wh(),
                "--table",
                "db.t",
                "--commits",
                "5",
                "--rows-per-commit",
                "20000",
                "--key-space",
                "50000",
                "--option",
                "write-only=true");
        assertThat(gen.exit).as(gen.err).isZero();

        Result scan = run("scan", "--warehouse", wh(), "--table", "db.t", "--count", "--checksum");
        assertThat(scan.exit).as(scan.err).isZero();
        List<String> lines = scan.lines();
        assertThat(lines.get(lines.size() - 1)).isEqualTo("live_rows=40267 checksum=-1354564158957153659");

        Result buckets = run("buckets", "--warehouse", wh(), "--table", "db.t");
        assertThat(buckets.exit).isZero();
        List<String> rows = buckets.lines().subList(1, buckets.lines().size());
        assertThat(rows).hasSize(4);
        for (String r : rows) {
            String[] cells = r.trim().split("\\s+");
            assertThat(cells[2]).as("sorted runs in %s", r).isEqualTo("5");
            assertThat(cells[3]).as("files per level in %s", r).isEqualTo("L0:5");
            assertThat(cells[4]).as("level-0 files in %s", r).isEqualTo("5");
        }

        Result snapshots = run("snapshots", "--warehouse", wh(), "--table", "db.t", "--json");
        assertThat(snapshots.exit).isZero();
        assertThat(snapshots.out).contains("\"commitKind\" : \"APPEND\"").contains("\"id\" : 5");

        Result older = run("scan", "--warehouse", wh(), "--table", "db.t", "--snapshot", "1", "--count");
        assertThat(older.exit).isZero();
        assertThat(older.out.strip()).startsWith("live_rows=").isNotEqualTo("live_rows=40267");

        Result files = run("files", "--warehouse", wh(), "--table", "db.t", "--json");
        assertThat(files.exit).isZero();
        assertThat(files.out).contains("\"level\" : 0");
    }

    @Test
    void createFromSchemaFileAndScanRows() throws Exception {
        Path schema = dir.resolve("s.yaml");
        Files.writeString(
                schema,
                String.join(
                        "\n",
                        "fields:",
                        "  - {name: id, type: BIGINT, nullable: false}",
                        "  - {name: v, type: STRING}",
                        "primaryKey: [id]",
                        "options: {bucket: 2}",
                        ""));
        Result r = run("create", "--warehouse", wh(), "--table", "db.s", "--schema-file", schema.toString());
        assertThat(r.exit).as(r.err).isZero();
        assertThat(r.out).contains("created table db.s").contains("2 buckets");
        Result scan = run("scan", "--warehouse", wh(), "--table", "db.s", "--count");
        assertThat(scan.out.strip()).isEqualTo("live_rows=0");
    }

    @Test
    void errorsAreOneLineNamingTheObjectAndExitNonZero() throws Exception {
        Result missing = run("scan", "--warehouse", wh(), "--table", "db.nope", "--count");
        assertThat(missing.exit).isNotZero();
        assertThat(missing.err.strip())
                .startsWith("strata: error: ")
                .contains("db.nope")
                .doesNotContain("\n");

        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\"fields\": [{\"name\": \"id\", \"type\": \"INTEGR\"}], \"primaryKey\": [\"id\"]}");
        Result create = run("create", "--warehouse", wh(), "--table", "db.b", "--schema-file", bad.toString());
        assertThat(create.exit).isNotZero();
        assertThat(create.err).contains(bad.toString()).contains("'id'").contains("INTEGR");

        Result unknown = run(
                "gen",
                "--warehouse",
                wh(),
                "--table",
                "db.g",
                "--commits",
                "1",
                "--rows-per-commit",
                "10",
                "--option",
                "bukcet=3");
        assertThat(unknown.exit).isNotZero();
        assertThat(unknown.err).contains("bukcet").contains("Known options");
        assertThat(Files.exists(dir.resolve("wh").resolve("db.db").resolve("g")))
                .as("no table directory")
                .isFalse();

        Result badSnapshot = run("scan", "--warehouse", wh(), "--table", "db.s", "--snapshot", "1", "--timestamp", "5");
        assertThat(badSnapshot.exit).isNotZero();
    }

    @Test
    void compactDryRunChangesNothingAndCompactionKeepsTheChecksum() {
        Result gen = run(
                "gen",
                "--warehouse",
                wh(),
                "--table",
                "db.c",
                "--commits",
                "5",
                "--rows-per-commit",
                "4000",
                "--key-space",
                "5000",
                "--option",
                "write-only=true",
                "--option",
                "changelog-producer=full-compaction");
        assertThat(gen.exit).as(gen.err).isZero();
        String before = run("scan", "--warehouse", wh(), "--table", "db.c", "--checksum").out;

        Result dry = run("compact", "--warehouse", wh(), "--table", "db.c", "--strategy", "full", "--dry-run");
        assertThat(dry.exit).as(dry.err).isZero();
        assertThat(dry.out)
                .contains("FULL")
                .contains("-> level 5")
                .contains("section 0: rewrite")
                .contains("dry run: nothing was written");
        assertThat(run("snapshots", "--warehouse", wh(), "--table", "db.c").lines())
                .hasSize(6);

        Result full = run("compact", "--warehouse", wh(), "--table", "db.c", "--strategy", "full");
        assertThat(full.exit).as(full.err).isZero();
        assertThat(run("snapshots", "--warehouse", wh(), "--table", "db.c").out).contains("COMPACT");
        assertThat(run("scan", "--warehouse", wh(), "--table", "db.c", "--checksum").out)
                .isEqualTo(before);
        Result buckets = run("buckets", "--warehouse", wh(), "--table", "db.c");
        assertThat(buckets.lines().subList(1, buckets.lines().size())).allMatch(l -> l.contains("L5:1"));

        Result changelog = run("scan", "--warehouse", wh(), "--table", "db.c", "--changelog", "--count");
        assertThat(changelog.exit).as(changelog.err).isZero();
        String live = before.strip().split(" ")[0].substring("live_rows=".length());
        assertThat(changelog.out).contains("+I=" + live + " -U=0 +U=0 -D=0");
    }

    @Test
    void helpIsPrinted() {
        Result help = run("scan", "--help");
        assertThat(help.exit).isZero();
        assertThat(help.out).contains("--snapshot").contains("--checksum").contains("--warehouse");
    }
}
