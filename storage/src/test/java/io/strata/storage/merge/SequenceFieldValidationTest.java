package io.strata.storage.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.schema.Schema;
import io.strata.storage.table.Catalog;
import java.nio.file.Path;
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
     * listagg, collect and merge_map keep every input in fold order; under sequence.field a
     * pre-merged value would have to keep each element's ordering to take a late row's input in
     * its place, so they are refused, naming the field, the function, the sequence field and why.
     */
    @Test
    void orderSensitiveCollectingFunctionsAreRefusedWithSequenceField() {
        String[][] cases = {{"v", "listagg"}, {"tags", "collect"}, {"attrs", "merge_map"}};
        for (String[] c : cases) {
            assertRejected(
                    keyed(Map.of(
                            "merge-engine",
                            "aggregation",
                            "sequence.field",
                            "ts",
                            "fields." + c[0] + ".aggregate-function",
                            c[1])),
                    "field '" + c[0] + "'",
                    "aggregate function " + c[1] + " is not supported with sequence.field 'ts'",
                    "cannot place a late row's input among its own",
                    "would depend on how rows were grouped into commits",
                    "option 'fields." + c[0] + ".aggregate-function'");
        }
        // and without sequence.field they are accepted
        Catalog catalog = Catalog.open(dir.toString());
        assertThat(catalog.createTable(
                        "db",
                        "plain",
                        keyed(Map.of(
                                "merge-engine", "aggregation",
                                "fields.v.aggregate-function", "listagg",
                                "fields.tags.aggregate-function", "collect",
                                "fields.attrs.aggregate-function", "merge_map"))))
                .isNotNull();
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
