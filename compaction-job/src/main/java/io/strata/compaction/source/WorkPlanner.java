package io.strata.compaction.source;

import io.strata.compaction.job.JobSpec;
import io.strata.compaction.job.JobTables;
import io.strata.storage.compact.BucketPlan;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.compact.SnapshotPlan;
import io.strata.storage.data.BucketId;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.table.FileStoreTable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Reads manifests and decides which buckets get work: for every selected table, the latest
 * snapshot's LSM shape per bucket, planned with the table's strategy. No data file is opened.
 *
 * <p>In-flight buckets are skipped: a bucket stays in flight from the moment its work is handed
 * out until the latest snapshot no longer holds every file its plan reads, i.e. until a compaction
 * of it (this job's or another's) has committed. Planning always starts from the latest snapshot,
 * never from history.
 */
final class WorkPlanner {

    /** The outcome of one round. */
    static final class Round {
        final List<CompactionWork> works = new ArrayList<>();
        final Map<String, Set<String>> inputsByBucket = new HashMap<>();
        /**
         * In-flight buckets whose compaction has landed (or whose inputs vanished), with the inputs
         * the round saw in flight: the enumerator releases a bucket only if that is still its entry,
         * never a newer work handed out while the round ran.
         */
        final Map<String, Set<String>> released = new HashMap<>();
        /** Per table: buckets with more sorted runs than num-sorted-run.compaction-trigger. */
        final Map<String, Integer> backlog = new HashMap<>();
    }

    private final JobSpec spec;
    private final JobTables tables;
    /** Per table, the snapshot the last round planned from: an unchanged table is not read again. */
    private final Map<String, Long> lastPlanned = new HashMap<>();
    /** Set from the coordinator thread when in-flight buckets were released without a new snapshot. */
    private final AtomicBoolean replanAll = new AtomicBoolean();

    WorkPlanner(JobSpec spec, JobTables tables) {
        this.spec = spec;
        this.tables = tables;
    }

    /**
     * Makes the next round read every table again, even one without a new snapshot: buckets were
     * released from flight by something other than a snapshot (a subtask's restart). Any thread.
     */
    void replanAll() {
        replanAll.set(true);
    }

    /**
     * Called from one thread at a time (Flink's worker thread runs rounds one after another).
     *
     * @param inFlight bucket key to the files its work reads; read only
     */
    Round plan(Map<String, Set<String>> inFlight) {
        Round round = new Round();
        // the bytes each work's plan reads, for the order below (identity keys: works are not value objects)
        Map<CompactionWork, Long> bytesToRead = new IdentityHashMap<>();
        if (replanAll.getAndSet(false)) {
            lastPlanned.clear();
        }
        for (String name : tables.resolve()) {
            FileStoreTable table = tables.table(name);
            Optional<Snapshot> latest = table.snapshotManager().latest();
            if (latest.isEmpty()) {
                continue;
            }
            // nothing can have changed: no new files, and in-flight buckets are released only by a new
            // snapshot (or by a subtask's restart, which sets replanAll)
            if (Long.valueOf(latest.get().id())
                    .equals(lastPlanned.put(name, latest.get().id()))) {
                continue;
            }
            CompactStrategy strategy = tables.strategyFor(table);
            EntryFilter filter = spec.partitions().toEntryFilter(table.name(), table.schema());
            SnapshotPlan snapshotPlan = table.newCompactor().plan(latest.get(), filter, strategy);
            // an in-flight bucket stays in flight while the snapshot still holds every file its work reads;
            // otherwise its compaction landed (or its partition was dropped) and it is released
            Set<BucketId> held = new HashSet<>();
            String prefix = name + "/";
            for (Map.Entry<String, Set<String>> f : inFlight.entrySet()) {
                if (f.getKey().startsWith(prefix)) {
                    BucketId bucket = BucketId.parseKey(f.getKey().substring(prefix.length()));
                    if (snapshotPlan.holdsAll(bucket, f.getValue())) {
                        held.add(bucket);
                    } else {
                        round.released.put(f.getKey(), f.getValue());
                    }
                }
            }
            for (BucketPlan plan : snapshotPlan.plans()) {
                if (held.contains(plan.bucket())) {
                    continue;
                }
                CompactionWork work = new CompactionWork(name, plan.bucket(), plan.snapshotId(), strategy)
                        .withFiles(plan.bucketFiles());
                round.works.add(work);
                bytesToRead.put(work, plan.plan().bytesToRead());
                round.inputsByBucket.put(work.bucketKey(), plan.inputFileNames());
            }
            round.backlog.put(name, snapshotPlan.backlog());
        }
        // the largest first: subtasks take works in this order, and ending with small ones keeps a
        // subtask from starting a large bucket when the others are about to run out of work
        round.works.sort(Comparator.comparingLong((CompactionWork w) -> bytesToRead.get(w))
                .reversed());
        return round;
    }
}
