package io.strata.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.Rows;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongConsumer;

/**
 * The write, commit and time-travel flow the file-system suites share, on a table (id BIGINT
 * primary key, v STRING): {@link #COMMITS} commits of {@link #ROWS_PER_COMMIT} inserts and deletes
 * over 30 keys, each commit a snapshot of its own.
 */
final class FiveCommits {
    static final int COMMITS = 5;
    static final int ROWS_PER_COMMIT = 20;

    private FiveCommits() {}

    /**
     * Writes and commits them (commit user "job", identifiers 1..5), calling {@code afterCommit}
     * with each published snapshot id; returns the expected contents (id -> [v]) per snapshot.
     */
    static Map<Long, Map<Long, List<Object>>> write(FileStoreTable table, LongConsumer afterCommit) {
        Map<Long, Map<Long, List<Object>>> expectedAt = new HashMap<>();
        Map<Long, List<Object>> model = new TreeMap<>();
        try (TableWrite w = table.newWrite("job");
                TableCommit c = table.newCommit("job")) {
            for (int commit = 1; commit <= COMMITS; commit++) {
                for (long k = 0; k < ROWS_PER_COMMIT; k++) {
                    long key = (k * 7 + commit * 3) % 30;
                    if ((k + commit) % 5 == 0) {
                        w.write(GenericRow.delete(key, null));
                        model.remove(key);
                    } else {
                        String v = "c" + commit + "k" + key;
                        w.write(GenericRow.insert(key, v));
                        model.put(key, List.of(v));
                    }
                }
                assertThat(c.commit(commit, w.prepareCommit())).containsExactly((long) commit);
                expectedAt.put((long) commit, new TreeMap<>(model));
                afterCommit.accept(commit);
            }
        }
        assertThat(model).isNotEmpty();
        assertThat(expectedAt.get(2L)).isNotEqualTo(expectedAt.get(5L));
        return expectedAt;
    }

    /** {@code reader} (another client's handle) sees every snapshot as written, and the last as latest. */
    static void assertTimeTravel(FileStoreTable reader, Map<Long, Map<Long, List<Object>>> expectedAt) {
        assertThat(reader.snapshotManager().latestId()).hasValue(COMMITS);
        assertThat(Rows.byKey(Rows.readAll(reader.newReadBuilder()))).isEqualTo(expectedAt.get((long) COMMITS));
        for (long id = 1; id <= COMMITS; id++) {
            assertThat(Rows.byKey(Rows.readAll(reader.newReadBuilder().withSnapshot(id))))
                    .as("time travel to snapshot %s", id)
                    .isEqualTo(expectedAt.get(id));
        }
    }
}
