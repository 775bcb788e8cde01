package io.strata.storage.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import io.strata.storage.fs.FailingDurabilityFileIO;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data file that cannot be made durable fails its commit before any snapshot names it, even
 * though the force is awaited beside the manifest writing: no snapshot, none of the commit's
 * manifests left, the data files kept, and the table as it was.
 */
class DurabilityFailureTest {
    @TempDir
    Path dir;

    @Test
    void aFailedForceFailsTheCommitAndLeavesNoTrace() throws Exception {
        String wh = dir.toString();
        FileStoreTable healthy = TestTables.oneRowTable(wh);
        Path manifestDir = dir.resolve("db.db").resolve("t").resolve("manifest");
        List<Path> manifestsBefore = list(manifestDir);

        FileStoreTable failing =
                Catalog.open(wh, new FailingDurabilityFileIO(wh)).getTable("db.t");
        try (TableWrite w = failing.newWrite("w");
                TableCommit c = failing.newCommit("w")) {
            for (long k = 2; k < 200; k++) {
                w.write(new GenericRow(RowKind.INSERT, k, "v" + k));
            }
            List<CommitMessage> messages = w.prepareCommit();
            assertThatThrownBy(() -> c.commit(2, messages))
                    .isInstanceOf(CommitFailedException.class)
                    .hasMessageContaining("table db.t")
                    .hasMessageContaining("injected")
                    .hasMessageContaining("nothing was committed");
            for (CommitMessage m : messages) {
                assertThat(m.appendFiles()).isNotEmpty();
            }
        }

        assertThat(healthy.snapshotManager().latestId().getAsLong()).isEqualTo(1);
        assertThat(list(manifestDir))
                .as("the failed commit's manifests are deleted")
                .isEqualTo(manifestsBefore);
        assertThat(TestTables.scan(Catalog.open(wh).getTable("db.t"))).hasSize(1);
        try (Stream<Path> files = Files.walk(dir.resolve("db.db").resolve("t"))) {
            assertThat(files.filter(p -> p.getFileName().toString().startsWith("data-"))
                            .count())
                    .as("data files are never deleted by a failed commit")
                    .isGreaterThan(1);
        }
    }

    private static List<Path> list(Path d) throws Exception {
        try (Stream<Path> s = Files.list(d)) {
            return s.sorted().toList();
        }
    }
}
