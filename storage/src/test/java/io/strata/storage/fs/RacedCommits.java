package io.strata.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.snapshot.SnapshotManager;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.Rows;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;

/** What a race of committers on a Hadoop file system must leave: every commit, once. */
final class RacedCommits {
    private RacedCommits() {}

    /**
     * Races {@code committers} writers in threads from one barrier: writer p ("committer-p", its
     * own table handle from {@code table}) writes row (p, n, "committer-p#n") and commits it as
     * identifier n, n = 1..commits. Asserts that each published exactly {@code commits} snapshots
     * and that together they published ids 1..committers x commits.
     */
    static void race(Supplier<FileStoreTable> table, int committers, int commits, int timeoutSeconds) throws Exception {
        CyclicBarrier start = new CyclicBarrier(committers);
        ExecutorService pool = Executors.newFixedThreadPool(committers);
        List<Future<List<Long>>> results = new ArrayList<>();
        for (int t = 0; t < committers; t++) {
            final int p = t;
            results.add(pool.submit(() -> {
                FileStoreTable handle = table.get();
                String user = "committer-" + p;
                List<Long> ids = new ArrayList<>();
                start.await();
                try (TableWrite w = handle.newWrite(user);
                        TableCommit c = handle.newCommit(user)) {
                    for (int n = 1; n <= commits; n++) {
                        w.write(GenericRow.insert(p, (long) n, user + "#" + n));
                        ids.addAll(c.commit(n, w.prepareCommit()));
                    }
                }
                return ids;
            }));
        }
        pool.shutdown();
        List<Long> published = new ArrayList<>();
        for (Future<List<Long>> f : results) {
            List<Long> ids = f.get(timeoutSeconds, TimeUnit.SECONDS);
            assertThat(ids).as("snapshots one committer published").hasSize(commits);
            published.addAll(ids);
        }
        List<Long> expectedIds = new ArrayList<>();
        for (long i = 1; i <= (long) committers * commits; i++) {
            expectedIds.add(i);
        }
        assertThat(published).containsExactlyInAnyOrderElementsOf(expectedIds);
    }

    /**
     * After {@code committers} writers ("committer-p", each writing row (p, n, "committer-p#n") and
     * committing it as identifier n, n = 1..commits) raced: snapshot ids dense, one per (user,
     * identifier), every committed row present, and no hidden or temporary file left.
     */
    static void assertNoCommitLost(FileStoreTable table, int committers, int commits) throws Exception {
        int total = committers * commits;
        SnapshotManager sm = table.snapshotManager();
        List<Long> expectedIds = new ArrayList<>();
        for (long i = 1; i <= total; i++) {
            expectedIds.add(i);
        }
        assertThat(sm.listIds()).containsExactlyElementsOf(expectedIds);
        assertThat(sm.latestId()).hasValue(total);
        Set<String> commitsSeen = new HashSet<>();
        for (long id = 1; id <= total; id++) {
            Snapshot s = sm.snapshot(id);
            assertThat(commitsSeen.add(s.commitUser() + "#" + s.commitIdentifier()))
                    .as("(user, identifier) of snapshot %s seen before", id)
                    .isTrue();
            assertThat(s.totalRecordCount()).as("rows in snapshot %s", id).isEqualTo(id);
        }
        Set<String> rows = new HashSet<>();
        for (GenericRow r : Rows.readAll(table.newReadBuilder())) {
            rows.add(r.get(0) + "/" + r.get(1) + "/" + r.get(2));
        }
        Set<String> expectedRows = new HashSet<>();
        for (int p = 0; p < committers; p++) {
            for (int n = 1; n <= commits; n++) {
                expectedRows.add(p + "/" + n + "/committer-" + p + "#" + n);
            }
        }
        assertThat(rows).isEqualTo(expectedRows);
        FileSystem fs = ((HadoopFileIO) table.fileIO()).fileSystem();
        RemoteIterator<LocatedFileStatus> it = fs.listFiles(table.paths().root(), true);
        while (it.hasNext()) {
            assertThat(it.next().getPath().getName())
                    .as("hidden/temporary file")
                    .doesNotStartWith(".");
        }
    }
}
