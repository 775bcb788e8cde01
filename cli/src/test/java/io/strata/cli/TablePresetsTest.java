package io.strata.cli;

import static io.strata.cli.CliRunner.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.strata.cli.CliRunner.Result;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The table presets in {@code configs/tables/}: each creates a table with {@code strata create}
 * exactly as its header comment says, every option in it is one the table keeps (unknown ones
 * would fail the create), and the table behaves as the preset's comment promises.
 */
class TablePresetsTest {
    private static final Path PRESETS =
            Path.of("..", "configs", "tables").toAbsolutePath().normalize();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int DAY = (int) LocalDate.parse("2026-12-01").toEpochDay();

    @TempDir
    Path dir;

    private String wh() {
        return dir.resolve("wh").toString();
    }

    /** Creates the table from the preset and checks that it keeps every option of the file. */
    private FileStoreTable create(String preset, String table) throws IOException {
        Path file = PRESETS.resolve(preset);
        Result r = run("create", "--warehouse", wh(), "--table", table, "--schema-file", file.toString());
        assertThat(r.exit()).as(preset + ": " + r.err()).isZero();
        FileStoreTable t = Catalog.open(wh()).getTable(table);
        JsonNode options = YAML.readTree(file.toFile()).get("options");
        Map<String, String> kept = t.schema().options();
        options.fields()
                .forEachRemaining(e -> assertThat(kept)
                        .as(preset + ": option " + e.getKey())
                        .containsEntry(e.getKey(), e.getValue().asText()));
        return t;
    }

    private static void commit(FileStoreTable t, long identifier, GenericRow... rows) throws Exception {
        try (TableWrite w = t.newWrite("preset");
                TableCommit c = t.newCommit("preset")) {
            for (GenericRow row : rows) {
                w.write(row);
            }
            c.commit(identifier, w.prepareCommit());
        }
    }

    private List<JsonNode> scan(String table) throws IOException {
        Result r = run("scan", "--warehouse", wh(), "--table", table, "--json", "--limit", "-1");
        assertThat(r.exit()).as(r.err()).isZero();
        List<JsonNode> rows = new ArrayList<>();
        for (String line : r.lines()) {
            if (!line.isBlank()) {
                rows.add(JSON.readTree(line));
            }
        }
        return rows;
    }

    @Test
    void cdcUpsertKeepsTheLastVersionOfEachKeyAndDropsDeletes() throws Exception {
        FileStoreTable t = create("cdc-upsert.yaml", "db.orders");
        commit(
                t,
                1,
                GenericRow.insert(1L, 7L, "new", new BigDecimal("10.00"), 1_000L, DAY),
                GenericRow.insert(2L, 8L, "new", new BigDecimal("20.00"), 1_000L, DAY));
        commit(
                t,
                2,
                GenericRow.insert(1L, 7L, "paid", new BigDecimal("12.50"), 2_000L, DAY),
                GenericRow.delete(2L, 8L, "new", new BigDecimal("20.00"), 1_000L, DAY));
        List<JsonNode> rows = scan("db.orders");
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).get("order_id").asLong()).isEqualTo(1);
        assertThat(rows.get(0).get("status").asText()).isEqualTo("paid");
    }

    @Test
    void appendLogKeepsEveryRow() throws Exception {
        FileStoreTable t = create("append-log.yaml", "db.events");
        commit(
                t,
                1,
                GenericRow.insert(1_000L, 1L, "click", "a", DAY),
                GenericRow.insert(1_000L, 1L, "click", "a", DAY));
        commit(t, 2, GenericRow.insert(2_000L, 2L, "view", "b", DAY));
        assertThat(scan("db.events"))
                .extracting(r -> r.get("kind").asText())
                .containsExactlyInAnyOrder("click", "click", "view");
    }

    @Test
    void partialUpdateFillsColumnsFromSeveralStreams() throws Exception {
        FileStoreTable t = create("partial-update-wide.yaml", "db.user_profile");
        commit(t, 1, GenericRow.insert(1L, "ann", "ann@example.com", 10L, null, null, null, null, null));
        commit(t, 2, GenericRow.insert(1L, null, null, null, 99L, new BigDecimal("5.00"), 20L, null, null));
        commit(t, 3, GenericRow.insert(1L, null, null, null, null, null, null, 3_000L, "phone"));
        // a late profile update (older than the first) and a late order: both lose, nothing else changes
        commit(t, 4, GenericRow.insert(1L, "old", null, 5L, 98L, null, 15L, null, null));
        List<JsonNode> rows = scan("db.user_profile");
        assertThat(rows).hasSize(1);
        JsonNode r = rows.get(0);
        assertThat(r.get("name").asText()).isEqualTo("ann");
        assertThat(r.get("email").asText()).isEqualTo("ann@example.com");
        assertThat(r.get("last_order_id").asLong()).isEqualTo(99);
        assertThat(r.get("device").asText()).isEqualTo("phone");
    }

    @Test
    void aggregationFoldsEachFieldByItsFunction() throws Exception {
        FileStoreTable t = create("aggregation.yaml", "db.daily_sales");
        commit(
                t,
                1,
                GenericRow.insert(DAY, 1L, 1L, new BigDecimal("10.00"), new BigDecimal("10.00"), 1_000L),
                GenericRow.insert(DAY, 1L, 1L, new BigDecimal("30.00"), new BigDecimal("30.00"), 2_000L));
        commit(t, 2, GenericRow.insert(DAY, 1L, 1L, new BigDecimal("5.00"), new BigDecimal("5.00"), null));
        List<JsonNode> rows = scan("db.daily_sales");
        assertThat(rows).hasSize(1);
        JsonNode r = rows.get(0);
        assertThat(r.get("orders").asLong()).isEqualTo(3);
        assertThat(new BigDecimal(r.get("revenue").asText())).isEqualByComparingTo("45.00");
        assertThat(new BigDecimal(r.get("max_order").asText())).isEqualByComparingTo("30.00");
        assertThat(r.get("last_order_at").isNull()).isFalse();
    }
}
