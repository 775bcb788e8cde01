package io.strata.compaction.rewrite;

import io.strata.compaction.job.JobSpec;
import io.strata.compaction.job.JobTables;
import io.strata.compaction.job.JobWriters;
import io.strata.compaction.job.ProcessRelease;
import io.strata.compaction.source.CompactionWork;
import io.strata.storage.table.FileStoreTable;
import java.util.Arrays;
import java.util.Optional;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rewrites the bucket of each {@link CompactionWork} with the compaction engine and emits the
 * uncommitted result to the committer. Output files carry this attempt's prefix
 * ({@link JobTables#filePrefix}), so that files of an attempt that failed before its results were
 * committed can be found and removed later.
 *
 * <p>A bucket whose rewrite fails (a data file missing or unreadable, a write refused) becomes a
 * failure for the committer ({@link CompactionCommittable#failed}); the engine has deleted what
 * the rewrite wrote, and the other buckets go on. The committer of a batch job ends it once it has
 * committed them; a streaming job goes on without the bucket ({@code CommitOperator}).
 *
 * <p>In-flight files: per table, the subtask registers as a writer ({@link JobWriters}) before
 * its first output file, names every output with the registration's token, renews the heartbeat
 * on its rewrites and at every checkpoint (no thread of its own), and removes the registration when
 * it closes. So orphan cleanup keeps a running job's outputs, however long they wait for their
 * commit; a crashed or cancelled attempt's registration goes stale.
 *
 * <p>Metrics (operator group): rowsRead, rowsWritten, bytesRead, bytesWritten, changelogRows,
 * bucketsCompacted, staleWorks, bucketsFailed, lastRewriteMillis; per table, partition and bucket (groups {@code
 * table}, {@code partition}, {@code bucket}), for the first {@link #MAX_BUCKETS_WITH_GAUGES} buckets
 * the subtask compacts: sortedRunsBefore/After, level0FilesBefore/After of the last compaction.
 */
public final class RewriteOperator extends ProcessFunction<CompactionWork, CompactionCommittable>
        implements CheckpointedFunction {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(RewriteOperator.class);

    private final JobSpec spec;
    private transient JobTables tables;
    private transient Counter rowsRead;
    private transient Counter rowsWritten;
    private transient Counter bytesRead;
    private transient Counter bytesWritten;
    private transient Counter changelogRows;
    private transient Counter buckets;
    private transient Counter stale;
    private transient Counter failed;
    private transient volatile long lastRewriteMillis;
    /** Per-bucket gauges are registered for at most this many buckets per subtask (see {@link BucketShapes}). */
    static final int MAX_BUCKETS_WITH_GAUGES = 1024;

    private transient BucketShapes shapes;
    /** The registrations of this subtask's outputs, and the handles naming files with them. */
    private transient JobWriters writers;

    private transient boolean warnedUntracked;

    public RewriteOperator(JobSpec spec) {
        this.spec = spec;
    }

    @Override
    public void open(OpenContext openContext) {
        ProcessRelease.register(getRuntimeContext());
        tables = new JobTables(spec, getRuntimeContext().getTaskInfo().getAttemptNumber());
        MetricGroup g = getRuntimeContext().getMetricGroup();
        rowsRead = g.counter("rowsRead");
        rowsWritten = g.counter("rowsWritten");
        bytesRead = g.counter("bytesRead");
        bytesWritten = g.counter("bytesWritten");
        changelogRows = g.counter("changelogRows");
        buckets = g.counter("bucketsCompacted");
        stale = g.counter("staleWorks");
        failed = g.counter("bucketsFailed");
        g.gauge("lastRewriteMillis", () -> lastRewriteMillis);
        shapes = new BucketShapes(MAX_BUCKETS_WITH_GAUGES);
        writers = new JobWriters(
                tables,
                "compaction job " + getRuntimeContext().getJobInfo().getJobId() + " (commit user "
                        + spec.commitUser() + "), rewrite "
                        + getRuntimeContext().getTaskInfo().getTaskNameWithSubtasks() + ", attempt "
                        + getRuntimeContext().getTaskInfo().getAttemptNumber());
        tables.openSelectedQuietly();
    }

    @Override
    public void initializeState(FunctionInitializationContext context) {
        // no state: the registrations live in the tables, and a restored subtask registers anew
    }

    /** A checkpoint is activity: the heartbeat of every registration of this subtask is renewed (when due). */
    @Override
    public void snapshotState(FunctionSnapshotContext context) {
        writers.renewAll();
    }

    /** Removes this subtask's registrations: its outputs not committed by now are left to orphan cleanup. */
    @Override
    public void close() throws Exception {
        if (writers != null) {
            writers.closeAll();
        }
        super.close();
    }

    @Override
    public void processElement(CompactionWork work, Context ctx, Collector<CompactionCommittable> out) {
        FileStoreTable table = writers.table(work.table);
        Optional<CompactionCommittable> result;
        try {
            result = BucketRewrite.run(table, work);
        } catch (RuntimeException e) {
            if (Thread.currentThread().isInterrupted()) {
                throw e; // the task is being cancelled: not the bucket's failure
            }
            failed.inc();
            CompactionCommittable f = BucketRewrite.failure(table, work, e);
            LOG.error(
                    "{}: compaction failed, the bucket is left as it is ({}): {}",
                    work,
                    spec.mode() == JobSpec.Mode.BATCH
                            ? "the job fails once the other buckets are committed"
                            : "not tried again until its files change or the job restarts",
                    f.failure,
                    e);
            out.collect(f);
            return;
        }
        if (result.isEmpty()) {
            stale.inc();
            LOG.info("{}: nothing to do any more (a compaction landed first)", work);
            return;
        }
        CompactionCommittable c = result.get();
        rowsRead.inc(c.rowsRead);
        rowsWritten.inc(c.rowsWritten);
        bytesRead.inc(c.bytesRead);
        bytesWritten.inc(c.bytesWritten);
        changelogRows.inc(c.changelogRows);
        buckets.inc();
        lastRewriteMillis = c.rewriteMillis;
        registerBucketGauges(work, c);
        LOG.info(
                "{}: {} -> {} sorted runs, {} rows read, {} written, {} changelog rows in {} ms",
                work,
                c.sortedRunsBefore,
                c.sortedRunsAfter,
                c.rowsRead,
                c.rowsWritten,
                c.changelogRows,
                c.rewriteMillis);
        out.collect(c);
    }

    private void registerBucketGauges(CompactionWork work, CompactionCommittable c) {
        String key = work.bucketKey();
        BucketShapes.Recorded r = shapes.record(
                key,
                new BucketShapes.Shape(c.sortedRunsBefore, c.sortedRunsAfter, c.level0FilesBefore, c.level0FilesAfter));
        if (r == BucketShapes.Recorded.NEW_BUCKET) {
            MetricGroup g = getRuntimeContext()
                    .getMetricGroup()
                    .addGroup("table", work.table)
                    .addGroup("partition", Arrays.toString(work.bucketId().partition()))
                    .addGroup("bucket", String.valueOf(work.bucket));
            g.gauge("sortedRunsBefore", () -> shapes.get(key).sortedRunsBefore);
            g.gauge("sortedRunsAfter", () -> shapes.get(key).sortedRunsAfter);
            g.gauge("level0FilesBefore", () -> shapes.get(key).level0FilesBefore);
            g.gauge("level0FilesAfter", () -> shapes.get(key).level0FilesAfter);
        } else if (r == BucketShapes.Recorded.NOT_TRACKED && !warnedUntracked) {
            warnedUntracked = true;
            LOG.info(
                    "per-bucket gauges are kept for the first {} buckets this subtask compacts; {} and later "
                            + "buckets are counted in the totals only",
                    MAX_BUCKETS_WITH_GAUGES,
                    work);
        }
    }
}
