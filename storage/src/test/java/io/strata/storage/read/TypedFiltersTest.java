package io.strata.storage.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.read.Predicate.Op;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Filters on issue 17's types: comparisons on the new scalar types (pruning files by their
 * statistics) and on ARRAY and ROW values (ordered element by element), null tests on any column,
 * MAP included; an order comparison on a MAP is refused naming the field.
 */
class TypedFiltersTest {
    @TempDir
    Path dir;

    @Test
    void filtersOnTheNewTypes() {
        FileStoreTable t = Catalog.open(dir.toString())
                .createTable(
                        "db",
                        "f",
                        Schema.newBuilder()
                                .column("k", "BIGINT")
                                .column("ti", "TINYINT")
                                .column("tm", "TIME(3)")
                                .column("arr", "ARRAY<INT>")
                                .column("m", "MAP<STRING, INT>")
                                .primaryKey("k")
                                .option("write-only", "true")
                                .build());
        GenericRow a = GenericRow.insert(1L, (byte) 5, 1_000, List.of(1, 2), Map.of("x", 1));
        GenericRow b = GenericRow.insert(2L, (byte) -5, 2_000, List.of(1), null);
        GenericRow c = GenericRow.insert(3L, null, null, null, Map.of());
        try (TableWrite w = t.newWrite("u");
                TableCommit commit = t.newCommit("u")) {
            w.write(a);
            w.write(b);
            w.write(c);
            commit.commit(1, w.prepareCommit());
        }
        assertThat(scan(t, Predicate.leaf(t.schema(), "ti", Op.GT, (byte) 0))).containsExactly(a);
        assertThat(scan(t, Predicate.leaf(t.schema(), "tm", Op.LE, 1_500))).containsExactly(a);
        assertThat(scan(t, Predicate.leaf(t.schema(), "arr", Op.EQ, List.of(1, 2))))
                .containsExactly(a);
        assertThat(scan(t, Predicate.leaf(t.schema(), "arr", Op.LT, List.of(1, 2))))
                .containsExactly(b);
        assertThat(scan(t, Predicate.leaf(t.schema(), "m", Op.IS_NULL, null))).containsExactly(b);
        assertThat(scan(t, Predicate.leaf(t.schema(), "m", Op.IS_NOT_NULL, null)))
                .containsExactlyInAnyOrder(a, c);
        assertThatThrownBy(() -> Predicate.leaf(t.schema(), "m", Op.EQ, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("filter on 'm'")
                .hasMessageContaining("no order");
        assertThatThrownBy(() -> Predicate.leaf(t.schema(), "ti", Op.EQ, 5))
                .hasMessageContaining("filter on 'ti' needs a TINYINT literal, got Integer");
    }

    private static List<GenericRow> scan(FileStoreTable t, Predicate p) {
        return TestTables.scan(t.newReadBuilder().withFilter(p));
    }
}
