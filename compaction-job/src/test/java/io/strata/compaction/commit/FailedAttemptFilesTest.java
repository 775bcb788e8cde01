package io.strata.compaction.commit;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.compaction.job.JobTables;
import io.strata.compaction.rewrite.BucketRewrite;
import io.strata.compaction.rewrite.CompactionCommittable;
import io.strata.compaction.source.CompactionWork;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.BucketId;
import io.strata.storage.data.GenericRow;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.options.FileOptions;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Only unreferenced files of this job's earlier attempts are removed. */
class FailedAttemptFilesTest {
    @TempDir
    Path dir;

    @Test
    void removesUncommittedFilesOfEarlierAttemptsOnly() throws Exception {
        FileStoreTable base = Catalog.open(dir.toString())
                .createTable("db", "t", TestTables.modelSchema(false, 1, Map.of("write-only", "true")));
        TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
        Random rnd = new Random(41);
        try (TableWrite w = base.newWrite("w");
                TableCommit c = base.newCommit("w")) {
            for (int i = 0; i < 4; i++) {
                for (int r = 0; r < 50; r++) {
                    GenericRow row = TableModel.randomRow(rnd, 60);
                    model.apply(row);
                    w.write(row);
                }
                c.commit(i + 1, w.prepareCommit());
            }
        }
        String user = "job-user";
        // attempt 0 commits one result, and leaves another uncommitted (it failed before its checkpoint)
        FileStoreTable a0 = handle(base, user, 0);
        CompactionCommittable committed =
                BucketRewrite.run(a0, fullOfBucket0(a0)).orElseThrow();
        CompactionCommittable lost = BucketRewrite.run(a0, fullOfBucket0(a0)).orElseThrow();
        // attempt 1 is writing a result right now (planned before attempt 0's result was committed)
        CompactionCommittable running =
                BucketRewrite.run(handle(base, user, 1), fullOfBucket0(base)).orElseThrow();
        try (TableCommit c = a0.newCommit(user)) {
            c.commit(1, List.of(committed.commitMessage()));
        }

        int removed = FailedAttemptFiles.remove(base, user, 1);

        assertThat(removed).isEqualTo(lost.commitMessage().compactAfter().size());
        lost.commitMessage()
                .compactAfter()
                .forEach(f -> assertThat(exists(base, f)).isFalse());
        committed
                .commitMessage()
                .compactAfter()
                .forEach(f -> assertThat(exists(base, f)).isTrue());
        running.commitMessage()
                .compactAfter()
                .forEach(f -> assertThat(exists(base, f))
                        .as("the current attempt's file %s", f.fileName())
                        .isTrue());
        assertThat(FailedAttemptFiles.remove(base, "another-job", 5))
                .as("other jobs' files are not ours")
                .isZero();
        assertThat(TableModel.toContents(TestTables.scan(base))).isEqualTo(model.contents());
    }

    /** A full compaction of bucket 0 planned from the latest snapshot. */
    private static CompactionWork fullOfBucket0(FileStoreTable t) {
        return new CompactionWork(
                t.name(),
                BucketId.of(new Object[0], 0),
                t.snapshotManager().latestId().getAsLong(),
                CompactStrategy.FULL);
    }

    private static FileStoreTable handle(FileStoreTable t, String user, int attempt) {
        return t.copyWithOptions(Map.of(
                "write-only",
                "false",
                FileOptions.DATA_FILE_PREFIX.key(),
                JobTables.filePrefix(user, attempt) + "-data",
                FileOptions.CHANGELOG_FILE_PREFIX.key(),
                JobTables.filePrefix(user, attempt) + "-changelog"));
    }

    private static boolean exists(FileStoreTable t, DataFileMeta f) {
        return Files.exists(Path.of(t.paths().dataFile("", 0, f.fileName()).toUri()));
    }
}
