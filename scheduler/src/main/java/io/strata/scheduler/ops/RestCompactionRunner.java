package io.strata.scheduler.ops;

import io.strata.compaction.CompactionJob;
import io.strata.compaction.RestSubmitter;
import io.strata.compaction.commit.CommitOperator;
import io.strata.scheduler.config.TableSettings.Compaction;
import io.strata.scheduler.config.TableSettings.FlinkCluster;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.table.Catalog;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the compaction job on a Flink cluster through its REST API: the shaded job jar is uploaded
 * to each cluster once for the life of this runner ({@link ClusterSession}), each compaction is a
 * batch job run from it under a job id chosen here, and its status is polled every {@code
 * poll-interval} until it ends. FINISHED returns a report read back from the table ({@link
 * SnapshotReport}, with the job's conflict count from its accumulator); FAILED or CANCELED throws
 * a {@link ClusterJobException} with the job id and the cause from the job's exceptions endpoint.
 *
 * <p>An interrupt of the calling thread (the service's shutdown past its timeout) cancels the job
 * over REST when the cluster's {@code cancel-on-shutdown} is true (the default); otherwise the job
 * is left running, its id logged, and it commits on its own (the commit protocol resolves it
 * against anything that meets it). The cluster must see the warehouse at the same URI as this
 * process.
 */
public final class RestCompactionRunner implements CompactionRunner {
    private static final Logger LOG = LoggerFactory.getLogger(RestCompactionRunner.class);
    /** How long an interrupted run waits for its cancelled job to end before passing the interrupt on. */
    private static final Duration CANCEL_WAIT = Duration.ofSeconds(4);
    /** Status reads that may fail in a row (a JobManager restarting) before the job is given up on. */
    private static final int POLL_FAILURES = 5;

    private final String warehouse;
    private final Catalog catalog;
    /** Guarded by this. */
    private final Map<SessionKey, ClusterSession> sessions = new HashMap<>();

    private boolean closed;

    /** One session per cluster and jar, whatever the tables' other cluster keys. */
    private record SessionKey(String address, Path jobJar) {}

    public RestCompactionRunner(String warehouse) {
        this.warehouse = warehouse;
        this.catalog = Catalog.open(warehouse);
    }

    @Override
    public CompactionReport compact(String table, CompactStrategy strategy, Compaction placement) throws Exception {
        FlinkCluster cluster = placement
                .cluster()
                .orElseThrow(() -> new IllegalArgumentException(
                        table + ": runs-on " + placement.runsOn().key() + " is not a Flink cluster"));
        SnapshotReport report = SnapshotReport.before(catalog.getTable(table));
        CompactionJob.Args args = args(table, strategy, placement.parallelism());
        ClusterSession session = session(cluster);
        session.upload();
        JobID job = new JobID();
        try {
            session.run(args, job);
            LOG.info(
                    "{}: {} compaction job {} running on the Flink cluster at {}",
                    table,
                    key(strategy),
                    job,
                    cluster.address());
            awaitFinished(session, cluster, table, job);
        } catch (InterruptedException e) {
            interrupted(session, cluster, table, job);
            throw e;
        }
        return report.after(table, args.commitUser, strategy, conflicts(session, job));
    }

    private CompactionJob.Args args(String table, CompactStrategy strategy, int parallelism) {
        return CompactionJob.Args.parse(
                "--warehouse=" + warehouse,
                "--table=" + table,
                "--strategy=" + key(strategy),
                "--mode=batch",
                "--parallelism=" + parallelism,
                // the report finds the job's snapshots by it
                "--commit-user=strata-scheduler-" + UUID.randomUUID());
    }

    private static String key(CompactStrategy strategy) {
        return strategy.name().toLowerCase(Locale.ROOT);
    }

    private synchronized ClusterSession session(FlinkCluster cluster) throws IOException {
        if (closed) {
            throw new IllegalStateException("the compaction runner is closed");
        }
        SessionKey key = new SessionKey(cluster.address(), cluster.jobJar());
        ClusterSession s = sessions.get(key);
        if (s == null) {
            s = new ClusterSession(cluster, RestSubmitter.connect(cluster.host(), cluster.port()));
            sessions.put(key, s);
        }
        return s;
    }

    /** Polls until the job ends; returns if it FINISHED. */
    private static void awaitFinished(ClusterSession session, FlinkCluster cluster, String table, JobID job)
            throws ClusterJobException, InterruptedException {
        int failures = 0;
        while (true) {
            JobStatus status;
            try {
                status = session.rest().status(job);
                failures = 0;
            } catch (IOException e) {
                if (++failures >= POLL_FAILURES) {
                    throw new ClusterJobException(
                            job.toHexString(),
                            table + ": the status of compaction job " + job + " on the Flink cluster at "
                                    + cluster.address() + " could not be read " + failures
                                    + " times in a row; it may still be running",
                            e);
                }
                LOG.warn("{}: reading the status of compaction job {} failed; polling on", table, job, e);
                status = JobStatus.RUNNING;
            }
            if (status == JobStatus.FINISHED) {
                return;
            }
            if (status.isGloballyTerminalState()) {
                throw new ClusterJobException(
                        job.toHexString(),
                        table + ": compaction job " + job + " on the Flink cluster at " + cluster.address() + " ended "
                                + status + ": " + cause(session, job),
                        null);
            }
            Thread.sleep(cluster.pollInterval().toMillis());
        }
    }

    private static String cause(ClusterSession session, JobID job) throws InterruptedException {
        try {
            return session.rest().failure(job).orElse("the cluster recorded no exception");
        } catch (IOException e) {
            return "its exceptions could not be read (" + e.getMessage() + ")";
        }
    }

    /** The job's conflicted commits from its accumulator; 0 when the cluster no longer has them. */
    private static int conflicts(ClusterSession session, JobID job) throws InterruptedException {
        try {
            String v = session.rest().accumulators(job).get(CommitOperator.CONFLICTS_ACCUMULATOR);
            return v == null ? 0 : Integer.parseInt(v.trim());
        } catch (IOException | NumberFormatException e) {
            LOG.warn("the accumulators of compaction job {} could not be read; reporting no conflicts", job, e);
            return 0;
        }
    }

    /**
     * The calling thread was interrupted while {@code job} ran or was being submitted: cancels it
     * if the cluster says so and waits a little for it to end, or leaves it running. Returns with
     * the thread's interrupt flag set again.
     */
    private static void interrupted(ClusterSession session, FlinkCluster cluster, String table, JobID job) {
        Thread.interrupted(); // the REST calls below must not be interrupted themselves
        try {
            if (!cluster.cancelOnShutdown()) {
                LOG.warn(
                        "{}: interrupted; compaction job {} is left running on the Flink cluster at {} "
                                + "(cancel-on-shutdown: false) and commits on its own",
                        table,
                        job,
                        cluster.address());
                return;
            }
            try {
                session.rest().cancel(job);
                JobStatus end = awaitEnd(session, job);
                LOG.warn(
                        "{}: interrupted; compaction job {} on the Flink cluster at {} cancelled: {}",
                        table,
                        job,
                        cluster.address(),
                        end == null ? "still cancelling after " + CANCEL_WAIT : end);
            } catch (IOException e) {
                // a run request abandoned before the cluster created the job may still create it
                LOG.error(
                        "{}: interrupted, and compaction job {} on the Flink cluster at {} could not be cancelled; "
                                + "if it runs, cancel it there (flink cancel {})",
                        table,
                        job,
                        cluster.address(),
                        job,
                        e);
            }
        } catch (InterruptedException again) {
            LOG.warn("{}: interrupted again while cancelling compaction job {}", table, job);
        } finally {
            Thread.currentThread().interrupt();
        }
    }

    /** The job's terminal status within {@link #CANCEL_WAIT}, or null. */
    private static JobStatus awaitEnd(ClusterSession session, JobID job) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + CANCEL_WAIT.toNanos();
        while (true) {
            JobStatus s = session.rest().status(job);
            if (s.isGloballyTerminalState()) {
                return s;
            }
            if (System.nanoTime() > deadline) {
                return null;
            }
            Thread.sleep(100);
        }
    }

    /** Closes the REST clients of every cluster used; a compaction still running then fails. */
    @Override
    public synchronized void close() {
        closed = true;
        for (ClusterSession s : sessions.values()) {
            s.close();
        }
        sessions.clear();
    }
}
