package io.strata.cli;

import static io.strata.cli.CliRunner.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.strata.cli.CliRunner.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17's types through the CLI: a schema file declares them, {@code strata insert} reads rows
 * as JSON lines in the forms {@code scan --json} prints, and {@code scan --json} prints them back
 * unchanged (nested values as JSON arrays and objects); a row that does not fit its types fails
 * the command naming the table, the line or row, and the field, and commits nothing.
 */
class CliTypesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String SCHEMA = "{\"fields\": ["
            + "{\"name\": \"id\", \"type\": \"BIGINT\", \"nullable\": false},"
            + "{\"name\": \"ti\", \"type\": \"TINYINT\"},"
            + "{\"name\": \"si\", \"type\": \"SMALLINT\"},"
            + "{\"name\": \"c\", \"type\": \"CHAR(2)\"},"
            + "{\"name\": \"v\", \"type\": \"VARCHAR(5)\"},"
            + "{\"name\": \"t\", \"type\": \"TIME(3)\"},"
            + "{\"name\": \"z\", \"type\": \"TIMESTAMP_LTZ(6)\"},"
            + "{\"name\": \"tags\", \"type\": \"ARRAY<STRING>\"},"
            + "{\"name\": \"attrs\", \"type\": \"MAP<STRING, DOUBLE>\"},"
            + "{\"name\": \"byId\", \"type\": \"MAP<BIGINT, ARRAY<INT>>\"},"
            + "{\"name\": \"r\", \"type\": \"ROW<a DECIMAL(12, 2), b ROW<c DATE, d BYTES>>\"}"
            + "], \"primaryKey\": [\"id\"], \"options\": {\"bucket\": \"2\"}}";

    /** As scan --json prints them: every field, in schema order. */
    private static final List<String> ROWS = List.of(
            "{\"id\":1,\"ti\":-128,\"si\":32767,\"c\":\"ab\",\"v\":\"héllo\",\"t\":\"23:59:59.999\","
                    + "\"z\":\"2026-11-29T23:00:00.123456Z\",\"tags\":[\"x\",null,\"\"],\"attrs\":{\"w\":0.1,\"h\":\"NaN\"},"
                    + "\"byId\":[[7,[1,null]],[-3,[]]],\"r\":{\"a\":\"1234567890.25\",\"b\":{\"c\":\"1969-07-20\",\"d\":\"YjM=\"}}}",
            "{\"id\":2,\"ti\":null,\"si\":null,\"c\":null,\"v\":null,\"t\":null,\"z\":null,\"tags\":[],\"attrs\":{},"
                    + "\"byId\":[],\"r\":{\"a\":null,\"b\":null}}",
            "{\"id\":3,\"ti\":null,\"si\":null,\"c\":null,\"v\":null,\"t\":null,\"z\":null,\"tags\":null,"
                    + "\"attrs\":null,\"byId\":null,\"r\":null}");

    @TempDir
    Path dir;

    private String[] table(String... args) {
        String[] out = new String[args.length + 3];
        out[0] = args[0];
        out[1] = "--warehouse";
        out[2] = dir.resolve("wh").toString();
        out[3] = "--table=db.t";
        System.arraycopy(args, 1, out, 4, args.length - 1);
        return out;
    }

    private Result create() throws IOException {
        Path schema = dir.resolve("schema.json");
        Files.writeString(schema, SCHEMA);
        return run(table("create", "--schema-file", schema.toString()));
    }

    @Test
    void rowsInsertedAsJsonLinesScanBackAsTheSameJson() throws IOException {
        Result created = create();
        assertThat(created.exit()).as(created.err()).isZero();
        Path rows = dir.resolve("rows.jsonl");
        // the third row given sparsely: omitted fields are null; a fourth is inserted, then deleted
        Files.writeString(
                rows,
                ROWS.get(0) + "\n" + ROWS.get(1)
                        + "\n\n{\"id\":3}\n{\"id\":4,\"v\":\"gone\"}\n{\"kind\":\"-D\",\"id\":4}\n");
        Result insert = run(table("insert", "--rows", rows.toString()));
        assertThat(insert.exit()).as(insert.err()).isZero();
        assertThat(insert.out()).contains("wrote 5 rows to db.t");

        Result scan = run(table("scan", "--json"));
        assertThat(scan.exit()).as(scan.err()).isZero();
        List<JsonNode> got = new java.util.ArrayList<>();
        for (String line : scan.lines()) {
            got.add(JSON.readTree(line));
        }
        got.sort(java.util.Comparator.comparingLong(n -> n.get("id").asLong()));
        assertThat(got).hasSize(3);
        for (int i = 0; i < ROWS.size(); i++) {
            assertThat(JSON.writeValueAsString(got.get(i))).isEqualTo(ROWS.get(i));
        }
        // scan's own output, inserted again, leaves the table as it was
        Files.write(rows, scan.lines());
        Result again = run(table("insert", "--rows", rows.toString()));
        assertThat(again.exit()).as(again.err()).isZero();
        assertThat(run(table("scan", "--json")).lines()).containsExactlyInAnyOrderElementsOf(scan.lines());
    }

    @Test
    void rowsThatDoNotFitTheirTypesFailNamingTheFieldAndCommitNothing() throws IOException {
        Result created = create();
        assertThat(created.exit()).as(created.err()).isZero();
        Path rows = dir.resolve("rows.jsonl");
        Files.writeString(rows, "{\"id\":1,\"v\":\"ok\"}\n{\"id\":2,\"v\":\"too long\"}\n");
        Result tooLong = run(table("insert", "--rows", rows.toString()));
        assertThat(tooLong.exit()).isEqualTo(1);
        assertThat(tooLong.err())
                .startsWith(
                        "strata: error: table db.t: row 2 field 'v' expects VARCHAR(5), got a value of 8 characters");

        Files.writeString(rows, "{\"id\":1}\n{\"id\":2,\"ti\":200}\n");
        Result overflow = run(table("insert", "--rows", rows.toString()));
        assertThat(overflow.exit()).isEqualTo(1);
        assertThat(overflow.err()).contains("table db.t: line 2: field 'ti': value 200 is not a TINYINT");

        Files.writeString(rows, "{\"id\":1,\"r\":{\"a\":\"1.5\",\"x\":1}}\n");
        Result unknown = run(table("insert", "--rows", rows.toString()));
        assertThat(unknown.err()).contains("table db.t: line 1: field 'r': ").contains("unknown fields [x]");

        Files.writeString(rows, "{\"id\":1,\"nope\":1}\n");
        assertThat(run(table("insert", "--rows", rows.toString())).err())
                .contains("table db.t: line 1: unknown fields [nope]");

        assertThat(run(table("scan", "--json", "--count")).out().strip()).isEqualTo("{\"live_rows\":0}");
    }
}
