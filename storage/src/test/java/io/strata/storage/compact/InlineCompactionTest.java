package io.strata.storage.compact;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.snapshot.CommitKind;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.table.system.BucketsTable;
import io.strata.storage.table.system.SnapshotsTable;
import io.strata.storage.testutil.LsmInvariants;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TableModel.Mode;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A writer that is not write-only keeps every bucket's sorted runs bounded by compacting inline. */
class InlineCompactionTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(
            value = Mode.class,
            names = {"DEDUPLICATE", "PARTIAL_UPDATE_REMOVE", "AGGREGATION"})
    void sortedRunsStayBoundedAndTheTableEqualsTheModel(Mode mode) {
        Map<String, String> options = new HashMap<>(TableModel.options(mode));
        options.put("num-sorted-run.compaction-trigger", "3");
        options.put("num-sorted-run.stop-trigger", "5");
        FileStoreTable t =
                Catalog.open(dir.toString()).createTable("db", "t", TestTables.modelSchema(false, 2, options));
        TableModel model = new TableModel(mode);
        Random rnd = new Random(9);
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            for (int commit = 1; commit <= 40; commit++) {
                for (int i = 0; i < 50; i++) {
                    GenericRow r = TableModel.randomRow(rnd, 80);
                    w.write(r);
                    model.apply(r);
                }
                c.commit(commit, w.prepareCommit());
                for (BucketsTable.BucketRow b : BucketsTable.rows(t, null)) {
                    assertThat(b.sortedRuns)
                            .as("bucket %d after commit %d", b.bucket, commit)
                            .isLessThanOrEqualTo(6);
                }
                assertThat(TableModel.toContents(TestTables.scan(t))).isEqualTo(model.contents());
            }
        }
        LsmInvariants.check(t);
        LsmInvariants.checkRowCounts(t);
        assertThat(SnapshotsTable.rows(t)).extracting(s -> s.commitKind()).contains(CommitKind.COMPACT);
    }
}
