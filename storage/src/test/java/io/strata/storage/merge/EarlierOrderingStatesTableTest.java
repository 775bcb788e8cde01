package io.strata.storage.merge;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.CommitMessage;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.BucketId;
import io.strata.storage.data.GenericRow;
import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.format.DataFileWriter;
import io.strata.storage.format.FileFormatConfig;
import io.strata.storage.format.FileSource;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TableModel.Mode;
import io.strata.storage.testutil.TestTables;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pre-merged rows whose ordering state is of layout 1 or 2, byte for byte as the writers before
 * layout 3 wrote them ({@link OrderingStateTest} keeps the bytes), committed to an ordered table:
 * rows written after them, late ones included, merge by the orderings those states name, so the
 * table reads as the model of the rows they were merged from followed by the later rows, before
 * and after a full compaction.
 */
class EarlierOrderingStatesTableTest {
    @TempDir
    Path dir;

    private static GenericRow row(Object... v) {
        return new GenericRow(RowKind.INSERT, v);
    }

    /**
     * Creates a table of {@code mode}, commits {@code preMerged} (with {@code stateHex}, sequence
     * {@code seq}) as an earlier writer's file, writes {@code later}, and checks the table against
     * the model of {@code mergedFrom} followed by {@code later}.
     */
    private void check(
            Mode mode,
            List<GenericRow> mergedFrom,
            Object[] preMerged,
            long seq,
            String stateHex,
            List<GenericRow> later)
            throws IOException {
        Map<String, String> options = new HashMap<>(TableModel.options(mode));
        options.put("write-only", "true");
        FileStoreTable t = Catalog.open(dir.resolve("wh").toString())
                .createTable("db", mode.name().toLowerCase(), TestTables.modelSchema(false, 1, options));
        BucketId bucket = BucketId.of(new Object[0], 0);
        DataFileWriter w = DataFileWriter.durableOnFinish(
                        t.fileIO(),
                        t.schema(),
                        new FileFormatConfig(new Configuration(), t.schema().tableOptions()),
                        Clock.systemUTC())
                .create(t.context().bucketPaths(bucket).newPath("data"), 0, FileSource.APPEND);
        w.write(new KeyValue(seq, RowKind.INSERT, preMerged, HexFormat.of().parseHex(stateHex)));
        DataFileMeta meta = w.finish();
        try (TableCommit c = t.newCommit("earlier")) {
            c.commit(1, List.of(CommitMessage.append(new Object[0], 0, 1, List.of(meta))));
        }
        TableModel model = new TableModel(mode);
        mergedFrom.forEach(model::apply);
        assertThat(TableModel.toContents(TestTables.scan(t)))
                .as("%s: the earlier row alone", mode)
                .isEqualTo(model.contents());
        try (TableWrite write = t.newWrite("u");
                TableCommit c = t.newCommit("u")) {
            for (GenericRow r : later) {
                write.write(r);
                model.apply(r);
            }
            c.commit(1, write.prepareCommit());
        }
        assertThat(TableModel.toContents(TestTables.scan(t)))
                .as("%s: with later rows", mode)
                .isEqualTo(model.contents());
        t.newCompactor().compact(CompactStrategy.FULL, "compactor", 1);
        assertThat(TableModel.toContents(TestTables.scan(t)))
                .as("%s: after a full compaction", mode)
                .isEqualTo(model.contents());
    }

    @Test
    void aggregationRowOfLayoutOne() throws IOException {
        // a sum, b first_value, c last_value, d count, e last_non_null_value, ts max; p, id, a, b, c, d, e, ts
        check(
                Mode.AGGREGATION_SEQUENCE_FIELD,
                List.of(row(0, 1, 1L, 10, "c5", 1L, 5.0, 5L), row(0, 1, 2L, 20, "c3", null, 3.0, 3L)),
                new Object[] {0, 1, 3L, 20, "c5", 1L, 5.0, 5L},
                1,
                OrderingStateTest.LAYOUT_ONE_AGGREGATION,
                List.of(
                        row(0, 1, 4L, 40, "c4", 1L, 4.0, 4L), // between: changes a, d only
                        row(0, 1, 1L, 2, "c2", null, null, 2L), // lowest: b
                        row(0, 1, null, 6, "c6", null, null, 6L))); // highest: c, not e
    }

    @Test
    void sequenceGroupRowOfLayoutTwo() throws IOException {
        // group (ts, d): a last_non_null_value, b first_non_null_value, c first_value, e last_value
        check(
                Mode.PARTIAL_UPDATE_SEQUENCE_GROUP_FUNCTIONS,
                List.of(
                        row(0, 1, 1L, null, "c5", 0L, 5.0, 5L),
                        row(0, 1, null, 20, null, 0L, 9.0, 9L),
                        row(0, 1, 3L, 30, "c7", 0L, 7.0, 7L)),
                new Object[] {0, 1, 3L, 30, "c5", 0L, 9.0, 9L},
                2,
                OrderingStateTest.LAYOUT_TWO_GROUP_MEMBERS,
                List.of(
                        row(0, 1, 8L, 80, "c8", 0L, 8.0, 8L), // between 7 and 9: a
                        row(0, 1, null, 60, "c6", 0L, 6.0, 6L), // between 5 and 7: b
                        row(0, 1, null, null, "c4", 0L, 4.0, 4L))); // lowest: c
    }
}
