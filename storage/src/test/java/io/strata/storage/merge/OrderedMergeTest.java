package io.strata.storage.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
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
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ordered engines (partial-update and aggregation under {@code sequence.field}, sequence
 * groups) case by case: each case writes its rows grouped into commits in several ways (one
 * commit; a commit per row; a commit per row followed by compactions) and every grouping must
 * give the same, stated table. The first cases are the groupings Paimon gets wrong: its
 * pre-merged row carries the highest sequence value of the rows merged into it, so a value from a
 * low-sequence row inside it beats a higher-sequence value from an older commit.
 *
 * <p>Rows: p=0, id, a BIGINT, b INT, c STRING, d BIGINT, e DOUBLE, ts BIGINT.
 */
class OrderedMergeTest {
    @TempDir
    Path dir;

    private int tables;

    private static GenericRow row(RowKind kind, int id, Long a, Integer b, String c, Long d, Double e, Long ts) {
        return new GenericRow(kind, 0, id, a, b, c, d, e, ts);
    }

    private static GenericRow ins(int id, Long a, Integer b, String c, Long ts) {
        return row(RowKind.INSERT, id, a, b, c, null, null, ts);
    }

    private FileStoreTable table(Map<String, String> options) {
        Map<String, String> o = new HashMap<>(options);
        o.put("write-only", "true");
        return Catalog.open(dir.toString()).createTable("db", "t" + (tables++), TestTables.modelSchema(false, 1, o));
    }

    /** The rows written with a commit after each index in {@code commitAfter} and at the end. */
    private List<List<Object>> scanOf(
            Map<String, String> options, List<GenericRow> rows, List<List<Integer>> commits, boolean compactEach) {
        FileStoreTable t = table(options);
        try (TableWrite w = t.newWrite("u");
                TableCommit c = t.newCommit("u")) {
            long id = 0;
            for (List<Integer> commit : commits) {
                for (int i : commit) {
                    w.write(rows.get(i));
                }
                c.commit(++id, w.prepareCommit());
                if (compactEach) {
                    t.newCompactor().compact(CompactStrategy.MINOR, "compactor", id);
                }
            }
        }
        t.newCompactor().compact(CompactStrategy.FULL, "compactor", 1000);
        List<List<Object>> out = new ArrayList<>();
        for (GenericRow r : TestTables.scan(t)) {
            out.add(Arrays.asList(r.fields()));
        }
        return out;
    }

