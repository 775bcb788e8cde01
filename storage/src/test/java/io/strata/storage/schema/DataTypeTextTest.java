package io.strata.storage.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.TestTables;
import io.strata.storage.testutil.TypedValues;
import io.strata.storage.util.CorruptFileException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The textual form of types (schema files and the persisted schema): every type parses back to
 * itself from what it prints, the old spellings still parse, and bad ones fail naming the text.
 * Persisted schemas: a table that uses none of issue 17's types is written as schema version 1
 * (readable by builds that know only version 1), one that does as version 2; a version 1 file
 * written before these types existed still loads and its table still reads and writes.
 */
class DataTypeTextTest {
    @TempDir
    Path dir;

    @Test
    void everyTypePrintsAsTextThatParsesBackToIt() {
        for (String[] c : TypedValues.COLUMNS) {
            DataType t = DataType.parse(c[1]);
            assertThat(DataType.parse(t.toString())).as(c[1]).isEqualTo(t);
            assertThat(DataType.parse(t.copy(false).toString()))
                    .as(c[1] + " NOT NULL")
                    .isEqualTo(t.copy(false));
        }
        DataType nested = DataType.parse(
                "ARRAY<MAP<VARCHAR(3), ROW<`a b` INT NOT NULL, `x``y` ARRAY<TIMESTAMP_LTZ(3)>>>> NOT NULL");
        assertThat(nested.toString())
                .isEqualTo(
                        "ARRAY<MAP<VARCHAR(3) NOT NULL, ROW<`a b` INT NOT NULL, `x``y` ARRAY<TIMESTAMP_LTZ(3)>>>> NOT NULL");
        assertThat(DataType.parse(nested.toString())).isEqualTo(nested);
        assertThat(nested.elementType().valueType().fields().get(1).name()).isEqualTo("x`y");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "VARCHAR|STRING",
                "varchar(2147483647)|STRING",
                "VARCHAR(10)|VARCHAR(10)",
                "CHAR|CHAR(1)",
                "char(4) not null|CHAR(4) NOT NULL",
                "TIME|TIME(0)",
                "TIMESTAMP(3) WITH LOCAL TIME ZONE|TIMESTAMP_LTZ(3)",
                "TIMESTAMP_LTZ|TIMESTAMP_LTZ(6)",
                "integer|INT",
                "bool|BOOLEAN",
                "LONG NOT NULL|BIGINT NOT NULL",
                "VARBINARY(20)|BYTES",
                "decimal|DECIMAL(10, 0)",
                "map<int, string>|MAP<INT NOT NULL, STRING>",
                "row<a tinyint , b smallint>|ROW<a TINYINT, b SMALLINT>",
                "TIMESTAMP|TIMESTAMP(6)"
            })
    void spellingsParseToTheirCanonicalForm(String text, String canonical) {
        assertThat(DataType.parse(text).toString()).isEqualTo(canonical);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "STRING(10)",
                "VARCHAR(0)",
                "TIME(4)",
                "TIMESTAMP_LTZ(9)",
                "ARRAY<INT",
                "ARRAY<>",
                "MAP<BYTES, INT>",
                "MAP<ARRAY<INT>, INT>",
                "MAP<INT>",
                "ROW<>",
                "ROW<a INT, a STRING>",
                "ROW<a>",
                "INT(3)",
                "DECIMAL(10, 2, 1)",
                "INT NOT",
                "INT garbage"
            })
    void badTypesFailNamingTheText(String text) {
        assertThatThrownBy(() -> DataType.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> assertThat(e.getMessage()).containsAnyOf(text, "MAP keys", "ROW"));
    }

    @Test
    void schemasAreWrittenWithTheLowestVersionThatHoldsTheirTypes() throws IOException {
        Catalog catalog = Catalog.open(dir.toString());
        catalog.createTable(
                "db",
                "old",
                Schema.newBuilder()
                        .column("k", "BIGINT")
                        .column("v", "STRING")
                        .primaryKey("k")
                        .build());
        catalog.createTable("db", "new", TypedValues.schema(false, Map.of()));
        assertThat(schemaFile("old")).contains("\"version\" : 1");
        assertThat(schemaFile("new")).contains("\"version\" : 2").contains("MAP<INT NOT NULL, ARRAY<VARCHAR(4)>>");
        // read back through the schema file: every nested type as declared
        List<DataField> declared = new ArrayList<>();
        declared.add(new DataField(0, "k", DataType.bigint().copy(false)));
        for (int i = 0; i < TypedValues.COLUMNS.length; i++) {
            declared.add(new DataField(i + 1, TypedValues.COLUMNS[i][0], DataType.parse(TypedValues.COLUMNS[i][1])));
        }
        assertThat(Catalog.open(dir.toString()).getTable("db", "new").schema().fields())
                .isEqualTo(declared);
    }

    @Test
    void aVersionOneSchemaFileWrittenBeforeTheNewTypesStillLoads() throws IOException {
        // as FORMAT.md's example, byte for byte what a version-1 build wrote
        String v1 =
                "{\n  \"version\" : 1,\n  \"id\" : 0,\n  \"fields\" : [ {\n    \"id\" : 0,\n    \"name\" : \"id\",\n"
                        + "    \"type\" : \"BIGINT NOT NULL\"\n  }, {\n    \"id\" : 1,\n    \"name\" : \"v\",\n"
                        + "    \"type\" : \"DECIMAL(12, 2)\"\n  }, {\n    \"id\" : 2,\n    \"name\" : \"ts\",\n"
                        + "    \"type\" : \"TIMESTAMP(3)\"\n  } ],\n  \"highestFieldId\" : 2,\n  \"partitionKeys\" : [ ],\n"
                        + "  \"primaryKeys\" : [ \"id\" ],\n  \"options\" : {\n    \"bucket\" : \"1\"\n  },\n"
                        + "  \"timeMillis\" : 1764460000000\n}";
        Path schemaDir = dir.resolve("db.db/t/schema");
        Files.createDirectories(schemaDir);
        Files.writeString(schemaDir.resolve("schema-0"), v1);
        FileStoreTable t = Catalog.open(dir.toString()).getTable("db", "t");
        assertThat(t.schema().fields())
                .containsExactly(
                        new DataField(0, "id", DataType.bigint().copy(false)),
                        new DataField(1, "v", DataType.decimal(12, 2)),
                        new DataField(2, "ts", DataType.timestamp(3)));
        assertThat(t.schema().version()).isEqualTo(1);
        try (TableWrite w = t.newWrite("u");
                TableCommit c = t.newCommit("u")) {
            w.write(GenericRow.insert(1L, new java.math.BigDecimal("1.25"), 5L));
            c.commit(1, w.prepareCommit());
        }
        assertThat(TestTables.scan(t)).containsExactly(GenericRow.insert(1L, new java.math.BigDecimal("1.25"), 5L));
    }

    @Test
    void addingANestedColumnWritesVersionTwoAndOlderFilesReadItAsNull() throws IOException {
        FileStoreTable v0 = Catalog.open(dir.toString())
                .createTable(
                        "db",
                        "e",
                        Schema.newBuilder()
                                .column("k", "BIGINT")
                                .primaryKey("k")
                                .build());
        try (TableWrite w = v0.newWrite("u");
                TableCommit c = v0.newCommit("u")) {
            w.write(GenericRow.insert(1L));
            c.commit(1, w.prepareCommit());
        }
        FileStoreTable v1 = v0.addColumn("tags", DataType.parse("ARRAY<ROW<a TINYINT, b MAP<STRING, TIME(3)>>>"));
        assertThat(new String(Files.readAllBytes(dir.resolve("db.db/e/schema/schema-1")), StandardCharsets.UTF_8))
                .contains("\"version\" : 2");
        assertThat(schemaFile("e")).contains("\"version\" : 1");
        List<Object> tags = List.of((Object) new Object[] {(byte) 1, Map.of("x", 3_600_000)});
        try (TableWrite w = v1.newWrite("u");
                TableCommit c = v1.newCommit("u")) {
            w.write(GenericRow.insert(2L, tags));
            c.commit(2, w.prepareCommit());
        }
        assertThat(TestTables.scan(Catalog.open(dir.toString()).getTable("db", "e")))
                .containsExactlyInAnyOrder(GenericRow.insert(1L, null), GenericRow.insert(2L, tags));
    }

    @Test
    void aSchemaFileWhoseVersionCannotHoldItsTypesIsRefused() throws IOException {
        Path schemaDir = dir.resolve("db.db/t/schema");
        Files.createDirectories(schemaDir);
        String file =
                "{\"version\": %d, \"id\": 0, \"fields\": [{\"id\": 0, \"name\": \"id\", \"type\": \"TINYINT NOT NULL\"}],"
                        + " \"highestFieldId\": 0, \"partitionKeys\": [], \"primaryKeys\": [\"id\"], \"options\": {},"
                        + " \"timeMillis\": 1}";
        Files.writeString(schemaDir.resolve("schema-0"), String.format(file, 1));
        assertThatThrownBy(() -> Catalog.open(dir.toString()).getTable("db", "t"))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("schema-0")
                .hasMessageContaining("is schema version 1 but has types of version 2");
        Files.writeString(schemaDir.resolve("schema-0"), String.format(file, 3));
        assertThatThrownBy(() -> Catalog.open(dir.toString()).getTable("db", "t"))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("unsupported schema version 3 (this build reads versions 1 to 2)");
        Files.writeString(schemaDir.resolve("schema-0"), String.format(file, 2));
        assertThat(Catalog.open(dir.toString())
                        .getTable("db", "t")
                        .schema()
                        .fields()
                        .get(0)
                        .type())
                .isEqualTo(DataType.tinyint().copy(false));
    }

    private String schemaFile(String table) throws IOException {
        return new String(
                Files.readAllBytes(dir.resolve("db.db/" + table + "/schema/schema-0")), StandardCharsets.UTF_8);
    }
}
