package io.strata.compaction.source;

import io.strata.compaction.job.JobSpec;
import io.strata.compaction.job.JobTables;
import io.strata.storage.fs.ProcessResources;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.util.FlinkRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The planning side of the job, on the JobManager: plans rounds with {@link WorkPlanner} (once
 * in batch mode; every discovery interval in streaming mode, on Flink's worker thread) and hands
 * one work at a time to a rewrite subtask that asks for it. Pull-based assignment balances
 * buckets of unequal size over the subtasks; a bucket is handed to one subtask at a time because
 * it stays in flight until its compaction has landed.
 *
 * <p>All state is touched on the coordinator thread only, except {@link #inFlight}, which the
 * planning thread reads.
 */
final class PlanEnumerator implements SplitEnumerator<CompactionWork, PlanCheckpoint> {
    private static final Logger LOG = LoggerFactory.getLogger(PlanEnumerator.class);

    private final SplitEnumeratorContext<CompactionWork> context;
    private final JobSpec spec;
    private final boolean bounded;
    private final WorkPlanner planner;
    private final Deque<CompactionWork> unassigned = new ArrayDeque<>();
    private final Map<String, Set<String>> inFlight = new ConcurrentHashMap<>();
    private final Set<Integer> waiting = new LinkedHashSet<>();
    private final Map<String, Integer> backlog = new ConcurrentHashMap<>();
    /** The subtask each in-flight bucket's work was handed to (streaming; coordinator thread only). */
    private final Map<String, Integer> assignedTo = new HashMap<>();

    private boolean planned;
    private long worksPlanned;

    PlanEnumerator(SplitEnumeratorContext<CompactionWork> context, JobSpec spec, boolean bounded) {
        this.context = context;
        this.spec = spec;
        this.bounded = bounded;
        this.planner = new WorkPlanner(spec, new JobTables(spec, 0));
        context.metricGroup()
                .gauge(
                        "backlogBuckets",
                        () -> backlog.values().stream()
                                .mapToInt(Integer::intValue)
                                .sum());
        context.metricGroup().gauge("bucketsInFlight", inFlight::size);
        context.metricGroup().gauge("worksPlanned", () -> worksPlanned);
    }

    @Override
    public void start() {
        if (bounded) {
            context.callAsync(() -> planner.plan(Map.of()), this::onRound);
        } else {
            context.callAsync(
                    () -> planner.plan(Map.copyOf(inFlight)), this::onRound, 0, spec.discoveryIntervalMillis());
        }
    }

    private void onRound(WorkPlanner.Round round, Throwable error) {
        if (error != null) {
            if (bounded) {
                throw new FlinkRuntimeException("planning the compaction failed: " + error.getMessage(), error);
            }
            // a streaming job outlives a passing file system error; the next round tries again
            LOG.warn("planning round failed; retrying in {} ms", spec.discoveryIntervalMillis(), error);
            return;
        }
        // a round may have started before the previous one was applied: release only the entries it
        // saw (a conditional remove), and hand out work only for buckets not in flight now
        round.released.forEach((key, inputs) -> {
            if (inFlight.remove(key, inputs)) {
                assignedTo.remove(key);
            }
        });
        int added = 0;
        for (CompactionWork w : round.works) {
            String key = w.bucketKey();
            if (!inFlight.containsKey(key)) {
                inFlight.put(key, round.inputsByBucket.get(key));
                unassigned.add(w);
                added++;
            }
        }
        worksPlanned += added;
        for (Map.Entry<String, Integer> b : round.backlog.entrySet()) {
            backlog.put(b.getKey(), b.getValue());
        }
        if (added > 0) {
            LOG.info("planned {} compaction works ({} buckets in flight, backlog {})", added, inFlight.size(), backlog);
        }
        planned = true;
        for (Integer subtask : List.copyOf(waiting)) {
            if (serve(subtask)) {
                waiting.remove(subtask);
            }
        }
    }

    @Override
    public void handleSplitRequest(int subtask, String hostname) {
        if (!serve(subtask)) {
            waiting.add(subtask);
        }
    }

    /** Assigns one work, or signals the end in batch mode; false when the subtask must wait. */
    private boolean serve(int subtask) {
        if (!context.registeredReaders().containsKey(subtask)) {
            return true;
        }
        CompactionWork w = unassigned.poll();
        if (w != null) {
            context.assignSplit(w, subtask);
            if (!bounded) {
                assignedTo.put(w.bucketKey(), subtask);
            }
            return true;
        }
        if (bounded && planned) {
            context.signalNoMoreSplits(subtask);
            return true;
        }
        return false;
    }

    @Override
    public void addSplitsBack(List<CompactionWork> splits, int subtask) {
        // the subtask failed before finishing them: batch redoes them, streaming re-plans them
        for (CompactionWork w : splits) {
            if (bounded) {
                unassigned.addFirst(w);
            } else {
                release(w.bucketKey());
            }
        }
        if (!bounded && !splits.isEmpty()) {
            planner.replanAll();
        }
    }

    /** Takes a bucket out of flight, so that a round may hand out work for it again. */
    private void release(String bucketKey) {
        inFlight.remove(bucketKey);
        assignedTo.remove(bucketKey);
    }

    /**
     * A reader registers at start-up and again after each restart of its subtask. Readers keep no
     * state (works are not checkpointed, see {@link PlanCheckpoint}), so after a restart nothing
     * handed to that subtask before survives in it, while Flink gives back ({@link #addSplitsBack})
     * only the works handed out since the last checkpoint. A work handed out before it and still
     * queued at the checkpoint, or rewritten after it with its result lost in the failover, would
     * otherwise keep its bucket in flight for ever, and the bucket would never be compacted again
     * (a streaming failover test caught one). Every bucket handed to the subtask is released and
     * planned again from the latest snapshot; a result of it that a restored checkpoint still
     * commits makes the new work stale or its commit conflict, both handled.
     */
    @Override
    public void addReader(int subtask) {
        if (bounded) {
            return; // without checkpoints, Flink gives back every work handed out (addSplitsBack)
        }
        List<String> handedToIt = assignedTo.entrySet().stream()
                .filter(e -> e.getValue() == subtask)
                .map(Map.Entry::getKey)
                .toList();
        handedToIt.forEach(this::release);
        if (!handedToIt.isEmpty()) {
            planner.replanAll();
            LOG.info(
                    "subtask {} restarted: {} buckets it was compacting are planned again", subtask, handedToIt.size());
        }
    }

    @Override
    public PlanCheckpoint snapshotState(long checkpointId) {
        return PlanCheckpoint.EMPTY;
    }

    @Override
    public void close() {
        // The JobManager runs the planner in the job's class loader and drops that loader with the
        // job; Flink has no release hook there, so the planner releases what Strata started in it.
        ProcessResources.release();
    }
}
