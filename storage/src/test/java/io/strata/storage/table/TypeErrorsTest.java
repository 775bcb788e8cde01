package io.strata.storage.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.schema.Schema;
import io.strata.storage.testutil.TestTables;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What issue 17's types refuse, each with a message naming the table and the field: CHAR/VARCHAR
 * values longer than their length (with the value's length), ARRAY, MAP and ROW key fields, and
 * values of the wrong shape at any depth. A refused row leaves nothing buffered: the rows around it
 * commit as if it had never been written.
 */
class TypeErrorsTest {
    @TempDir
    Path dir;

    private FileStoreTable table(String name, Schema schema) {
        return Catalog.open(dir.resolve("wh").toString()).createTable("db", name, schema);
    }

    private FileStoreTable typed() {
        return table(
                "typed",
                Schema.newBuilder()
                        .column("k", "BIGINT")
                        .column("c", "CHAR(3)")
                        .column("v", "VARCHAR(5)")
                        .column("t", "TIME(1)")
                        .column("tags", "ARRAY<VARCHAR(2)>")
                        .column("m", "MAP<STRING, DECIMAL(5, 2)>")
                        .column("r", "ROW<a INT NOT NULL, b ARRAY<TINYINT>>")
                        .primaryKey("k")
                        .build());
    }

    private static Object[] row(long k) {
        return new Object[] {
            k,
            "abc",
            "héllo",
            1_000,
            List.of("ab"),
            Map.of("x", new BigDecimal("1.25")),
            new Object[] {1, List.of((byte) 1)}
        };
    }

    @Test
    void varcharAndCharLongerThanTheirLengthAreRefusedWithTheValuesLength() {
        FileStoreTable t = typed();
        try (TableWrite w = t.newWrite("u");
                TableCommit c = t.newCommit("u")) {
            w.write(GenericRow.insert(row(1)));
            Object[] longVarchar = row(2);
            longVarchar[2] = "😀😀😀😀😀😀"; // 6 characters, 12 UTF-16 units, 24 UTF-8 bytes
            assertThatThrownBy(() -> w.write(GenericRow.insert(longVarchar)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("table db.typed")
                    .hasMessageContaining("field 'v'")
                    .hasMessageContaining("VARCHAR(5)")
                    .hasMessageContaining("6 characters");
            Object[] longChar = row(3);
            longChar[1] = "abcd";
            assertThatThrownBy(() -> w.write(GenericRow.insert(longChar)))
                    .hasMessageContaining("table db.typed")
                    .hasMessageContaining("field 'c'")
                    .hasMessageContaining("CHAR(3)")
                    .hasMessageContaining("4 characters");
            Object[] longElement = row(4);
            longElement[4] = Arrays.asList("ab", null, "abc");
            assertThatThrownBy(() -> w.write(GenericRow.insert(longElement)))
                    .hasMessageContaining("table db.typed")
                    .hasMessageContaining("field 'tags' element 2")
                    .hasMessageContaining("VARCHAR(2)")
                    .hasMessageContaining("3 characters");
            // exactly the length passes, counted in characters, not UTF-16 units or bytes
            Object[] exact = row(5);
            exact[2] = "😀😀😀😀😀";
            w.write(GenericRow.insert(exact));
            c.commit(1, w.prepareCommit());
        }
        assertThat(TestTables.scan(t)).extracting(r -> r.get(0)).containsExactlyInAnyOrder(1L, 5L);
    }

    @Test
    void valuesOfTheWrongShapeAreRefusedNamingWhereInTheValue() {
        FileStoreTable t = typed();
        try (TableWrite w = t.newWrite("u")) {
            Object[] wrongElement = row(1);
            wrongElement[4] = List.of("ab", 7);
            assertThatThrownBy(() -> w.write(GenericRow.insert(wrongElement)))
                    .hasMessageContaining("table db.typed")
                    .hasMessageContaining("field 'tags' element 1 expects VARCHAR(2) (String), got Integer 7");
            Object[] nullInRow = row(2);
            nullInRow[6] = new Object[] {null, List.of()};
            assertThatThrownBy(() -> w.write(GenericRow.insert(nullInRow)))
                    .hasMessageContaining("field 'r' field a expects INT NOT NULL, got null");
            Object[] shortRow = row(3);
            shortRow[6] = new Object[] {1};
            assertThatThrownBy(() -> w.write(GenericRow.insert(shortRow)))
                    .hasMessageContaining("field 'r' expects ROW<a INT NOT NULL, b ARRAY<TINYINT>> with 2 fields");
            Object[] badScale = row(4);
            badScale[5] = Map.of("x", new BigDecimal("1.5"));
            assertThatThrownBy(() -> w.write(GenericRow.insert(badScale)))
                    .hasMessageContaining("field 'm' value of map key x")
                    .hasMessageContaining("must have scale 2");
            Map<String, BigDecimal> nullKey = new HashMap<>();
            nullKey.put(null, new BigDecimal("1.00"));
            Object[] badKey = row(5);
            badKey[5] = nullKey;
            assertThatThrownBy(() -> w.write(GenericRow.insert(badKey)))
                    .hasMessageContaining("field 'm' map key expects STRING NOT NULL, got null");
            Object[] badTime = row(6);
            badTime[3] = 1_050; // TIME(1): tenths of a second
            assertThatThrownBy(() -> w.write(GenericRow.insert(badTime)))
                    .hasMessageContaining("field 't' expects TIME(1)")
                    .hasMessageContaining("a multiple of 100");
            Object[] outOfDay = row(7);
            outOfDay[3] = 86_400_000;
            assertThatThrownBy(() -> w.write(GenericRow.insert(outOfDay))).hasMessageContaining("field 't'");
            Object[] tinyAsInt = row(8);
            tinyAsInt[6] = new Object[] {1, List.of(1)};
            assertThatThrownBy(() -> w.write(GenericRow.insert(tinyAsInt)))
                    .hasMessageContaining("field 'r' field b element 0 expects TINYINT (Byte), got Integer 1");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"ARRAY<INT>", "MAP<STRING, INT>", "ROW<a INT>"})
    void primaryKeyFieldsCannotBeNested(String type) {
        assertThatThrownBy(() -> table(
                        "k",
                        Schema.newBuilder()
                                .column("id", "BIGINT")
                                .column("tags", type)
                                .primaryKey("id", "tags")
                                .build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("table db.k")
                .hasMessageContaining("primary key field 'tags'")
                .hasMessageContaining("cannot be ARRAY, MAP or ROW");
    }

    @Test
    void partitionAndBucketKeysCannotBeNested() {
        assertThatThrownBy(() -> table(
                        "p",
                        Schema.newBuilder()
                                .column("v", "BIGINT")
                                .column("tags", "ARRAY<STRING>")
                                .partitionKeys("tags")
                                .build()))
                .hasMessageContaining("table db.p")
                .hasMessageContaining("partition key field 'tags'");
        assertThatThrownBy(() -> table(
                        "b",
                        Schema.newBuilder()
                                .column("v", "BIGINT")
                                .column("m", "MAP<INT, INT>")
                                .option("bucket", "2")
                                .option("bucket-key", "m")
                                .build()))
                .hasMessageContaining("table db.b")
                .hasMessageContaining("bucket key field 'm'");
    }
}
