package io.strata.cli;

import static io.strata.cli.CliRunner.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.strata.cli.CliRunner.Result;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What programs read from the CLI: JSON values that round-trip, JSON-only stdout, exit codes (issue 13). */
class CliOutputTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final BigDecimal DECIMAL = new BigDecimal("12345678901234567893.0123456789");
    private static final byte[] BYTES = {98, 51, 0, -1};
    private static final LocalDate DAY = LocalDate.parse("2026-11-29");
    private static final LocalDateTime TIME = LocalDateTime.parse("2026-11-29T23:00:00.123456");

    @TempDir
    Path dir;

    private String wh() {
        return dir.resolve("wh").toString();
    }

    private static long millis(LocalDateTime t) {
        return t.toEpochSecond(ZoneOffset.UTC) * 1000 + t.getNano() / 1_000_000;
    }

    private static long micros(LocalDateTime t) {
        return t.toEpochSecond(ZoneOffset.UTC) * 1_000_000 + t.getNano() / 1000;
    }

    /** db.v, partitioned by dt: a row of every type, a row of nulls, and a row before 1970. */
    @BeforeEach
    void writeEveryType() {
        FileStoreTable t = Catalog.open(wh())
                .createTable(
                        "db",
                        "v",
                        Schema.newBuilder()
                                .column("dt", "DATE NOT NULL")
                                .column("id", "BIGINT NOT NULL")
                                .column("b", "BOOLEAN")
                                .column("i", "INT")
                                .column("f", "FLOAT")
                                .column("d", "DOUBLE")
                                .column("dec", "DECIMAL(30, 10)")
                                .column("s", "STRING")
                                .column("bytes", "BYTES")
                                .column("ts3", "TIMESTAMP(3)")
                                .column("ts6", "TIMESTAMP(6)")
                                .primaryKey("dt", "id")
                                .partitionKeys("dt")
                                .build());
        int day = (int) DAY.toEpochDay();
        LocalDateTime old = LocalDateTime.parse("1969-12-31T23:59:59.999999");
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            w.write(GenericRow.insert(
                    day, 1L, true, -7, 0.1f, 0.1, DECIMAL, "a \"quoted\" é", BYTES, millis(TIME), micros(TIME)));
            w.write(GenericRow.insert(day, 2L, null, null, null, null, null, null, null, null, null));
            w.write(GenericRow.insert(
                    day,
                    3L,
                    false,
                    Integer.MAX_VALUE,
                    Float.MAX_VALUE,
                    Double.MIN_VALUE,
                    new BigDecimal("-0.0000000001"),
                    "",
                    new byte[0],
                    millis(old),
                    micros(old)));
            c.commit(1, w.prepareCommit());
        }
    }

    private static List<JsonNode> jsonLines(String out) throws Exception {
        List<JsonNode> nodes = new ArrayList<>();
        for (String line : out.strip().split("\n")) {
            nodes.add(JSON.readTree(line));
        }
        return nodes;
    }

    @Test
    void scanJsonValuesRoundTripExactly() throws Exception {
        Result r = run("scan", "--warehouse", wh(), "--table", "db.v", "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        List<JsonNode> rows = jsonLines(r.out());
        assertThat(rows).hasSize(3);

        JsonNode a = rows.get(0);
        assertThat(a.get("dt").textValue()).isEqualTo("2026-11-29");
        assertThat(a.get("id").isIntegralNumber()).isTrue();
        assertThat(a.get("id").longValue()).isEqualTo(1L);
        assertThat(a.get("b").booleanValue()).isTrue();
        assertThat(a.get("i").intValue()).isEqualTo(-7);
        assertThat(Float.parseFloat(a.get("f").asText())).isEqualTo(0.1f);
        assertThat(a.get("d").doubleValue()).isEqualTo(0.1);
        assertThat(a.get("dec").isTextual()).as("DECIMAL is a string").isTrue();
        assertThat(a.get("dec").textValue()).isEqualTo("12345678901234567893.0123456789");
        assertThat(new BigDecimal(a.get("dec").textValue())).isEqualTo(DECIMAL);
        assertThat(a.get("s").textValue()).isEqualTo("a \"quoted\" é");
        assertThat(Base64.getDecoder().decode(a.get("bytes").textValue())).isEqualTo(BYTES);
        assertThat(a.get("ts3").textValue()).isEqualTo("2026-11-29T23:00:00.123");
        assertThat(a.get("ts6").textValue()).isEqualTo("2026-11-29T23:00:00.123456");
        assertThat(micros(LocalDateTime.parse(a.get("ts6").textValue()))).isEqualTo(micros(TIME));

        JsonNode nulls = rows.get(1);
        for (String f : List.of("b", "i", "f", "d", "dec", "s", "bytes", "ts3", "ts6")) {
            assertThat(nulls.get(f).isNull()).as(f).isTrue();
        }

        JsonNode c = rows.get(2);
        assertThat(Float.parseFloat(c.get("f").asText())).isEqualTo(Float.MAX_VALUE);
        assertThat(Double.parseDouble(c.get("d").asText())).isEqualTo(Double.MIN_VALUE);
        assertThat(c.get("dec").textValue()).isEqualTo("-0.0000000001");
        assertThat(c.get("bytes").textValue()).isEmpty();
        assertThat(c.get("ts3").textValue()).isEqualTo("1969-12-31T23:59:59.999");
        assertThat(c.get("ts6").textValue()).isEqualTo("1969-12-31T23:59:59.999999");
    }

    @Test
    void changelogJsonPrintsOnlyJsonOnStdoutAndTheSummaryOnStderr() throws Exception {
        Result r = run("scan", "--warehouse", wh(), "--table", "db.v", "--changelog", "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        List<JsonNode> rows = jsonLines(r.out());
        assertThat(rows).hasSize(3).allMatch(n -> n.get("kind").textValue().equals("+I"));
        assertThat(rows.get(0).get("dec").textValue()).isEqualTo(DECIMAL.toPlainString());
        assertThat(r.err()).contains("changelog snapshots 1..1: +I=3 -U=0 +U=0 -D=0");

        Result counts = run("scan", "--warehouse", wh(), "--table", "db.v", "--changelog", "--json", "--count");
        assertThat(counts.exit()).isZero();
        JsonNode n = JSON.readTree(counts.out());
        assertThat(n.get("+I").longValue()).isEqualTo(3);
        assertThat(n.get("-D").longValue()).isZero();
        assertThat(n.get("toSnapshot").longValue()).isEqualTo(1);

        Result limited = run("scan", "--warehouse", wh(), "--table", "db.v", "--json", "--limit", "1");
        assertThat(jsonLines(limited.out())).hasSize(1);
        assertThat(limited.err()).contains("stopped after --limit 1");

        Result count = run("scan", "--warehouse", wh(), "--table", "db.v", "--json", "--count");
        assertThat(JSON.readTree(count.out()).get("live_rows").longValue()).isEqualTo(3);

        Result text = run("scan", "--warehouse", wh(), "--table", "db.v", "--changelog");
        assertThat(text.out())
                .contains("changelog snapshots 1..1: +I=3")
                .contains("2026-11-29T23:00:00.123456")
                .contains(DECIMAL.toPlainString());
    }

    @Test
    void filesAndBucketsJsonParseAndPartitionsPrintAlikeEverywhere() throws Exception {
        JsonNode files = JSON.readTree(
                run("files", "--warehouse", wh(), "--table", "db.v", "--json").out());
        assertThat(files.get(0).get("partition").textValue()).isEqualTo("dt=2026-11-29");
        assertThat(files.get(0).get("minKey").get(0).textValue()).isEqualTo("2026-11-29");
        assertThat(files.get(0).get("minKey").get(1).longValue()).isEqualTo(1L);
        JsonNode buckets = JSON.readTree(
                run("buckets", "--warehouse", wh(), "--table", "db.v", "--json").out());
        assertThat(buckets.get(0).get("partition").textValue()).isEqualTo("dt=2026-11-29");
        assertThat(buckets.get(0).get("filesPerLevel").get("0").intValue()).isEqualTo(1);

        Result filesText = run("files", "--warehouse", wh(), "--table", "db.v");
        assertThat(filesText.lines().get(1)).startsWith("dt=2026-11-29 ").contains("[2026-11-29, 1]");
        assertThat(run("buckets", "--warehouse", wh(), "--table", "db.v")
                        .lines()
                        .get(1))
                .startsWith("dt=2026-11-29 ");

        Result gen = run(
                "gen",
                "--warehouse",
                wh(),
                "--table",
                "db.u",
                "--commits",
                "6",
                "--rows-per-commit",
                "200",
                "--key-space",
                "300",
                "--buckets",
                "1",
                "--option",
                "write-only=true");
        assertThat(gen.exit()).as(gen.err()).isZero();
        assertThat(run("files", "--warehouse", wh(), "--table", "db.u").lines().get(1))
                .startsWith("- ");
        assertThat(run("buckets", "--warehouse", wh(), "--table", "db.u")
                        .lines()
                        .get(1))
                .startsWith("- ");
        JsonNode unpartitioned = JSON.readTree(
                run("buckets", "--warehouse", wh(), "--table", "db.u", "--json").out());
        assertThat(unpartitioned.get(0).get("partition").isNull()).isTrue();
        Result plan = run("compact", "--warehouse", wh(), "--table", "db.u", "--dry-run");
        assertThat(plan.exit()).as(plan.err()).isZero();
        assertThat(plan.out()).contains("partition - bucket 0: ");
        Result partitionedPlan =
                run("compact", "--warehouse", wh(), "--table", "db.v", "--strategy", "full", "--dry-run");
        assertThat(partitionedPlan.out()).contains("partition dt=2026-11-29 bucket 0: ");
    }

    @Test
    void usageHelpAndExitCodes() {
        Result none = run();
        assertThat(none.exit()).isEqualTo(2);
        assertThat(none.out()).isEmpty();
        assertThat(none.err()).contains("Usage: strata").contains("scan").contains("help");

        Result help = run("help");
        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("Usage: strata").contains("compact");
        Result helpScan = run("help", "scan");
        assertThat(helpScan.exit()).isZero();
        assertThat(helpScan.out()).contains("Usage: strata scan").contains("--snapshot");
        assertThat(run("help", "nope").exit()).isEqualTo(2);
        assertThat(run("scan", "--no-such-flag").exit()).isEqualTo(2);

        Result compact = run("compact", "--help");
        assertThat(compact.exit()).isZero();
        assertThat(compact.out().replaceAll("\\s+", " "))
                .contains("(default minor)")
                .contains("(default batch)")
                .contains("(default 2)")
                .contains("planned (default 5 s)")
                .contains("interval (default 5 s)")
                .doesNotContain("${");
    }
}
