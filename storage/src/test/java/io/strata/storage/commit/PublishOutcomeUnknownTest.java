package io.strata.storage.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import io.strata.storage.fs.LostReplyFileIO;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A publish that failed in a way the committer cannot read back (the snapshot may have been
 * published) fails the commit and deletes nothing: had the snapshot been published, deleting its
 * manifest lists or manifests would leave a committed snapshot that cannot be read.
 */
class PublishOutcomeUnknownTest {
    @TempDir
    Path dir;

    @Test
    void aPublishWhoseOutcomeCannotBeReadBackKeepsEveryFileTheSnapshotMayName() throws Exception {
        String wh = dir.toString();
        TestTables.oneRowTable(wh); // snapshot 1

        FileStoreTable lossy = Catalog.open(wh, new LostReplyFileIO(wh, 2)).getTable("db.t");
        try (TableWrite w = lossy.newWrite("w");
                TableCommit c = lossy.newCommit("w")) {
            for (long k = 2; k < 200; k++) {
                w.write(new GenericRow(RowKind.INSERT, k, "v" + k));
            }
            List<CommitMessage> messages = w.prepareCommit();
            assertThatThrownBy(() -> c.commit(2, messages))
                    .isInstanceOf(CommitFailedException.class)
                    .hasMessageContaining("table db.t")
                    .hasMessageContaining("may or may not have published snapshot 2")
                    .hasMessageContaining("files are kept");
        }

        FileStoreTable after = Catalog.open(wh).getTable("db.t");
        assertThat(after.snapshotManager().latestId().getAsLong())
                .as("the publish did happen")
                .isEqualTo(2);
        assertThat(TestTables.scan(after))
                .as("snapshot 2 is whole: its lists, manifests and data files are there")
                .hasSize(199);
        try (TableCommit c = after.newCommit("w")) {
            assertThat(c.isCommitted(2)).as("a replay of the commit is skipped").isTrue();
        }
    }
}
