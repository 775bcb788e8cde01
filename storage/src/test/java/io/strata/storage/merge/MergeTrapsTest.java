package io.strata.storage.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TableModel.Mode;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Traps other engines fall into. Each writes the same rows once inside one commit and once
 * spread over commits, and both must give the model's answer.
 */
class MergeTrapsTest {
    @TempDir
    Path dir;

    private int tableCounter;

    private FileStoreTable table(Mode mode) {
        return Catalog.open(dir.toString())
                .createTable("db", "t" + (tableCounter++), TestTables.modelSchema(false, 1, TableModel.options(mode)));
    }

    /** Writes {@code rows}, committing after the rows whose index is in {@code commitAfter} and at the end. */
    private static List<GenericRow> writeAndScan(FileStoreTable t, List<GenericRow> rows, boolean commitEachRow) {
        try (TableWrite w = t.newWrite("u");
                TableCommit c = t.newCommit("u")) {
            long id = 0;
            for (GenericRow r : rows) {
                w.write(r);
                if (commitEachRow) {
                    c.commit(++id, w.prepareCommit());
                }
            }
            c.commit(++id, w.prepareCommit());
        }
        return TestTables.scan(t);
    }

    private void assertSameInOneCommitAndAcross(Mode mode, List<GenericRow> rows) {
        TableModel model = new TableModel(mode);
        rows.forEach(model::apply);
        assertThat(TableModel.toContents(writeAndScan(table(mode), rows, false)))
                .as("one commit")
                .isEqualTo(model.contents());
        assertThat(TableModel.toContents(writeAndScan(table(mode), rows, true)))
                .as("a commit per row")
                .isEqualTo(model.contents());
    }

    private static GenericRow row(RowKind kind, int id, Long a, Integer b, String c, Long ts) {
        return new GenericRow(kind, 0, id, a, b, c, null, null, ts);
    }

