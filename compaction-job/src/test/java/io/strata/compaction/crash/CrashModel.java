package io.strata.compaction.crash;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.data.GenericRow;
import io.strata.storage.maintenance.TableFiles;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.testutil.LsmInvariants;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TestTables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a table written by {@link CrashChild}'s writer must hold: commit {@code n} of the writer is
 * {@link #rows(long) rows(n)}, whatever process wrote it, so the contents after commit {@code n}
 * are the model after applying commits 1 to n; a compaction's snapshot holds what the writer's
 * snapshot before it held.
 */
final class CrashModel {
    static final String WRITER = "crash-writer";
    static final int KEYS = 300;
    static final int ROWS_PER_COMMIT = 40;

    /** Aggressive retention for the expiration runs. */
    static final Map<String, String> EXPIRE = Map.of(
            "snapshot.num-retained.min", "3",
            "snapshot.num-retained.max", "6",
            "snapshot.time-retained", "0 s");

    /** A killed writer's registration stops protecting its files after a second. */
    static final Map<String, String> SHORT_HEARTBEAT = Map.of("orphan-clean.writer-heartbeat-timeout", "1 s");

    private CrashModel() {}

    /** The rows of the writer's commit {@code identifier}: the same in every process. */
    static List<GenericRow> rows(long identifier) {
        Random rnd = new Random(0x5eed0000L + identifier);
        List<GenericRow> out = new ArrayList<>(ROWS_PER_COMMIT);
        for (int i = 0; i < ROWS_PER_COMMIT; i++) {
            out.add(TableModel.randomRow(rnd, KEYS));
        }
        return out;
    }

    /** The writer's last committed identifier (0 if none), read from the snapshots, as a restarted writer does. */
    static long lastCommitted(FileStoreTable t) {
        OptionalLong latest = t.snapshotManager().latestId();
        OptionalLong earliest = t.snapshotManager().earliestId();
        if (latest.isEmpty()) {
            return 0;
        }
        for (long id = latest.getAsLong(); id >= earliest.getAsLong(); id--) {
            Snapshot s = t.snapshotManager().snapshot(id);
            if (s.commitUser().equals(WRITER)) {
                return s.commitIdentifier();
            }
        }
        throw new AssertionError(
                "no retained snapshot of " + WRITER + " in " + t.name() + " (expiration keeps at least the latest)");
    }

    static Map<List<Object>, List<Object>> contentsAfter(long identifier) {
        TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
        for (long id = 1; id <= identifier; id++) {
            rows(id).forEach(model::apply);
        }
        return model.contents();
    }

    /**
     * The checks after every kill: every retained snapshot reads and holds the model after the
     * writer's commit it contains; the writer's commits are 1..n without a gap or repeat (each
     * identifier in one snapshot); the LSM shape is valid; every file a retained snapshot, kept
     * changelog or tag references is on disk.
     *
     * @return the writer's last committed identifier
     */
    static long check(FileStoreTable t, String where) {
        long earliest = t.snapshotManager().earliestId().orElse(1);
        long latest = t.snapshotManager().latestId().orElse(0);
        TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
        long applied = 0;
        Set<Long> identifiers = new TreeSet<>();
        long firstWriterIdentifier = -1;
        for (long id = earliest; id <= latest; id++) {
            Snapshot s = t.snapshotManager().snapshot(id);
            if (s.commitUser().equals(WRITER)) {
                assertThat(identifiers.add(s.commitIdentifier()))
                        .as("%s: writer commit %d published once (snapshot %d)", where, s.commitIdentifier(), id)
                        .isTrue();
                if (firstWriterIdentifier < 0) {
                    firstWriterIdentifier = s.commitIdentifier();
                } else {
                    assertThat(s.commitIdentifier())
                            .as("%s: the writer's commits follow each other (snapshot %d)", where, id)
                            .isEqualTo(applied + 1);
                }
                for (long i = applied + 1; i <= s.commitIdentifier(); i++) {
                    rows(i).forEach(model::apply);
                }
                applied = s.commitIdentifier();
            } else if (firstWriterIdentifier < 0) {
                // a compaction before the first retained writer snapshot: the writer commit it follows
                // expired, so what it must hold is unknown here (the next writer snapshot is checked)
                continue;
            }
            Map<List<Object>, List<Object>> actual =
                    TableModel.toContents(TestTables.scan(t.newReadBuilder().withSnapshot(id)));
            assertThat(actual)
                    .as(
                            "%s: snapshot %d (%s by %s) holds the model after writer commit %d",
                            where, id, s.commitKind(), s.commitUser(), applied)
                    .isEqualTo(model.contents());
        }
        LsmInvariants.check(t);
        Set<String> missing = new TreeSet<>(TableFiles.referenced(t));
        missing.removeAll(TableFiles.onDisk(t));
        assertThat(missing).as("%s: referenced files missing", where).isEmpty();
        return applied;
    }
}
