package io.strata.compaction.job;

import io.strata.storage.snapshot.InFlightWriter;
import io.strata.storage.table.FileStoreTable;
import java.util.HashMap;
import java.util.Map;

/**
 * The writer registrations of one operator subtask, one per table it writes to, so that orphan
 * cleanup keeps the files the subtask creates until they are committed (docs/DESIGN.md, "Orphan
 * cleanup"): a table's registration is written before the subtask's first file in it, every file is
 * named with its token, the heartbeat is renewed on the subtask's activity ({@link #renewAll} at
 * checkpoints; naming files renews when due) and the registrations are removed by {@link
 * #closeAll} when the subtask closes. No thread of its own. Not thread-safe (one operator thread).
 */
public final class JobWriters {
    private final JobTables tables;
    private final String owner;
    private final Map<String, Writing> writing = new HashMap<>();

    private record Writing(FileStoreTable handle, FileStoreTable naming, InFlightWriter writer) {}

    /** @param owner who the subtask is, for people reading the registrations: job, commit user, subtask, attempt */
    public JobWriters(JobTables tables, String owner) {
        this.tables = tables;
        this.owner = owner;
    }

    /** The job's handle on {@code name} ({@link JobTables#table}), naming new files with this subtask's registration. */
    public FileStoreTable table(String name) {
        FileStoreTable t = tables.table(name);
        Writing w = writing.get(name);
        if (w == null) {
            InFlightWriter writer = t.newInFlightWriter(owner);
            w = new Writing(t, t.withWriter(writer), writer);
            writing.put(name, w);
        } else if (w.handle != t) {
            // reopened at a newer schema: the same registration
            w = new Writing(t, t.withWriter(w.writer), w.writer);
            writing.put(name, w);
        }
        return w.naming;
    }

    /** Renews the heartbeat of every registration that is due (activity: a rewrite, a checkpoint). */
    public void renewAll() {
        writing.values().forEach(w -> w.writer.renew());
    }

    /** Removes every registration: files not committed by now are left to orphan cleanup. */
    public void closeAll() {
        writing.values().forEach(w -> w.writer.close());
        writing.clear();
    }
}
