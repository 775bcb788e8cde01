package io.strata.compaction.maintenance;

import io.strata.storage.fs.FileIO;
import io.strata.storage.maintenance.BulkDelete;
import io.strata.storage.maintenance.BulkListing;
import io.strata.storage.maintenance.TableFile;
import io.strata.storage.options.ExpireOptions;
import io.strata.storage.table.FileStoreTable;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.apache.hadoop.fs.Path;

/**
 * Expiration's file deletion and orphan cleanup's listing and deletion as Flink batch jobs, for
 * tables whose file counts outgrow one process: plugged into the engine's operations
 * ({@code SnapshotExpiration.deletingWith}, {@code OrphanFilesClean.runningWith}), which keep
 * deciding what goes, in which order, and check what comes back. Each call is one bounded job:
 * its tasks (pages of files to delete, or one directory to walk) are handed to {@code
 * parallelism} subtasks as they ask, every result is collected back to this driver, and the job
 * is gone when the call returns. A subtask deletes at most its share of the run's {@code
 * maintenance.deletes-per-second}, so the job as a whole stays under it.
 *
 * <p>The job does not restart: a failed job fails the call with its cause, and what it deleted by
 * then is not in the run's report; a rerun of the operation finishes the work. A failed delete or
 * listing inside a task does not fail the job; it comes back as an outcome and fails the call,
 * after what was deleted is reported.
 */
public final class FlinkMaintenance implements BulkDelete, BulkListing {
    /** Files one task deletes (ten of the deleter's pages). */
    static final int FILES_PER_TASK = 1_000;

    private final TableOpener opener;
    private final String table;
    private final int parallelism;
    private final int filesPerTask;
    private final Integer deletesPerSecond;
    private final IntFunction<StreamExecutionEnvironment> environment;

    /**
     * @param environment the environment for a job of the given parallelism: where it runs
     */
    public FlinkMaintenance(TableOpener opener, int parallelism, IntFunction<StreamExecutionEnvironment> environment) {
        this(opener, parallelism, FILES_PER_TASK, environment);
    }

    FlinkMaintenance(
            TableOpener opener,
            int parallelism,
            int filesPerTask,
            IntFunction<StreamExecutionEnvironment> environment) {
        FileStoreTable t = opener.open();
        if (parallelism < 1) {
            throw new IllegalArgumentException(
                    "table " + t.name() + ": the parallelism of maintenance must be at least 1, got " + parallelism);
        }
        this.opener = opener;
        this.table = t.name();
        this.parallelism = parallelism;
        this.filesPerTask = filesPerTask;
        this.deletesPerSecond = t.schema().tableOptions().get(ExpireOptions.DELETES_PER_SECOND);
        if (deletesPerSecond != null && deletesPerSecond < 1) {
            throw new IllegalArgumentException("table " + table + ": " + ExpireOptions.DELETES_PER_SECOND.key()
                    + " must be at least 1, got " + deletesPerSecond);
        }
        this.environment = environment;
    }

    /** Jobs on an embedded Flink: a local MiniCluster started for each job and shut down with it. */
    public static FlinkMaintenance embedded(TableOpener opener, int parallelism) {
        return new FlinkMaintenance(
                opener, parallelism, p -> StreamExecutionEnvironment.createLocalEnvironment(p, new Configuration()));
    }

    /**
     * Jobs submitted to the Flink cluster whose REST endpoint is {@code host:port}, with
     * {@code jobJar} (the shaded job jar) uploaded with each; null when the cluster has the job's
     * classes already.
     */
    public static FlinkMaintenance onCluster(TableOpener opener, int parallelism, String host, int port, File jobJar) {
        if (jobJar != null && !jobJar.isFile()) {
            throw new IllegalArgumentException("job jar " + jobJar + " does not exist (build it with mvn package)");
        }
        String[] jars = jobJar == null ? new String[0] : new String[] {jobJar.getAbsolutePath()};
        return new FlinkMaintenance(
                opener,
                parallelism,
                p -> StreamExecutionEnvironment.createRemoteEnvironment(host, port, new Configuration(), jars));
    }

