package io.strata.cli;

import static io.strata.cli.CliRunner.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.strata.cli.CliRunner.Result;
import io.strata.storage.testutil.DirListing;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a new user types wrong at {@code strata create} (and opening what it made): exit 1 (2 for
 * a malformed command line) and one error line naming the table, file or option; no table is
 * created and nothing is changed.
 */
class CreateBadInputCommandsTest {
    @TempDir
    Path dir;

    private String wh;
    private String schema;

    @BeforeEach
    void schemaFile() throws IOException {
        wh = dir.resolve("wh").toString();
        Path s = dir.resolve("s.json");
        Files.writeString(
                s,
                "{\"fields\":[{\"name\":\"id\",\"type\":\"BIGINT\"},{\"name\":\"v\",\"type\":\"STRING\"}],"
                        + "\"primaryKey\":[\"id\"]}");
        schema = s.toString();
    }

    private Result create(String table, String... more) {
        List<String> args =
                new ArrayList<>(List.of("create", "--warehouse", wh, "--table", table, "--schema-file", schema));
        args.addAll(List.of(more));
        return run(args.toArray(String[]::new));
    }

    private void assertNoTable(String table) {
        assertThat(dir.resolve("wh").resolve("db.db").resolve(table)).doesNotExist();
        Result scan = run("scan", "--warehouse", wh, "--table", "db." + table, "--count");
        assertThat(scan.exit()).isEqualTo(1);
        assertThat(scan.err()).contains("table db." + table + " does not exist");
    }

    @Test
    void anOptionOutOfRangeIsRefusedAndNoTableIsCreated() {
        Result r = create("db.t", "--option", "num-sorted-run.compaction-trigger=0");

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().strip())
                .isEqualTo("strata: error: table db.t: option 'num-sorted-run.compaction-trigger' = 0 is out of "
                        + "range: must be between 1 and 1000");
        assertNoTable("t");
    }

    @Test
    void optionsBreakingARuleBetweenThemAreRefusedNamingBoth() {
        Result r = create(
                "db.t", "--option", "num-sorted-run.compaction-trigger=8", "--option", "num-sorted-run.stop-trigger=4");

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err().strip())
                .isEqualTo("strata: error: table db.t: option 'num-sorted-run.stop-trigger' = 4 must be >= option "
                        + "'num-sorted-run.compaction-trigger' = 8");
        assertNoTable("t");
    }

    @Test
    void anUnknownOptionListsTheKnownOnes() {
        Result r = create("db.t", "--option", "bukcet=3");

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err())
                .startsWith("strata: error: table db.t: unknown option 'bukcet'. Known options: ")
                .contains(" bucket, ")
                .contains("num-sorted-run.compaction-trigger");
        assertNoTable("t");
    }

    @Test
    void aValueOfTheWrongTypeNamesOptionValueAndType() {
        Result r = create("db.t", "--option", "bucket=four");

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err())
                .startsWith("strata: error: table db.t: option 'bucket' has invalid value 'four': expected integer");
        assertNoTable("t");
    }

    @Test
    void anOptionWithoutEqualsSignIsAUsageError() {
        Result r = create("db.t", "--option", "bucket");

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("KEY=VALUE").contains("but was bucket").contains("Usage: strata create");
        assertNoTable("t");
    }

    @Test
    void badTableNamesSayWhatAName() {
        Map<String, String> cases = Map.of(
                "nodot", "strata: error: table identifier 'nodot' must be <database>.<table>",
                "../x", "strata: error: table identifier '../x' must be <database>.<table>",
                "db.../x", "strata: error: table identifier 'db.../x' must be <database>.<table>",
                "db/x.t", "strata: error: database name 'db/x' is invalid: use letters, digits and '_'",
                "db.t t", "strata: error: table name 't t' is invalid: use letters, digits and '_'");
        cases.forEach((name, message) -> {
            Result r = create(name);
            assertThat(r.exit()).as(name).isEqualTo(1);
            assertThat(r.err().strip()).as(name).isEqualTo(message);
        });
        assertThat(dir.resolve("wh")).doesNotExist();
        assertThat(dir.resolve("x")).doesNotExist();
    }

    @Test
    void aMissingSchemaFileSaysItDoesNotExist() {
        schema = dir.resolve("missing.json").toString();
        Result r = create("db.t");

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err().strip()).isEqualTo("strata: error: schema file " + schema + " does not exist");
        assertNoTable("t");
    }

    @Test
    void aSchemaFileWithAnUnknownTypeOrBrokenJsonNamesTheFile() throws IOException {
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\"fields\":[{\"name\":\"id\",\"type\":\"BIGNUM\"}],\"primaryKey\":[\"id\"]}");
        schema = bad.toString();
        Result r = create("db.t");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err())
                .startsWith("strata: error: schema file " + bad + ": field 'id': unknown type 'BIGNUM' (known: ");

        Files.writeString(bad, "{not json");
        r = create("db.t");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).startsWith("strata: error: schema file " + bad + ": cannot read: ");
        assertNoTable("t");
    }

    @Test
    void aWarehouseThatIsAFileIsNamed() throws IOException {
        Path file = dir.resolve("afile");
        Files.writeString(file, "x");
        wh = file.toString();
        Result r = create("db.t");

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err())
                .startsWith("strata: error: cannot create table db.t at ")
                .contains("Not a directory");
        assertThat(Files.readString(file)).isEqualTo("x");
    }

    @Test
    void creatingATableTwiceSaysItExistsAndKeepsIt() {
        assertThat(create("db.t").exit()).isZero();
        Map<String, String> before = DirListing.of(dir.resolve("wh"));

        Result r = create("db.t", "--option", "bucket=4");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).startsWith("strata: error: table db.t already exists at ");
        assertThat(DirListing.of(dir.resolve("wh"))).isEqualTo(before);
    }

    @Test
    void aTableWhoseStoredOptionsAreOutOfRangeFailsNamingTableFileAndOptionAndIsNotChanged() throws IOException {
        assertThat(create("db.t").exit()).isZero();
        Path schemaFile = dir.resolve("wh")
                .resolve("db.db")
                .resolve("t")
                .resolve("schema")
                .resolve("schema-0");
        ObjectMapper json = new ObjectMapper();
        ObjectNode node = (ObjectNode) json.readTree(schemaFile.toFile());
        ((ObjectNode) node.get("options")).put("target-file-size", "0 b");
        Files.writeString(schemaFile, json.writeValueAsString(node));
        Map<String, String> before = DirListing.of(dir.resolve("wh"));

        for (String[] args : new String[][] {
            {"scan", "--warehouse", wh, "--table", "db.t", "--count"},
            {"expire", "--warehouse", wh, "--table", "db.t"},
            {"compact", "--warehouse", wh, "--table", "db.t"}
        }) {
            Result r = run(args);
            assertThat(r.exit()).as(args[0]).isEqualTo(1);
            assertThat(r.err().strip())
                    .as(args[0])
                    .startsWith("strata: error: table db.t: the options stored in ")
                    .contains("schema-0")
                    .endsWith("option 'target-file-size' = 0 b is out of range: must be > 0");
            assertThat(DirListing.of(dir.resolve("wh"))).isEqualTo(before);
        }
    }
}
