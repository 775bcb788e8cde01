package io.strata.compaction.maintenance;

import io.strata.compaction.job.ProcessRelease;
import io.strata.storage.fs.FileIO;
import io.strata.storage.maintenance.BulkDelete;
import io.strata.storage.maintenance.BulkListing;
import io.strata.storage.maintenance.OrphanFilesClean;
import io.strata.storage.maintenance.TableFile;
import io.strata.storage.table.FileStoreTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.util.Collector;
import org.apache.hadoop.fs.Path;

/**
 * Works on the tasks of one subtask, chained to the source: deletes a task's files through the
 * engine's deleter (in pages, on {@code maintenance.delete-threads} threads, at most this
 * subtask's share of the run's deletes a second), or walks a task's directory with orphan
 * cleanup's own walk. A failure is sent back as an outcome rather than failing the job, so the
 * driver learns everything that was deleted; after a failed delete the subtask deletes nothing
 * more (as the engine's deleter stops after a failure) and a rerun finishes.
 */
final class FileTaskOperator extends RichFlatMapFunction<FileTask, TaskOutcome> {
    private static final long serialVersionUID = 1L;

    private final TableOpener opener;
    private final boolean delete;
    /** This subtask's share of the deletes a second; null for no bound. */
    private final Double deletesPerSecond;

    private transient FileStoreTable table;
    private transient boolean failed;

    private FileTaskOperator(TableOpener opener, boolean delete, Double deletesPerSecond) {
        this.opener = opener;
        this.delete = delete;
        this.deletesPerSecond = deletesPerSecond;
    }

    static FileTaskOperator deleting(TableOpener opener, Double deletesPerSecond) {
        return new FileTaskOperator(opener, true, deletesPerSecond);
    }

    static FileTaskOperator listing(TableOpener opener) {
        return new FileTaskOperator(opener, false, null);
    }

    @Override
    public void open(OpenContext context) {
        ProcessRelease.register(getRuntimeContext());
        table = opener.open();
    }

    @Override
    public void flatMap(FileTask task, Collector<TaskOutcome> out) {
        if (delete) {
            delete(task, out);
        } else {
            list(task, out);
        }
    }

    private void delete(FileTask task, Collector<TaskOutcome> out) {
        if (failed) {
            return;
        }
        List<TableFile> files = new ArrayList<>(task.paths.length);
        for (int i = 0; i < task.paths.length; i++) {
            files.add(new TableFile(TableFile.Kind.valueOf(task.kinds[i]), task.paths[i], task.sizes[i]));
        }
        BulkDelete deleter = deletesPerSecond == null
                ? BulkDelete.local(table.context())
                : BulkDelete.local(table.context(), deletesPerSecond);
        List<TableFile> deleted = new ArrayList<>();
        String failure = null;
        try {
            deleter.delete(files, deleted);
        } catch (RuntimeException e) {
            failed = true;
            failure = e.getMessage() != null ? e.getMessage() : e.toString();
        }
        for (TableFile f : deleted) {
            TaskOutcome o = TaskOutcome.of(task.index, TaskOutcome.DELETED, f.path(), null);
            o.kind = f.kind().name();
            o.size = f.size();
            out.collect(o);
        }
        if (failure != null) {
            out.collect(TaskOutcome.of(task.index, TaskOutcome.FAILED, null, failure));
        }
    }

    private void list(FileTask task, Collector<TaskOutcome> out) {
        String dir = task.paths[0];
        BulkListing.Listed listed;
        try {
            listed = OrphanFilesClean.listTree(table.context(), new Path(dir));
        } catch (IOException | RuntimeException e) {
            out.collect(TaskOutcome.of(
                    task.index,
                    TaskOutcome.FAILED,
                    dir,
                    "table " + table.name() + ": cannot list " + dir + ": " + e.getMessage()));
            return;
        }
        for (FileIO.FileEntry e : listed.files()) {
            TaskOutcome o =
                    TaskOutcome.of(task.index, TaskOutcome.LISTED, e.path().toString(), null);
            o.size = e.length();
            o.modificationTime = e.modificationTime();
            out.collect(o);
        }
        for (String r : listed.refused()) {
            out.collect(TaskOutcome.of(task.index, TaskOutcome.REFUSED, null, r));
        }
    }
}
