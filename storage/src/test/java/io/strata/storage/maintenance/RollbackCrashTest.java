package io.strata.storage.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Crashes at every call of a rollback to a snapshot and of one that restores a tag ({@link MaintenanceCrashSupport}). */
class RollbackCrashTest extends MaintenanceCrashSupport {
    @Test
    void aCrashAtAnyCallOfARollbackToASnapshotLeavesTheTableReadableAndARerunFinishes() throws Exception {
        Path template = template("rollback", false);
        int crashed = crashAtEveryCall(template, t -> t.newRollback().toSnapshot(3), t -> {
            assertThat(t.snapshotManager().latestId().getAsLong()).isEqualTo(3);
            assertThat(TableModel.toContents(TestTables.scan(t))).isEqualTo(contentsAt.get(3L));
        });
        assertThat(crashed).isGreaterThan(5);
    }

    @Test
    void aCrashAtAnyCallOfARollbackThatRestoresATagLeavesTheTableReadableAndARerunFinishes() throws Exception {
        Path template = template("restore", false);
        FileStoreTable t = Catalog.open(template.toString()).withClock(clock).getTable("db.t");
        t.copyWithOptions(RETAIN_3).newSnapshotExpiration().expire();
        long early = tagged.get("early");
        assertThat(t.snapshotManager().exists(early))
                .as("the tagged snapshot expired")
                .isFalse();
        int crashed = crashAtEveryCall(template, table -> table.newRollback().toTag("early"), table -> {
            assertThat(table.snapshotManager().latestId().getAsLong()).isEqualTo(early);
            assertThat(TableModel.toContents(TestTables.scan(table))).isEqualTo(contentsAt.get(early));
        });
        assertThat(crashed).isGreaterThan(5);
    }
}
