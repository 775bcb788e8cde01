package io.strata.storage.compact;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.LsmInvariants;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TableModel.Mode;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Compaction never changes what a table means, whatever the schedule. */
class CompactionScheduleTest {
    @TempDir
    Path dir;

    private int tables;

    private enum Schedule {
        NEVER,
        MINOR_AFTER_EVERY_COMMIT,
        FULL_AT_RANDOM_POINTS,
        LOOKUP_AFTER_EVERY_COMMIT
    }

    private List<List<Object>> run(Mode mode, List<List<GenericRow>> commits, Schedule schedule, long seed) {
        Map<String, String> options = new HashMap<>(TableModel.options(mode));
        options.put("num-sorted-run.compaction-trigger", "3");
        options.put("write-only", "true"); // compaction only on the schedule under test
        options.put("target-file-size", "8 kb");
        options.put("sort-spill-threshold", "3");
        FileStoreTable t = Catalog.open(dir.toString())
                .createTable("db", "t" + (tables++), TestTables.modelSchema(false, 2, options));
        Random rnd = new Random(seed);
        TableCompactor compactor = t.newCompactor();
        long compactions = 0;
        try (TableWrite w = t.newWrite("u");
                TableCommit c = t.newCommit("u")) {
            long id = 0;
            for (List<GenericRow> rows : commits) {
                rows.forEach(w::write);
                c.commit(++id, w.prepareCommit());
                switch (schedule) {
                    case MINOR_AFTER_EVERY_COMMIT:
                        compactor.compact(CompactStrategy.MINOR, "compactor", ++compactions);
                        break;
                    case LOOKUP_AFTER_EVERY_COMMIT:
                        compactor.compact(CompactStrategy.LOOKUP, "compactor", ++compactions);
                        break;
                    case FULL_AT_RANDOM_POINTS:
                        if (rnd.nextInt(4) == 0) {
                            compactor.compact(CompactStrategy.FULL, "compactor", ++compactions);
                        }
                        break;
                    default:
                        break;
                }
            }
        }
        LsmInvariants.check(t);
        List<List<Object>> out = new ArrayList<>();
        TableModel.toContents(TestTables.scan(t)).forEach((k, v) -> out.add(v));
        return out;
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void everyScheduleGivesTheSameTable(Mode mode) {
        Random rnd = new Random(500 + mode.ordinal());
        List<List<GenericRow>> commits = new ArrayList<>();
        TableModel model = new TableModel(mode);
        for (int c = 0; c < 14; c++) {
            List<GenericRow> rows = new ArrayList<>();
            for (int i = 0, n = rnd.nextInt(60); i < n; i++) {
                GenericRow r = TableModel.randomRow(rnd, 25);
                rows.add(r);
                model.apply(r);
            }
            commits.add(rows);
        }
        List<List<Object>> expected = new ArrayList<>(model.contents().values());
        for (Schedule s : Schedule.values()) {
            assertThat(run(mode, commits, s, 7)).as("schedule %s", s).isEqualTo(expected);
        }
    }

    /**
     * A full compaction drops deletes at the top level; under sequence.field that must not let a
     * late row with an older ordering value resurrect the key: the delete stays as a tombstone.
     */
    @Test
    void droppedDeleteDoesNotLetALateOlderRowResurrectTheKey() {
        FileStoreTable t = Catalog.open(dir.toString())
                .createTable(
                        "db",
                        "seq",
                        TestTables.modelSchema(false, 1, TableModel.options(Mode.DEDUPLICATE_SEQUENCE_FIELD)));
        try (TableWrite w = t.newWrite("u");
                TableCommit c = t.newCommit("u")) {
            w.write(new GenericRow(RowKind.INSERT, 0, 1, 1L, 1, "v10", null, null, 10L));
            c.commit(1, w.prepareCommit());
            w.write(new GenericRow(RowKind.DELETE, 0, 1, null, null, null, null, null, 20L));
            c.commit(2, w.prepareCommit());
            t.newCompactor().compact(CompactStrategy.FULL, "compactor", 1);
            assertThat(TestTables.scan(t)).isEmpty();
            w.write(new GenericRow(RowKind.INSERT, 0, 1, 2L, 2, "late", null, null, 15L));
            c.commit(3, w.prepareCommit());
        }
        assertThat(TestTables.scan(t))
                .as("ts 15 is older than the delete at ts 20")
                .isEmpty();
        t.newCompactor().compact(CompactStrategy.FULL, "compactor", 2);
        assertThat(TestTables.scan(t)).isEmpty();
    }
}