    /**
     * Asserts that every grouping of {@code rows} into commits (one commit, a commit per row, each
     * commit compacted, rows in pairs) gives {@code expected}, rows of the table in key order.
     */
    private void assertEveryGrouping(Map<String, String> options, List<GenericRow> rows, List<List<Object>> expected) {
        List<Integer> all = new ArrayList<>();
        List<List<Integer>> single = new ArrayList<>();
        List<List<Integer>> pairs = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            all.add(i);
            single.add(List.of(i));
            if (i % 2 == 0) {
                pairs.add(i + 1 < rows.size() ? List.of(i, i + 1) : List.of(i));
            }
        }
        assertThat(scanOf(options, rows, List.of(all), false)).as("one commit").isEqualTo(expected);
        assertThat(scanOf(options, rows, single, false)).as("a commit per row").isEqualTo(expected);
        assertThat(scanOf(options, rows, single, true))
                .as("a commit per row, compacted")
                .isEqualTo(expected);
        assertThat(scanOf(options, rows, pairs, true))
                .as("rows in pairs, compacted")
                .isEqualTo(expected);
    }

    private static List<Object> r(int id, Long a, Integer b, String c, Long d, Double e, Long ts) {
        return Arrays.asList(0, id, a, b, c, d, e, ts);
    }

    private static Map<String, String> partialUpdate(String... more) {
        Map<String, String> o = new HashMap<>(
                Map.of("merge-engine", "partial-update", "sequence.field", "ts", "ignore-delete", "true"));
        for (int i = 0; i < more.length; i += 2) {
            o.put(more[i], more[i + 1]);
        }
        return o;
    }

    @Test
    void preMergedRowDoesNotLetALowSequenceValueBeatANewerValueFromAnOlderCommit() {
        // grouped as [0] [1, 2]: the second commit pre-merges a=2 (ts 3) into a row of ts 10;
        // a=1 (ts 5) from the first commit is newer and must stay
        List<GenericRow> rows =
                List.of(ins(1, 1L, null, null, 5L), ins(1, 2L, null, null, 3L), ins(1, null, 9, null, 10L));
        assertEveryGrouping(partialUpdate(), rows, List.of(r(1, 1L, 9, null, null, null, 10L)));
        assertThat(scanOf(partialUpdate(), rows, List.of(List.of(0), List.of(1, 2)), false))
                .containsExactly(r(1, 1L, 9, null, null, null, 10L));
    }

    @Test
    void preMergedRowsOfTwoCommitsMergeFieldByField() {
        // each commit holds a late and a fresh value of different fields; every field keeps its own newest
        List<GenericRow> rows = List.of(
                ins(1, 1L, null, "c20", 20L),
                ins(1, null, 1, null, 1L),
                ins(1, 2L, null, "c2", 2L),
                ins(1, null, 2, null, 15L));
        assertEveryGrouping(partialUpdate(), rows, List.of(r(1, 1L, 2, "c20", null, null, 20L)));
    }

    @Test
    void fieldsOutsideAGroupFollowTheSequenceFieldWhateverTheGrouping() {
        Map<String, String> o = partialUpdate("fields.d.sequence-group", "e");
        List<GenericRow> rows = List.of(
                row(RowKind.INSERT, 1, 1L, null, null, 7L, 1.0, 5L),
                row(RowKind.INSERT, 1, 2L, null, null, 3L, 2.0, 3L), // a: late; group (d, e): older
                row(RowKind.INSERT, 1, null, 9, null, null, null, 10L));
        assertEveryGrouping(o, rows, List.of(r(1, 1L, 9, null, 7L, 1.0, 10L)));
    }

    @Test
    void equalSequenceValuesAreBrokenByArrival() {
        List<GenericRow> rows =
                List.of(ins(1, 1L, 1, "first", 5L), ins(1, 2L, null, "second", 5L), ins(1, 3L, 3, null, 4L));
        assertEveryGrouping(partialUpdate(), rows, List.of(r(1, 2L, 1, "second", null, null, 5L)));
    }

    @Test
    void aNullSequenceValueOrdersFirst() {
        List<GenericRow> rows = List.of(ins(1, 1L, null, null, 5L), ins(1, 2L, 2, null, null));
        assertEveryGrouping(partialUpdate(), rows, List.of(r(1, 1L, 2, null, null, null, 5L)));
    }

    @Test
    void deleteRemovesOnlyWhatIsOlderAndALateOlderInsertStaysRemoved() {
        Map<String, String> o = new HashMap<>(Map.of(
                "merge-engine", "partial-update",
                "sequence.field", "ts",
                "partial-update.remove-record-on-delete", "true"));
        List<GenericRow> rows = List.of(
                ins(1, 1L, null, "c30", 30L), // newer than the delete: c stays
                ins(1, null, 5, null, 10L), // older: b goes
                row(RowKind.DELETE, 1, null, null, null, null, null, 20L),
                ins(1, null, 6, "late", 15L), // arrives after the delete, older than it: stays removed
                ins(2, 1L, 1, null, 10L),
                row(RowKind.DELETE, 2, null, null, null, null, null, 20L),
                ins(2, 2L, null, null, 15L), // late and older: key 2 stays removed
                ins(3, 1L, 1, null, 10L),
                row(RowKind.DELETE, 3, null, null, null, null, null, 5L)); // a late delete, older than the row
        assertEveryGrouping(
                o, rows, List.of(r(1, 1L, null, "c30", null, null, 30L), r(3, 1L, 1, null, null, null, 10L)));
    }

    @Test
    void aGroupIsReplacedWholeByANewerOrEqualSequenceAndLeftByAnAllNullOne() {
        Map<String, String> o = Map.of(
                "merge-engine", "partial-update",
                "ignore-delete", "true",
                "fields.ts.sequence-group", "a,c",
                "fields.d.sequence-group", "b",
                "fields.b.aggregate-function", "sum");
        List<GenericRow> rows = List.of(
                row(RowKind.INSERT, 1, 1L, 10, "x", 1L, null, 5L),
                row(RowKind.INSERT, 1, null, 20, null, 1L, null, 7L), // group ts: newer, nulls overwrite a and c
                row(RowKind.INSERT, 1, 3L, 30, "late", null, null, 6L), // group ts older: left; d null: b not summed
                row(RowKind.INSERT, 1, 4L, null, "none", null, 2.0, null)); // no sequence for either group: e only
        assertEveryGrouping(o, rows, List.of(r(1, null, 30, null, 1L, 2.0, 7L)));
    }

    /**
     * Order-sensitive functions in a sequence group follow the group's ordering (its sequence
     * tuple, then arrival), whatever the grouping: a pre-merged row keeps, per such member, the
     * tuple of the row its value came from, so a late row between them lands in its place.
     */
    @Test
    void orderSensitiveFunctionsInAGroupFollowTheGroupsOrdering() {
        Map<String, String> o = new HashMap<>(TableModel.options(Mode.PARTIAL_UPDATE_SEQUENCE_GROUP_FUNCTIONS));
        // group (ts, d): a last_non_null_value, b first_non_null_value, c first_value, e last_value
        List<GenericRow> rows = List.of(
                row(RowKind.INSERT, 1, 1L, null, "c5", 0L, 5.0, 5L),
                row(RowKind.INSERT, 1, null, 20, null, 0L, 9.0, 9L), // newest: a stays 1, e 9.0
                row(RowKind.INSERT, 1, 3L, 30, "c7", 0L, 7.0, 7L), // between: a 3 (newest non-null)
                row(RowKind.INSERT, 1, 4L, null, "c3", null, 3.0, 3L), // lowest: c
                row(RowKind.INSERT, 1, 8L, 80, "late", 1L, null, 3L), // (3, 1) above (3, null): b
                row(RowKind.INSERT, 1, 9L, 90, "none", null, null, null)); // no sequence: ignored
        // by (ts, d): (3,null) c3 < (3,1) < (5,0) < (7,0) < (9,0)
        assertEveryGrouping(o, rows, List.of(r(1, 3L, 80, "c3", 0L, 9.0, 9L)));
        List<GenericRow> firstNull = List.of(
                row(RowKind.INSERT, 2, 1L, 10, "c5", 0L, null, 5L),
                row(RowKind.INSERT, 2, null, null, null, 0L, null, 2L), // lowest: c null (first_value keeps it)
                row(RowKind.INSERT, 2, null, 11, null, 0L, null, 3L)); // lowest non-null b
        assertEveryGrouping(o, firstNull, List.of(r(2, 1L, 11, null, 0L, null, 5L)));
    }

    @Test
    void aggregationOrderSensitiveFunctionsFollowTheSequenceField() {
        Map<String, String> o = new HashMap<>(TableModel.options(Mode.AGGREGATION_SEQUENCE_FIELD));
        List<GenericRow> rows = List.of(
                row(RowKind.INSERT, 1, 1L, 10, "c5", 1L, 5.0, 5L),
                row(RowKind.INSERT, 1, 2L, 20, "c3", null, 3.0, 3L), // late: first_value b, not last_value c
                row(RowKind.INSERT, 1, 3L, null, "c9", 1L, null, 9L)); // newest: c, but e stays 5.0
        assertEveryGrouping(o, rows, List.of(r(1, 6L, 20, "c9", 2L, 5.0, 9L)));
    }

    @Test
    void aggregationLastValueRetractionOrdersLikeARow() {
        Map<String, String> o = new HashMap<>(TableModel.options(Mode.AGGREGATION_SEQUENCE_FIELD));
        List<GenericRow> rows = List.of(
                row(RowKind.INSERT, 1, 1L, 10, "c5", null, null, 5L),
                row(RowKind.UPDATE_BEFORE, 1, 1L, 10, "c5", null, null, 4L), // late retraction: c stays
                row(RowKind.INSERT, 2, 1L, 10, "c5", null, null, 5L),
                row(RowKind.UPDATE_BEFORE, 2, 1L, 10, "c5", null, null, 6L)); // newest retraction: c null
        assertEveryGrouping(o, rows, List.of(r(1, 0L, 10, "c5", null, null, 5L), r(2, 0L, 10, null, null, null, 5L)));
    }

    /**
     * last_non_null_value retracts under sequence.field as without it (a non-null retracted value
     * sets null), at the retraction's ordering: a late retraction older than the value leaves it,
     * a newer one empties the field until a newer non-null value; a null retracted value does nothing.
     */
    @Test
    void aggregationLastNonNullValueRetractionOrdersLikeARow() {
        Map<String, String> o = new HashMap<>(TableModel.options(Mode.AGGREGATION_SEQUENCE_FIELD));
        o.remove("fields.e.ignore-retract");
        List<GenericRow> rows = List.of(
                row(RowKind.INSERT, 1, null, null, null, null, 5.0, 5L),
                row(RowKind.UPDATE_BEFORE, 1, null, null, null, null, 5.0, 4L), // late retraction: e stays
                row(RowKind.INSERT, 2, null, null, null, null, 5.0, 5L),
                row(RowKind.UPDATE_BEFORE, 2, null, null, null, null, 5.0, 6L), // newest retraction: e null
                row(RowKind.INSERT, 2, null, null, null, null, null, 7L), // a null sets nothing
                row(RowKind.INSERT, 3, null, null, null, null, 5.0, 5L),
                row(RowKind.UPDATE_BEFORE, 3, null, null, null, null, 5.0, 6L),
                row(RowKind.INSERT, 3, null, null, null, null, 8.0, 7L), // newer than the retraction: e 8.0
                row(RowKind.UPDATE_BEFORE, 3, null, null, null, null, null, 9L)); // a null retracts nothing
        assertEveryGrouping(
                o,
                rows,
                List.of(
                        r(1, null, null, null, null, 5.0, 5L),
                        r(2, null, null, null, null, null, 7L),
                        r(3, null, null, null, null, 8.0, 7L)));
    }

    /**
     * listagg under sequence.field joins the pieces in ordering order (a null ordering first, ties
     * by arrival), whatever the grouping: a pre-merged value keeps each piece's ordering, so a late
     * piece lands between the pieces of a value pre-merged in another commit. Ignored retractions
     * (ignore-retract) change nothing; a piece may hold the delimiter.
     */
    @Test
    void listaggFollowsTheSequenceFieldWhateverTheGrouping() {
        Map<String, String> o = new HashMap<>(TableModel.options(Mode.AGGREGATION_SEQUENCE_FIELD_LISTAGG));
        List<GenericRow> rows = List.of(
                ins(1, null, null, "x,1", 5L),
                ins(1, null, null, "y", 3L), // late
                ins(1, null, null, "z", 10L),
                ins(1, null, null, "t", 5L), // a tie with x: after it, by arrival
                ins(1, null, null, null, 7L), // no piece
                ins(1, null, null, "n", null), // a null ordering: first
                row(RowKind.UPDATE_BEFORE, 1, null, null, "y", null, null, 11L)); // ignored for c
        List<List<Object>> expected = List.of(r(1, null, null, "n,y,x,1,t,z", null, null, 10L));
        assertEveryGrouping(o, rows, expected);
    }

    /**
     * The regression of issue 17 for listagg: the same rows grouped into commits two ways. Grouped
     * as [x@5] [y@3, z@10] the second commit pre-merges "y,z"; appending it after "x" (what a
     * pre-merged value ordered by its highest row alone would do) gives "x,y,z". Both groupings
     * give "y,x,z".
     */
    @Test
    void theSameRowsInTwoCommitGroupingsGiveTheSameListagg() {
        Map<String, String> o = new HashMap<>(TableModel.options(Mode.AGGREGATION_SEQUENCE_FIELD_LISTAGG));
        List<GenericRow> rows =
                List.of(ins(1, null, null, "x", 5L), ins(1, null, null, "y", 3L), ins(1, null, null, "z", 10L));
        List<List<Object>> expected = List.of(r(1, null, null, "y,x,z", null, null, 10L));
        assertThat(scanOf(o, rows, List.of(List.of(0), List.of(1, 2)), false)).isEqualTo(expected);
        assertThat(scanOf(o, rows, List.of(List.of(0, 1), List.of(2)), false)).isEqualTo(expected);
        assertThat(scanOf(o, rows, List.of(List.of(0), List.of(1, 2)), true))
                .as("each commit compacted")
                .isEqualTo(expected);
    }

    /** listagg in a sequence group joins the pieces of the rows carrying the group's sequence, by its tuple. */
    @Test
    void listaggInAGroupFollowsTheGroupsOrdering() {
        Map<String, String> o = new HashMap<>(TableModel.options(Mode.PARTIAL_UPDATE_SEQUENCE_GROUP_LISTAGG));
        // group (ts, d): a last_non_null_value, b sum, c listagg, e overwritten
        List<GenericRow> rows = List.of(
                row(RowKind.INSERT, 1, null, 1, "c5", 0L, 5.0, 5L),
                row(RowKind.INSERT, 1, null, 2, "c9", 0L, 9.0, 9L),
                row(RowKind.INSERT, 1, null, 3, "c7", 0L, 7.0, 7L), // between c5 and c9
                row(RowKind.INSERT, 1, null, 4, "c3", null, 3.0, 3L), // (3, null): lowest
                row(RowKind.INSERT, 1, null, 5, "c3,1", 1L, null, 3L), // (3, 1): above (3, null)
                row(RowKind.INSERT, 1, null, 6, "none", null, null, null)); // no sequence: ignored
        assertEveryGrouping(o, rows, List.of(r(1, null, 15, "c3,c3,1,c5,c7,c9", 0L, 9.0, 9L)));
    }

    /**
     * The input producer stores each commit's rows as written, per key in the engine's order
     * (sequence field, then arrival); a later commit's late row is in its own commit's changelog
     * although it loses in the table.
     */
    @Test
    void inputChangelogHoldsEachCommitsRowsInTheEnginesOrder() {
        FileStoreTable t = table(partialUpdate("changelog-producer", "input"));
        try (TableWrite w = t.newWrite("u");
                TableCommit c = t.newCommit("u")) {
            w.write(ins(1, 1L, null, null, 5L));
            w.write(ins(1, 2L, null, null, 3L));
            w.write(ins(2, 7L, null, null, 1L));
            c.commit(1, w.prepareCommit());
            w.write(ins(1, 3L, null, null, 4L));
            c.commit(2, w.prepareCommit());
        }
        assertThat(changelog(t, 0, 1))
                .containsExactly(
                        "+I(0, 1, 2, null, null, null, null, 3)",
                        "+I(0, 1, 1, null, null, null, null, 5)",
                        "+I(0, 2, 7, null, null, null, null, 1)");
        assertThat(changelog(t, 1, 2)).containsExactly("+I(0, 1, 3, null, null, null, null, 4)");
        assertThat(TestTables.scan(t).get(0).get(2))
                .as("the late row of commit 2 loses")
                .isEqualTo(1L);
    }

    private static List<String> changelog(FileStoreTable t, long fromExclusive, long to) {
        List<String> out = new ArrayList<>();
        try (var it = t.newIncrementalRead().read(fromExclusive, to)) {
            it.forEachRemaining(r -> out.add(r.toString()));
        }
        return out;
    }

    // ---------------------------------------------------------------- option validation

    private void assertRejected(Map<String, String> options, String... fragments) {
        var thrown = assertThatThrownBy(() -> table(options)).isInstanceOf(IllegalArgumentException.class);
        thrown.hasMessageContaining("db.t");
        for (String f : fragments) {
            thrown.hasMessageContaining(f);
        }
    }

    @Test
    void invalidSequenceGroupsAreRejectedNamingTableAndOption() {
        Map<String, String> pu = Map.of("merge-engine", "partial-update");
        assertRejected(
                with(pu, "fields.ts.sequence-group", "a,c", "fields.d.sequence-group", "c"),
                "field 'c' is in two sequence groups");
        assertRejected(
                with(pu, "fields.ts.sequence-group", "a,nope"), "fields.ts.sequence-group", "unknown field 'nope'");
        assertRejected(with(pu, "fields.nope.sequence-group", "a"), "unknown sequence field 'nope'");
        assertRejected(with(pu, "fields.ts.sequence-group", "a,ts"), "'ts'", "sequence field of the group itself");
        assertRejected(with(pu, "fields.ts.sequence-group", "id"), "primary key field 'id'");
        assertRejected(with(pu, "sequence.field", "ts", "fields.d.sequence-group", "ts"), "sequence.field");
        assertRejected(
                with(pu, "fields.d.sequence-group", "a", "fields.ts.sequence-group", "d"),
                "field 'd' is in two sequence groups");
        assertRejected(Map.of("fields.ts.sequence-group", "a"), "needs merge-engine=partial-update");
    }

    @Test
    void functionsUnderPartialUpdateOnlyInGroupsAndOrderInsensitive() {
        Map<String, String> pu = Map.of("merge-engine", "partial-update", "fields.ts.sequence-group", "a,b");
        assertRejected(with(pu, "fields.c.aggregate-function", "max"), "fields.c.aggregate-function", "in none");
        assertRejected(with(pu, "fields.ts.aggregate-function", "max"), "sequence field of its group");
        assertRejected(
                with(pu, "fields.ts.sequence-group", "a,b,c", "fields.c.distinct", "true"),
                "fields.c.distinct",
                "needs fields.c.aggregate-function=collect");
        assertRejected(with(pu, "fields.a.aggregate-function", "count"), "not supported in a sequence group");
        assertRejected(
                with(pu, "partial-update.remove-record-on-delete", "true"),
                "sequence groups",
                "fields.ts.sequence-group");
    }

    @Test
    void unsupportedCombinationsWithSequenceFieldAreRejected() {
        Map<String, String> agg = Map.of("merge-engine", "aggregation", "sequence.field", "ts");
        assertRejected(with(agg, "aggregation.remove-record-on-delete", "true"), "aggregation.remove-record-on-delete");
    }

    private static Map<String, String> with(Map<String, String> base, String... kv) {
        Map<String, String> o = new HashMap<>(base);
        for (int i = 0; i < kv.length; i += 2) {
            o.put(kv[i], kv[i + 1]);
        }
        return o;
    }
}
