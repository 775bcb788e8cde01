package io.strata.storage.table.system;

import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.snapshot.SnapshotManager;
import io.strata.storage.table.FileStoreTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** Like Paimon's {@code $snapshots}: every retained snapshot, oldest first. */
public final class SnapshotsTable {
    private SnapshotsTable() {}

    public static List<Snapshot> rows(FileStoreTable table) {
        SnapshotManager sm = table.snapshotManager();
        List<Snapshot> out = new ArrayList<>();
        try {
            for (long id : sm.listIds()) {
                out.add(sm.snapshot(id));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("table " + table.name() + ": cannot list snapshots: " + e.getMessage(), e);
        }
        return out;
    }
}
