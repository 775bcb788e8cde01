package io.strata.storage.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.DirListing;
import io.strata.storage.testutil.Rows;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Adding a nullable column: old files read null for it, new files carry it, old snapshots still read. */
class SchemaEvolutionTest {
    @TempDir
    Path warehouse;

    @Test
    void addNullableColumn() throws Exception {
        Catalog catalog = Catalog.open(warehouse.toString());
        FileStoreTable v0 = catalog.createTable(
                "db",
                "t",
                Schema.newBuilder()
                        .column("id", "BIGINT")
                        .column("name", "STRING")
                        .primaryKey("id")
                        .option("bucket", "2")
                        .build());
        try (TableWrite w = v0.newWrite("u");
                TableCommit c = v0.newCommit("u")) {
            w.write(GenericRow.insert(1L, "one"));
            w.write(GenericRow.insert(2L, "two"));
            w.write(GenericRow.insert(3L, "three"));
            assertThat(c.commit(1, w.prepareCommit())).containsExactly(1L);
        }

        FileStoreTable v1 = v0.addColumn("score", DataType.intType());
        assertThat(v1.schema().id()).isEqualTo(1);
        assertThat(v1.schema().fields()).extracting(DataField::name).containsExactly("id", "name", "score");
        assertThat(v1.schema().field("score").type().isNullable()).isTrue();
        assertThat(v1.schema().field("score").id()).as("a new field id").isEqualTo(2);
        assertThat(warehouse.resolve("db.db/t/schema/schema-1")).exists();
        assertThat(warehouse.resolve("db.db/t/schema/schema-0")).exists();
        // schema 1 is what everyone opening the table now gets
        FileStoreTable reopened = catalog.getTable("db", "t");
        assertThat(reopened.schema().id()).isEqualTo(1);
        assertThat(reopened.schemaManager().latestId()).hasValue(1);
        assertThat(reopened.schemaManager().schema(0).fields()).hasSize(2);

        // rows written before the change read null for the new column
        assertThat(Rows.byKey(Rows.readAll(reopened.newReadBuilder())))
                .isEqualTo(Map.of(
                        1L,
                        Arrays.asList("one", null),
                        2L,
                        Arrays.asList("two", null),
                        3L,
                        Arrays.asList("three", null)));

        // rows written after carry it; an update of an old key takes the new value, a delete works
        try (TableWrite w = reopened.newWrite("u");
                TableCommit c = reopened.newCommit("u")) {
            w.write(GenericRow.insert(2L, "TWO", 20));
            w.write(GenericRow.insert(4L, "four", 40));
            w.write(GenericRow.insert(5L, "five", null));
            w.write(GenericRow.delete(3L, null, null));
            assertThat(c.commit(2, w.prepareCommit())).containsExactly(2L);
        }
        assertThat(reopened.snapshotManager().snapshot(2).schemaId()).isEqualTo(1);
        assertThat(reopened.snapshotManager().snapshot(1).schemaId()).isEqualTo(0);
        Map<Long, List<Object>> latest = Map.of(
                1L,
                Arrays.asList("one", null),
                2L,
                Arrays.asList("TWO", 20),
                4L,
                Arrays.asList("four", 40),
                5L,
                Arrays.asList("five", null));
        assertThat(Rows.byKey(Rows.readAll(reopened.newReadBuilder()))).isEqualTo(latest);
        assertThat(Rows.byKey(Rows.readAll(catalog.getTable("db", "t").newReadBuilder())))
                .isEqualTo(latest);

        // projection of the new column over old and new files
        assertThat(Rows.readAll(reopened.newReadBuilder().withProjection("id", "score")))
                .containsExactlyInAnyOrder(
                        GenericRow.insert(1L, null),
                        GenericRow.insert(2L, 20),
                        GenericRow.insert(4L, 40),
                        GenericRow.insert(5L, null));

        // time travel to the snapshot before the change still reads (in the current schema)
        assertThat(Rows.byKey(Rows.readAll(reopened.newReadBuilder().withSnapshot(1))))
                .isEqualTo(Map.of(
                        1L,
                        Arrays.asList("one", null),
                        2L,
                        Arrays.asList("two", null),
                        3L,
                        Arrays.asList("three", null)));

        // a handle opened before the change still reads its own columns of the latest snapshot
        assertThat(Rows.byKey(Rows.readAll(v0.newReadBuilder())))
                .isEqualTo(Map.of(1L, List.of("one"), 2L, List.of("TWO"), 4L, List.of("four"), 5L, List.of("five")));
    }

    @Test
    void invalidAdditionsAreRejectedWithoutWritingASchema() {
        Catalog catalog = Catalog.open(warehouse.toString());
        FileStoreTable t = catalog.createTable(
                "db",
                "t",
                Schema.newBuilder()
                        .column("id", "BIGINT")
                        .column("name", "STRING")
                        .primaryKey("id")
                        .build());
        Path tableDir = warehouse.resolve("db.db").resolve("t");
        Map<String, String> before = DirListing.of(tableDir);
        assertThatThrownBy(() -> t.addColumn("score", DataType.parse("INT NOT NULL")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("db.t")
                .hasMessageContaining("'score'")
                .hasMessageContaining("nullable");
        assertThatThrownBy(() -> t.addColumn("name", DataType.string()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("db.t")
                .hasMessageContaining("'name'")
                .hasMessageContaining("already exists");
        assertThatThrownBy(() -> t.addColumn("_seq", DataType.bigint()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'_seq'");
        assertThat(DirListing.of(tableDir)).isEqualTo(before);
        assertThat(catalog.getTable("db", "t").schema().id()).isZero();
    }

    @Test
    void twoAdditionsInARow() {
        Catalog catalog = Catalog.open(warehouse.toString());
        FileStoreTable t = catalog.createTable(
                "db", "log", Schema.newBuilder().column("id", "BIGINT").build());
        try (TableWrite w = t.newWrite("u");
                TableCommit c = t.newCommit("u")) {
            w.write(GenericRow.insert(1L));
            c.commit(1, w.prepareCommit());
        }
        FileStoreTable t2 = t.addColumn("a", DataType.string()).addColumn("b", DataType.doubleType());
        assertThat(t2.schema().id()).isEqualTo(2);
        try (TableWrite w = t2.newWrite("u");
                TableCommit c = t2.newCommit("u")) {
            w.write(GenericRow.insert(2L, "x", 2.5));
            c.commit(2, w.prepareCommit());
        }
        assertThat(Rows.readAll(catalog.getTable("db", "log").newReadBuilder()))
                .containsExactlyInAnyOrder(GenericRow.insert(1L, null, null), GenericRow.insert(2L, "x", 2.5));
        // a stale handle cannot add a column over a newer schema silently
        assertThatThrownBy(() -> t.addColumn("a", DataType.string()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("db.log")
                .hasMessageContaining("'a' already exists");
        assertThat(catalog.getTable("db", "log").schema().id()).isEqualTo(2);
    }
}
