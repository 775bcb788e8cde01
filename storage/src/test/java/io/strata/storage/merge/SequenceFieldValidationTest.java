package io.strata.storage.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code sequence.field} and the ordered engines refuse when a table is created: each error
 * names the table, the field and the option, says why, and no table is left behind.
 */
class SequenceFieldValidationTest {
    @TempDir
    Path dir;

    private static Schema.Builder columns() {
        return Schema.newBuilder()
                .column("id", "INT NOT NULL")
                .column("v", "STRING")
                .column("ts", "TIMESTAMP(3)")
                .column("tags", "ARRAY<STRING>")
                .column("attrs", "MAP<STRING NOT NULL, BIGINT>")
                .column("pos", "ROW<x INT, y INT>")
                .column("n", "BIGINT");
    }

    private static Schema keyed(Map<String, String> options) {
        return columns().primaryKey("id").options(options).build();
    }

    private void assertRejected(Schema schema, String... fragments) {
        Catalog catalog = Catalog.open(dir.toString());
        var thrown = assertThatThrownBy(() -> catalog.createTable("db", "t", schema))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("table db.t");
        for (String f : fragments) {
            thrown.hasMessageContaining(f);
        }
        assertThat(catalog.tableExists("db", "t")).as("no table is created").isFalse();
    }

    @Test
    void theSequenceFieldMustBeAValueColumnOfAScalarType() {
        assertRejected(keyed(Map.of("sequence.field", "nope")), "sequence.field 'nope' is not a column");
        assertRejected(keyed(Map.of("sequence.field", "id")), "sequence.field 'id' is a primary key field");
        for (String nested : new String[] {"tags", "attrs", "pos"}) {
            for (String engine : new String[] {"deduplicate", "first-row", "partial-update", "aggregation"}) {
                assertRejected(
                        keyed(Map.of("merge-engine", engine, "sequence.field", nested, "ignore-delete", "true")),
                        "sequence.field '" + nested + "' is of type",
                        "no ordering value");
            }
        }
    }

    @Test
    void anAppendTableRefusesASequenceField() {
        assertRejected(columns().options(Map.of("sequence.field", "ts")).build(), "sequence.field 'ts'", "primary key");
    }

    @Test
    void scalarSequenceFieldsOfEveryKindAreAccepted() {
        Catalog catalog = Catalog.open(dir.toString());
        String[] types = {
            "TINYINT",
            "SMALLINT",
            "INT",
            "BIGINT",
            "DOUBLE",
            "DECIMAL(10, 2)",
            "DATE",
            "TIME(3)",
            "TIMESTAMP(6)",
            "TIMESTAMP_LTZ(3)",
            "STRING",
            "VARCHAR(10)"
        };
        for (int i = 0; i < types.length; i++) {
            Schema s = Schema.newBuilder()
                    .column("id", "INT NOT NULL")
                    .column("s", types[i])
                    .column("v", "STRING")
                    .primaryKey("id")
                    .option("merge-engine", "partial-update")
                    .option("sequence.field", "s")
                    .build();
            assertThat(catalog.createTable("db", "ok" + i, s).schema().options())
                    .containsEntry("sequence.field", "s");
        }
    }

    /**
     * listagg, collect and merge_map are accepted with sequence.field (each piece keeps its
     * ordering); as without it they cannot retract: a -U/-D is refused at write time naming the
     * table, the field and fields.&lt;f&gt;.ignore-retract, which skips it instead.
     */
    @Test
    void collectingFunctionsAreAcceptedWithSequenceFieldAndRefuseRetractions() {
        Catalog catalog = Catalog.open(dir.toString());
        String[][] cases = {{"v", "listagg"}, {"tags", "collect"}, {"attrs", "merge_map"}};
        for (String[] c : cases) {
            Map<String, String> options = Map.of(
                    "merge-engine",
                    "aggregation",
                    "sequence.field",
                    "ts",
                    "fields." + c[0] + ".aggregate-function",
                    c[1]);
            FileStoreTable t = catalog.createTable("db", "t_" + c[1], keyed(options));
            try (TableWrite w = t.newWrite("u")) {
                assertThatThrownBy(() ->
                                w.write(new GenericRow(RowKind.UPDATE_BEFORE, 1, null, null, null, null, null, null)))
                        .hasMessageContaining("table db.t_" + c[1])
                        .hasMessageContaining("aggregate function " + c[1] + " of field '" + c[0] + "' cannot retract")
                        .hasMessageContaining("fields." + c[0] + ".ignore-retract=true");
            }
            Map<String, String> ignoring = new HashMap<>(options);
            ignoring.put("fields." + c[0] + ".ignore-retract", "true");
            FileStoreTable ignores = catalog.createTable("db", "i_" + c[1], keyed(ignoring));
            try (TableWrite w = ignores.newWrite("u")) {
                w.write(new GenericRow(RowKind.UPDATE_BEFORE, 1, null, null, null, null, null, null));
            }
        }
    }

    @Test
    void aggregationRemoveRecordOnDeleteIsRefusedWithSequenceField() {
        assertRejected(
                keyed(Map.of(
                        "merge-engine", "aggregation",
                        "sequence.field", "ts",
                        "aggregation.remove-record-on-delete", "true")),
                "aggregation.remove-record-on-delete is not supported with sequence.field 'ts'");
    }
}