    @Override
    public void delete(List<TableFile> files, List<TableFile> deleted) {
        List<FileTask> tasks = new ArrayList<>();
        for (int from = 0; from < files.size(); from += filesPerTask) {
            List<TableFile> page = files.subList(from, Math.min(files.size(), from + filesPerTask));
            String[] paths = new String[page.size()];
            String[] kinds = new String[page.size()];
            long[] sizes = new long[page.size()];
            for (int i = 0; i < page.size(); i++) {
                paths[i] = page.get(i).path();
                kinds[i] = page.get(i).kind().name();
                sizes[i] = page.get(i).size();
            }
            tasks.add(new FileTask(tasks.size(), paths, kinds, sizes));
        }
        if (tasks.isEmpty()) {
            return;
        }
        int p = Math.min(parallelism, tasks.size());
        Double share = deletesPerSecond == null ? null : deletesPerSecond.doubleValue() / p;
        List<TaskOutcome> outcomes;
        try {
            outcomes = run(
                    "delete " + files.size() + " files",
                    "what it deleted is not in this run's report, and a rerun deletes the rest",
                    tasks,
                    p,
                    FileTaskOperator.deleting(opener, share));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> failures = new ArrayList<>();
        for (TaskOutcome o : outcomes) {
            if (TaskOutcome.DELETED.equals(o.type)) {
                deleted.add(new TableFile(TableFile.Kind.valueOf(o.kind), o.path, o.size));
            } else if (TaskOutcome.FAILED.equals(o.type)) {
                failures.add(o.note);
            }
        }
        if (!failures.isEmpty()) {
            throw new UncheckedIOException(new IOException(failures.get(0)
                    + (failures.size() > 1 ? " (and " + (failures.size() - 1) + " more failed subtasks)" : "")));
        }
    }

    @Override
    public List<Listed> list(List<Path> dirs) throws IOException {
        List<FileTask> tasks = new ArrayList<>(dirs.size());
        for (Path dir : dirs) {
            tasks.add(new FileTask(tasks.size(), new String[] {dir.toString()}, null, null));
        }
        if (tasks.isEmpty()) {
            return List.of();
        }
        List<List<FileIO.FileEntry>> files = new ArrayList<>();
        List<List<String>> refused = new ArrayList<>();
        for (int i = 0; i < dirs.size(); i++) {
            files.add(new ArrayList<>());
            refused.add(new ArrayList<>());
        }
        List<TaskOutcome> outcomes = run(
                "list " + dirs.size() + " directories",
                "nothing was deleted",
                tasks,
                Math.min(parallelism, tasks.size()),
                FileTaskOperator.listing(opener));
        for (TaskOutcome o : outcomes) {
            if (o.index < 0 || o.index >= dirs.size()) {
                throw new IOException("table " + table + ": the listing job returned a result of task " + o.index
                        + " of " + dirs.size());
            }
            switch (o.type) {
                case TaskOutcome.LISTED:
                    files.get(o.index).add(new FileIO.FileEntry(new Path(o.path), o.size, false, o.modificationTime));
                    break;
                case TaskOutcome.REFUSED:
                    refused.get(o.index).add(o.note);
                    break;
                case TaskOutcome.FAILED:
                    throw new IOException(o.note);
                default:
                    throw new IOException("table " + table + ": the listing job returned a " + o.type);
            }
        }
        List<Listed> out = new ArrayList<>(dirs.size());
        for (int i = 0; i < dirs.size(); i++) {
            out.add(new Listed(files.get(i), refused.get(i)));
        }
        return out;
    }

    /**
     * Runs one job over {@code tasks} and returns every outcome, each task's in the order its
     * subtask produced them.
     *
     * @throws IOException naming the table and the job when the job fails
     */
    private List<TaskOutcome> run(
            String what, String consequence, List<FileTask> tasks, int p, FileTaskOperator operator)
            throws IOException {
        String name = "strata maintenance: " + what + " of " + table;
        StreamExecutionEnvironment env = environment.apply(p);
        Configuration conf = new Configuration();
        // a restarted attempt would send back again what the failed one sent; the operation's rerun finishes instead
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        env.configure(conf);
        env.setParallelism(p);
        DataStream<TaskOutcome> outcomes = env.fromSource(
                        new FileTaskSource(tasks), WatermarkStrategy.noWatermarks(), "tasks")
                .setParallelism(p)
                .flatMap(operator)
                .name(what)
                .setParallelism(p);
        List<TaskOutcome> out = new ArrayList<>();
        try (CloseableIterator<TaskOutcome> it = outcomes.executeAndCollect(name)) {
            it.forEachRemaining(out::add);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IOException(
                    "table " + table + ": the Flink job '" + name + "' failed (" + consequence + "): " + rootMessage(e),
                    e);
        }
        return out;
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + root + ")";
    }
}