    @ParameterizedTest
    @EnumSource(
            value = Mode.class,
            names = {"PARTIAL_UPDATE_REMOVE", "AGGREGATION_REMOVE"})
    void deleteThenInsertInOneCommitDropsOlderColumnValues(Mode mode) {
        FileStoreTable t = table(mode);
        try (TableWrite w = t.newWrite("u");
                TableCommit c = t.newCommit("u")) {
            w.write(row(RowKind.INSERT, 1, 10L, 7, "old", 1L));
            c.commit(1, w.prepareCommit());
            // one commit: the row is deleted, then re-inserted with only column a
            w.write(row(RowKind.DELETE, 1, null, null, null, null));
            w.write(row(RowKind.INSERT, 1, 5L, null, null, 2L));
            c.commit(2, w.prepareCommit());
        }
        List<GenericRow> rows = TestTables.scan(t);
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).get(2)).isEqualTo(5L);
        assertThat(rows.get(0).get(3))
                .as("b from before the delete must not survive")
                .isNull();
        assertThat(rows.get(0).get(4))
                .as("c from before the delete must not survive")
                .isNull();
    }

    @Test
    void deleteUnderSequenceFieldKeepsItsOrderingValue() {
        List<GenericRow> rows = List.of(
                row(RowKind.INSERT, 1, 1L, 1, "v10", 10L),
                row(RowKind.DELETE, 1, null, null, null, 20L),
                row(RowKind.INSERT, 1, 2L, 2, "late", 15L), // late: older than the delete
                row(RowKind.INSERT, 2, 1L, 1, "v30", 30L),
                row(RowKind.DELETE, 2, null, null, null, 25L), // late delete: older than the row
                row(RowKind.INSERT, 3, 1L, 1, "v5", 5L),
                row(RowKind.DELETE, 3, null, null, null, 6L),
                row(RowKind.INSERT, 3, 9L, 9, "v7", 7L)); // newer than the delete: back
        assertSameInOneCommitAndAcross(Mode.DEDUPLICATE_SEQUENCE_FIELD, rows);
        List<GenericRow> scanned = writeAndScan(table(Mode.DEDUPLICATE_SEQUENCE_FIELD), rows, true);
        assertThat(scanned).extracting(r -> r.get(1)).containsExactlyInAnyOrder(2, 3);
    }

    @Test
    void firstRowUnderSequenceFieldKeepsTheLowestOrderingValueWhateverTheCommits() {
        List<GenericRow> rows = List.of(
                row(RowKind.INSERT, 1, 1L, 1, "ts5", 5L),
                row(RowKind.INSERT, 1, 2L, 2, "ts9", 9L), // higher: loses
                row(RowKind.INSERT, 1, 3L, 3, "late ts2", 2L), // late and lower: replaces the winner
                row(RowKind.INSERT, 1, 4L, 4, "tie ts2", 2L), // a tie: the earlier arrival stays
                row(RowKind.INSERT, 2, 1L, 1, "ts4", 4L),
                row(RowKind.INSERT, 2, 2L, 2, "no ts", null), // null orders first: wins
                row(RowKind.INSERT, 2, 3L, 3, "ts0", 0L),
                row(RowKind.INSERT, 3, 1L, 1, "ts3", 3L),
                row(RowKind.DELETE, 3, null, null, null, 1L)); // dropped (ignore-delete)
        assertSameInOneCommitAndAcross(Mode.FIRST_ROW_SEQUENCE_FIELD, rows);
        List<GenericRow> scanned = writeAndScan(table(Mode.FIRST_ROW_SEQUENCE_FIELD), rows, true);
        assertThat(scanned).extracting(r -> r.get(4)).containsExactlyInAnyOrder("late ts2", "no ts", "ts3");
    }

    @ParameterizedTest
    @EnumSource(
            value = Mode.class,
            names = {"DEDUPLICATE", "AGGREGATION", "AGGREGATION_REMOVE", "PARTIAL_UPDATE_REMOVE"})
    void severalRetractionsOfAnUnknownKeyBehaveTheSameInOneCommitAndAcross(Mode mode) {
        List<GenericRow> rows = new ArrayList<>(List.of(
                row(RowKind.UPDATE_BEFORE, 7, 3L, 1, "x", 1L),
                row(RowKind.DELETE, 7, 4L, 2, "y", 2L),
                row(RowKind.UPDATE_BEFORE, 7, 5L, 3, "z", 3L)));
        assertSameInOneCommitAndAcross(mode, rows);
        rows.add(row(RowKind.INSERT, 7, 100L, 9, "w", 4L));
        assertSameInOneCommitAndAcross(mode, rows);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void commitBoundariesDoNotChangeTheTable(Mode mode) {
        Random rnd = new Random(77 + mode.ordinal());
        List<GenericRow> rows = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            GenericRow r = TableModel.randomRow(rnd, 12);
            rows.add(new GenericRow(r.kind(), 0, r.get(1), r.get(2), r.get(3), r.get(4), r.get(5), r.get(6), r.get(7)));
        }
        assertSameInOneCommitAndAcross(mode, rows);
    }

    @Test
    void partialUpdateRejectsDeletesWithAClearError() {
        FileStoreTable t = Catalog.open(dir.toString())
                .createTable("db", "pu", TestTables.modelSchema(false, 1, Map.of("merge-engine", "partial-update")));
        try (TableWrite w = t.newWrite("u")) {
            assertThatThrownBy(() -> w.write(row(RowKind.DELETE, 1, null, null, null, null)))
                    .hasMessageContaining("db.pu")
                    .hasMessageContaining("ignore-delete");
        }
    }

    @Test
    void aggregationRejectsRetractionOfFunctionsThatCannot() {
        FileStoreTable t = Catalog.open(dir.toString())
                .createTable(
                        "db",
                        "agg",
                        TestTables.modelSchema(
                                false, 1, Map.of("merge-engine", "aggregation", "fields.b.aggregate-function", "max")));
        try (TableWrite w = t.newWrite("u")) {
            assertThatThrownBy(() -> w.write(row(RowKind.UPDATE_BEFORE, 1, 1L, 1, null, null)))
                    .hasMessageContaining("db.agg")
                    .hasMessageContaining("cannot retract")
                    .hasMessageContaining(".ignore-retract=true");
        }
    }

    @Test
    void sequenceFieldMustNameAColumn() {
        assertThatThrownBy(() -> Catalog.open(dir.toString())
                        .createTable(
                                "db",
                                "seq",
                                TestTables.modelSchema(
                                        false, 1, Map.of("merge-engine", "first-row", "sequence.field", "nope"))))
                .hasMessageContaining("sequence.field 'nope' is not a column")
                .hasMessageContaining("db.seq");
    }
}
