package io.strata.compaction.source;

import io.strata.compaction.job.FileNames;
import io.strata.compaction.job.JobSpec;
import io.strata.compaction.job.JobTables;
import io.strata.storage.compact.CompactPlan;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.compact.TableCompactor;
import io.strata.storage.data.ValueCodec;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.mergetree.Levels;
import io.strata.storage.options.CompactionOptions;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.table.FileStoreTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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
    private final java.util.concurrent.atomic.AtomicBoolean replanAll = new java.util.concurrent.atomic.AtomicBoolean();

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
        Map<CompactionWork, Long> bytesToRead = new java.util.IdentityHashMap<>();
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
            if (Long.valueOf(latest.get().id()).equals(lastPlanned.put(name, latest.get().id()))) {
                continue;
            }
            TableCompactor compactor = table.newCompactor();
            CompactStrategy strategy = tables.strategyFor(table);
            EntryFilter filter = spec.partitions().toEntryFilter(table.name(), table.schema());
            int trigger = table.schema().tableOptions().get(CompactionOptions.COMPACTION_TRIGGER);
            int backlog = 0;
            Set<String> present = new HashSet<>();
            for (Map.Entry<List<Object>, Levels> e : compactor.levels(latest.get(), filter).entrySet()) {
                List<Object> k = e.getKey();
                Object[] partition = k.subList(0, k.size() - 1).toArray();
                int bucket = (Integer) k.get(k.size() - 1);
                Levels levels = e.getValue();
                if (levels.numberOfSortedRuns() > trigger) {
                    backlog++;
                }
                String key = CompactionWork.bucketKey(name, ValueCodec.encodeTuple(partition), bucket);
                present.add(key);
                Set<String> planned = inFlight.get(key);
                if (planned != null) {
                    if (FileNames.of(levels.allFiles()).containsAll(planned)) {
                        continue;
                    }
                    round.released.put(key, planned);
                }
                Optional<CompactPlan> plan = compactor.planner().plan(partition, bucket, levels, strategy);
                if (plan.isPresent()) {
                    CompactionWork work = new CompactionWork(name, partition, bucket, latest.get().id(), strategy)
                            .withFiles(levels.allFiles());
                    round.works.add(work);
                    bytesToRead.put(work, plan.get().bytesToRead());
                    round.inputsByBucket.put(key, FileNames.of(plan.get().inputFiles()));
                }
            }
            // buckets that disappeared entirely (a partition dropped) are released too
            for (Map.Entry<String, Set<String>> f : inFlight.entrySet()) {
                if (f.getKey().startsWith(name + "/") && !present.contains(f.getKey())) {
                    round.released.put(f.getKey(), f.getValue());
                }
            }
            round.backlog.put(name, backlog);
        }
        // the largest first: subtasks take works in this order, and ending with small ones keeps a
        // subtask from starting a large bucket when the others are about to run out of work
        round.works.sort(java.util.Comparator.comparingLong((CompactionWork w) -> bytesToRead.get(w)).reversed());
        return round;
    }

}
