package io.strata.compaction.commit;

import io.strata.compaction.job.JobSpec;
import io.strata.compaction.job.JobTables;
import io.strata.compaction.job.JobWriters;
import io.strata.compaction.job.ProcessRelease;
import io.strata.compaction.rewrite.CompactionCommittable;
import io.strata.storage.commit.CommitMessage;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.compact.CompactionCommitter;
import io.strata.storage.data.PartitionPath;
import io.strata.storage.schema.TableSchema;
import io.strata.storage.table.FileStoreTable;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.flink.api.common.accumulators.IntCounter;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job's single committer (parallelism 1).
 *
 * <p><b>Streaming</b>: results that arrive before the barrier of checkpoint N belong to N; they
 * are kept in operator state and committed, one COMPACT snapshot per table with identifier N, when
 * N completes (results of an earlier checkpoint that was aborted go with it). After a failover the
 * restored results are committed again at once; identifiers this commit user already committed
 * are skipped, so nothing is committed twice. Results after the restored checkpoint are lost with
 * the failed attempt, and their files are removed ({@link FailedAttemptFiles}).
 *
 * <p><b>Batch</b>: commits every {@code --partial-commit-every} results and at the end of input,
 * with identifiers {@code attempt << 32 | n}, increasing across attempts.
 *
 * <p><b>Failed buckets</b> ({@link CompactionCommittable#isFailure}): never committed and never
 * kept in state, each reported as a {@code FAILED} event. Batch: once every other result is
 * committed, at the end of input, the job fails with a {@link CompactionFailedException} naming
 * each failed bucket. Streaming: the job goes on. A restart would meet a lasting damage again and,
 * each time, lose the rewrites in progress of the other buckets, so a long one would never land;
 * the planner keeps the failed bucket in flight, so it is not tried again until its files change
 * in the latest snapshot or the job restarts.
 *
 * <p>The buckets it re-plans and rewrites itself (stale results) are written under a writer
 * registration of this subtask ({@link JobWriters}), renewed at checkpoints and removed on close.
 *
 * <p>Metrics: commits, conflicts, bucketsReplanned, bucketsCommitted, skippedCommits,
 * filesOfFailedAttemptsRemoved, lastCommitMillis, pendingResults. The {@link #CONFLICTS_ACCUMULATOR}
 * accumulator counts the commits that only met conflicts (the {@code CONFLICT} events): unlike the
 * metrics it outlives the job, so a client that polled a cluster job over REST still reads it.
 */
public final class CommitOperator extends AbstractStreamOperator<CompactionEvent>
        implements OneInputStreamOperator<CompactionCommittable, CompactionEvent>, BoundedOneInput {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(CommitOperator.class);
    private static final int STATE_VERSION = 1;
    /** The accumulator of the commits that met only conflicts (committed nothing, buckets re-planned). */
    public static final String CONFLICTS_ACCUMULATOR = "strata-conflicted-commits";

    private final JobSpec spec;
    private transient JobTables tables;
    /** The registrations of the files this committer rewrites itself. */
    private transient JobWriters writers;
    /** Per table (db.name): a schema for the partition keys of events. */
    private transient Map<String, TableSchema> partitionSchemas;

    private transient int attempt;
    private transient ListState<String> userState;
    private transient ListState<byte[]> pendingState;
    private transient List<CompactionCommittable> current;
    private transient TreeMap<Long, List<CompactionCommittable>> pending;
    private transient long batchCommits;
    private transient Counter commits;
    private transient Counter conflicts;
    private transient Counter replanned;
    private transient Counter committedBuckets;
    private transient Counter skipped;
    private transient Counter removedFiles;
    private transient IntCounter conflictedCommits;
    private transient volatile long lastCommitMillis;
    /** Batch: failed buckets' messages, in arrival order, since this attempt started. */
    private transient List<String> failures;
    /** Buckets this attempt committed (for the failure's message). */
    private transient long bucketsCommitted;

    public CommitOperator(JobSpec spec) {
        this.spec = spec;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        ProcessRelease.register(getRuntimeContext());
        attempt = getRuntimeContext().getTaskInfo().getAttemptNumber();
        tables = new JobTables(spec, attempt);
        writers = new JobWriters(
                tables,
                "compaction job " + getRuntimeContext().getJobInfo().getJobId() + " (commit user " + spec.commitUser()
                        + "), committer, attempt " + attempt);
        partitionSchemas = new HashMap<>();
        current = new ArrayList<>();
        pending = new TreeMap<>();
        failures = new ArrayList<>();
        registerMetrics();
        tables.openSelectedQuietly();
        userState = context.getOperatorStateStore()
                .getListState(new ListStateDescriptor<>("commit-user", StringSerializer.INSTANCE));
        pendingState = context.getOperatorStateStore()
                .getListState(new ListStateDescriptor<>("pending-results", BytePrimitiveArraySerializer.INSTANCE));
        if (context.isRestored()) {
            for (String user : userState.get()) {
                if (!user.equals(spec.commitUser())) {
                    throw new IllegalStateException("this job was restored from the state of commit user '" + user
                            + "' but started with --commit-user '" + spec.commitUser() + "'; start it with "
                            + "--commit-user '" + user + "' so that replayed commits are recognised");
                }
            }
            for (byte[] b : pendingState.get()) {
                restore(b);
            }
            LOG.info(
                    "restored {} pending results of checkpoints {}",
                    pending.values().stream().mapToInt(List::size).sum(),
                    pending.keySet());
            // the restored checkpoint completed: everything it holds is committable now
            commitUpTo(Long.MAX_VALUE);
        }
        if (context.isRestored() || attempt > 0) {
            for (String name : tables.resolve()) {
                removedFiles.inc(FailedAttemptFiles.remove(tables.table(name), spec.commitUser(), attempt));
            }
        }
    }

    private void registerMetrics() {
        commits = getMetricGroup().counter("commits");
        conflicts = getMetricGroup().counter("conflicts");
        replanned = getMetricGroup().counter("bucketsReplanned");
        committedBuckets = getMetricGroup().counter("bucketsCommitted");
        skipped = getMetricGroup().counter("skippedCommits");
        removedFiles = getMetricGroup().counter("filesOfFailedAttemptsRemoved");
        getMetricGroup().gauge("lastCommitMillis", () -> lastCommitMillis);
        conflictedCommits = new IntCounter();
        getRuntimeContext().addAccumulator(CONFLICTS_ACCUMULATOR, conflictedCommits);
        getMetricGroup()
                .gauge(
                        "pendingResults",
                        () -> current.size()
                                + pending.values().stream().mapToInt(List::size).sum());
    }

    @Override
    public void processElement(StreamRecord<CompactionCommittable> record) {
        CompactionCommittable c = record.getValue();
        if (c.isFailure()) {
            if (spec.mode() == JobSpec.Mode.BATCH) {
                failures.add(c.failure);
            }
            output.collect(new StreamRecord<>(failed(c)));
            return;
        }
        current.add(c);
        output.collect(new StreamRecord<>(rewritten(c)));
        if (spec.mode() == JobSpec.Mode.BATCH
                && spec.partialCommitEvery() > 0
                && current.size() >= spec.partialCommitEvery()) {
            commitBatch();
        }
    }

    /** Removes this committer's registrations: files it rewrote and did not commit are left to orphan cleanup. */
    @Override
    public void close() throws Exception {
        if (writers != null) {
            writers.closeAll();
        }
        super.close();
    }

    @Override
    public void endInput() {
        if (spec.mode() == JobSpec.Mode.BATCH) {
            commitBatch();
            failIfBucketsFailed();
        }
        // streaming: a final checkpoint follows the end of input and commits what is left
    }

    /** Ends a batch job when buckets failed: called after everything committable was committed. */
    private void failIfBucketsFailed() {
        if (!failures.isEmpty()) {
            throw new CompactionFailedException(failures, bucketsCommitted);
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        writers.renewAll();
        if (!current.isEmpty()) {
            pending.computeIfAbsent(context.getCheckpointId(), k -> new ArrayList<>())
                    .addAll(current);
            current = new ArrayList<>();
        }
        userState.update(List.of(spec.commitUser()));
        List<byte[]> state = new ArrayList<>();
        for (Map.Entry<Long, List<CompactionCommittable>> e : pending.entrySet()) {
            for (CompactionCommittable c : e.getValue()) {
                state.add(encode(e.getKey(), c));
            }
        }
        pendingState.update(state);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        super.notifyCheckpointComplete(checkpointId);
        commitUpTo(checkpointId);
    }

    /** Commits the results of every checkpoint up to {@code checkpointId}, oldest first. */
    private void commitUpTo(long checkpointId) {
        Iterator<Map.Entry<Long, List<CompactionCommittable>>> it =
                pending.headMap(checkpointId, true).entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Long, List<CompactionCommittable>> e = it.next();
            commitAll(e.getKey(), e.getValue());
            it.remove();
        }
    }

    private void commitBatch() {
        if (current.isEmpty()) {
            return;
        }
        commitAll(((long) attempt << 32) | ++batchCommits, current);
        current = new ArrayList<>();
    }

    private void commitAll(long identifier, List<CompactionCommittable> results) {
        Map<String, List<CompactionCommittable>> byTable =
                results.stream().collect(Collectors.groupingBy(c -> c.table, LinkedHashMap::new, Collectors.toList()));
        for (Map.Entry<String, List<CompactionCommittable>> e : byTable.entrySet()) {
            long start = System.nanoTime();
            FileStoreTable table = writers.table(shortName(e.getKey()));
            List<CompactionCommittable> ofTable = e.getValue();
            // the job plans a table with one strategy, so every result of this pass carries the same one
            CompactStrategy strategy = CompactStrategy.parse(ofTable.get(0).strategy);
            long plannedFrom =
                    ofTable.stream().mapToLong(c -> c.plannedFromSnapshot).min().orElse(0);
            CompactionCommitter.Outcome o = table.newCompactionCommitter(spec.commitUser(), strategy)
                    .commit(
                            identifier,
                            ofTable.stream()
                                    .map(CompactionCommittable::commitMessage)
                                    .toList(),
                            plannedFrom);
            lastCommitMillis = (System.nanoTime() - start) / 1_000_000;
            conflicts.inc(o.conflicts());
            replanned.inc(o.replanned());
            CompactionEvent ev = new CompactionEvent();
            ev.table = e.getKey();
            ev.identifier = identifier;
            ev.millis = lastCommitMillis;
            if (o.skipped()) {
                skipped.inc();
                ev.kind = CompactionEvent.SKIPPED;
            } else {
                commits.inc(o.snapshots().isEmpty() ? 0 : 1);
                committedBuckets.inc(o.committedBuckets());
                bucketsCommitted += o.committedBuckets();
                ev.kind = o.conflicts() > 0 && o.snapshots().isEmpty()
                        ? CompactionEvent.CONFLICT
                        : CompactionEvent.COMMITTED;
                if (CompactionEvent.CONFLICT.equals(ev.kind)) {
                    conflictedCommits.add(1);
                }
                ev.snapshots = o.snapshots().stream().map(String::valueOf).collect(Collectors.joining(","));
                ev.buckets = o.committedBuckets();
                LOG.info(
                        "table {}: committed {} buckets as snapshot(s) {} (identifier {}, {} conflicts) in {} ms",
                        e.getKey(),
                        o.committedBuckets(),
                        ev.snapshots,
                        identifier,
                        o.conflicts(),
                        lastCommitMillis);
            }
            output.collect(new StreamRecord<>(ev));
        }
    }

    /** Committables name tables as {@code db.table}; the job opens them by table name in its database. */
    private static String shortName(String qualified) {
        int dot = qualified.indexOf('.');
        return dot < 0 ? qualified : qualified.substring(dot + 1);
    }

    private static CompactionEvent failed(CompactionCommittable c) {
        CompactionEvent ev = new CompactionEvent();
        ev.kind = CompactionEvent.FAILED;
        ev.table = c.table;
        ev.partition = c.failedPartition;
        ev.bucket = String.valueOf(c.failedBucket);
        ev.failure = c.failure;
        return ev;
    }

    private CompactionEvent rewritten(CompactionCommittable c) {
        CompactionEvent ev = new CompactionEvent();
        ev.kind = CompactionEvent.REWRITTEN;
        ev.table = c.table;
        CommitMessage m = c.commitMessage();
        // partition keys and their types never change (schema evolution only adds columns)
        TableSchema schema = partitionSchemas.computeIfAbsent(
                c.table, t -> tables.table(shortName(t)).schema());
        ev.partition =
                PartitionPath.display(schema.partitionKeys(), schema.typesOf(schema.partitionIndexes()), m.partition());
        ev.bucket = String.valueOf(m.bucket());
        ev.rowsRead = c.rowsRead;
        ev.rowsWritten = c.rowsWritten;
        ev.bytesRead = c.bytesRead;
        ev.bytesWritten = c.bytesWritten;
        ev.changelogRows = c.changelogRows;
        ev.sortedRunsBefore = c.sortedRunsBefore;
        ev.sortedRunsAfter = c.sortedRunsAfter;
        ev.level0FilesBefore = c.level0FilesBefore;
        ev.level0FilesAfter = c.level0FilesAfter;
        ev.millis = c.rewriteMillis;
        return ev;
    }

    private static byte[] encode(long checkpointId, CompactionCommittable c) throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bos);
        out.writeInt(STATE_VERSION);
        out.writeLong(checkpointId);
        byte[] b = c.toBytes();
        out.writeInt(b.length);
        out.write(b);
        out.flush();
        return bos.toByteArray();
    }

    private void restore(byte[] bytes) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        int version = in.readInt();
        if (version != STATE_VERSION) {
            throw new IOException(
                    "unknown committer state version " + version + " (this build reads " + STATE_VERSION + ")");
        }
        long checkpointId = in.readLong();
        byte[] b = new byte[in.readInt()];
        in.readFully(b);
        pending.computeIfAbsent(checkpointId, k -> new ArrayList<>()).add(CompactionCommittable.fromBytes(b));
    }
}
