package io.strata.storage.compact;

import io.strata.storage.commit.CommitMessage;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.BucketId;
import io.strata.storage.data.ValueComparators;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.manifest.ManifestEntry;
import io.strata.storage.manifest.PartitionBucketFilter;
import io.strata.storage.mergetree.Levels;
import io.strata.storage.options.CompactionOptions;
import io.strata.storage.options.TableOptions;
import io.strata.storage.options.WriteOptions;
import io.strata.storage.schema.DataType;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.snapshot.SnapshotNotFoundException;
import io.strata.storage.store.TableContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Compaction of a whole table, called directly (tests, benchmarks, the CLI's dry run) or hosted
 * by the Flink job: plans every bucket of the latest snapshot, rewrites, and commits the results
 * as one COMPACT snapshot. Writers may keep appending meanwhile: appends never conflict; a
 * concurrent compaction of the same files makes the commit fail cleanly.
 */
public final class TableCompactor {
    private final TableContext table;
    private final CompactPlanner planner;
    private final Comparator<Object[]> keyComparator;
    private final int numLevels;
    private final int compactionTrigger;
    private final List<DataType> partitionTypes;

    public TableCompactor(TableContext table) {
        if (!table.schema().hasPrimaryKey()) {
            throw new IllegalArgumentException("table " + table.name() + " has no primary key: nothing to compact");
        }
        this.table = table;
        TableOptions o = table.schema().tableOptions();
        this.keyComparator =
                ValueComparators.forTuple(table.schema().typesOf(table.schema().primaryKeyIndexes()));
        this.numLevels = numLevels(o);
        this.compactionTrigger = o.get(CompactionOptions.COMPACTION_TRIGGER);
        this.partitionTypes = table.schema().typesOf(table.schema().partitionIndexes());
        UniversalCompaction universal = new UniversalCompaction(
                o.get(CompactionOptions.MAX_SIZE_AMPLIFICATION_PERCENT),
                o.get(CompactionOptions.SIZE_RATIO),
                o.get(CompactionOptions.COMPACTION_TRIGGER));
        this.planner = new CompactPlanner(
                universal,
                keyComparator,
                o.get(WriteOptions.TARGET_FILE_SIZE),
                o.get(CompactionOptions.SMALL_FILE_RATIO));
    }

    /** {@code num-levels}, default {@code num-sorted-run.compaction-trigger + 1} (derived in its declaration). */
    public static int numLevels(TableOptions o) {
        return o.get(CompactionOptions.NUM_LEVELS);
    }

    public CompactPlanner planner() {
        return planner;
    }

    /** The LSM shape of every bucket of {@code snapshot} that {@code filter} accepts, in manifest order. */
    public Map<BucketId, Levels> levels(Snapshot snapshot, EntryFilter filter) {
        Map<BucketId, List<DataFileMeta>> byBucket = new LinkedHashMap<>();
        for (ManifestEntry e : table.manifests().scanner().scan(snapshot.baseManifestList(), filter)) {
            byBucket.computeIfAbsent(e.bucketId(), x -> new ArrayList<>()).add(e.file());
        }
        Map<BucketId, Levels> out = new LinkedHashMap<>();
        byBucket.forEach((bucket, files) -> out.put(bucket, levelsOf(files)));
        return out;
    }

    /** The LSM shape of one bucket holding exactly {@code files} (e.g. as read by {@link #levels} earlier). */
    public Levels levelsOf(List<DataFileMeta> files) {
        return Levels.of(files, numLevels, keyComparator);
    }

    /**
     * Plans every bucket of {@code snapshot} that {@code filter} accepts with {@code strategy}. Reads
     * the snapshot's manifests once; no data file.
     */
    public SnapshotPlan plan(Snapshot snapshot, EntryFilter filter, CompactStrategy strategy) {
        Map<BucketId, Levels> levels = levels(snapshot, filter);
        List<BucketPlan> plans = new ArrayList<>();
        levels.forEach((bucket, l) ->
                planner.plan(bucket, l, strategy).ifPresent(p -> plans.add(new BucketPlan(snapshot.id(), p))));
        return new SnapshotPlan(snapshot.id(), levels, plans, compactionTrigger);
    }

    /** {@link #plan(Snapshot, EntryFilter, CompactStrategy)} of the latest snapshot; empty when there is none. */
    public Optional<SnapshotPlan> planLatest(EntryFilter filter, CompactStrategy strategy) {
        return table.snapshotManager().latest().map(s -> plan(s, filter, strategy));
    }

    /** The plans of every bucket of the latest snapshot that {@code filter} accepts. */
    public List<CompactPlan> plan(CompactStrategy strategy, EntryFilter filter) {
        List<CompactPlan> plans = new ArrayList<>();
        planLatest(filter, strategy).ifPresent(p -> p.plans().forEach(b -> plans.add(b.plan())));
        return plans;
    }

    /**
     * Plans {@code bucket} as it is in the latest snapshot.
     *
     * @return empty when the table has no snapshot, the bucket no file, or the strategy nothing to do
     */
    public Optional<BucketPlan> planBucket(BucketId bucket, CompactStrategy strategy) {
        Optional<Snapshot> latest = table.snapshotManager().latest();
        return latest.flatMap(s -> planBucketIn(s, bucket, strategy));
    }

    /**
     * Plans {@code bucket} as it is in snapshot {@code snapshotId} (as in the latest one when that has
     * expired), and returns the plan only if it is not {@linkplain #isStale stale} in the latest
     * snapshot. Planning is pure, so the plan equals the one made from the same snapshot earlier.
     *
     * @return empty when there is nothing (left) to do
     */
    public Optional<BucketPlan> planBucket(BucketId bucket, long snapshotId, CompactStrategy strategy) {
        Optional<Snapshot> latest = table.snapshotManager().latest();
        if (latest.isEmpty()) {
            return Optional.empty();
        }
        Snapshot from;
        try {
            from = snapshotId == latest.get().id()
                    ? latest.get()
                    : table.snapshotManager().snapshot(snapshotId);
        } catch (SnapshotNotFoundException expired) {
            from = latest.get();
        }
        return planBucketIn(from, bucket, strategy).filter(p -> !isStale(p, latest.get()));
    }

    /**
     * As {@link #planBucket(BucketId, long, CompactStrategy)}, from {@code filesInSnapshot}: the
     * bucket's files in {@code snapshotId} as a planner read them from its manifests. Saves reading
     * that snapshot's manifests again; only when the latest snapshot is a later one are its manifests
     * read, to check the plan is not stale.
     */
    public Optional<BucketPlan> planBucket(
            BucketId bucket, long snapshotId, List<DataFileMeta> filesInSnapshot, CompactStrategy strategy) {
        Optional<Snapshot> latest = table.snapshotManager().latest();
        if (latest.isEmpty() || filesInSnapshot.isEmpty()) {
            return Optional.empty();
        }
        if (snapshotId > latest.get().id()) {
            return planBucket(bucket, snapshotId, strategy); // rolled back: that snapshot is gone
        }
        return planner.plan(bucket, levelsOf(filesInSnapshot), strategy)
                .map(p -> new BucketPlan(snapshotId, p))
                .filter(p -> p.snapshotId() == latest.get().id() || !isStale(p, latest.get()));
    }

    /**
     * Whether {@code plan} is stale in {@code later}: some input file of it is no longer live in its
     * bucket there (another compaction replaced it, or the partition was dropped). Reads the
     * manifests of {@code later} for that bucket only; false without reading when {@code later} is
     * the snapshot planned from.
     */
    public boolean isStale(BucketPlan plan, Snapshot later) {
        if (later.id() == plan.snapshotId()) {
            return false;
        }
        Levels now = levels(later, new PartitionBucketFilter(partitionTypes).add(plan.bucket()))
                .get(plan.bucket());
        return now == null || plan.isStaleIn(BucketPlan.namesOf(now.allFiles()));
    }

    private Optional<BucketPlan> planBucketIn(Snapshot snapshot, BucketId bucket, CompactStrategy strategy) {
        Levels levels = levels(snapshot, new PartitionBucketFilter(partitionTypes).add(bucket))
                .get(bucket);
        if (levels == null) {
            return Optional.empty();
        }
        return planner.plan(bucket, levels, strategy).map(p -> new BucketPlan(snapshot.id(), p));
    }

    /** Rewrites one bucket plan; nothing is committed. */
    public CompactResult rewrite(BucketPlan plan) {
        return rewrite(plan.plan());
    }

    /** Rewrites one plan; nothing is committed. */
    public CompactResult rewrite(CompactPlan plan) {
        try (CompactRewriter rewriter = new CompactRewriter(table)) {
            return rewriter.rewrite(plan);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "table " + table.name() + ": compaction of bucket " + plan.bucket() + " failed: " + e.getMessage(),
                    e);
        }
    }

    /**
     * Plans, rewrites and commits every bucket the strategy picks, as one COMPACT snapshot
     * under ({@code commitUser}, {@code identifier}).
     *
     * @return the results (empty when nothing needed compaction)
     */
    public List<CompactResult> compact(CompactStrategy strategy, String commitUser, long identifier) {
        List<CompactResult> results = new ArrayList<>();
        for (CompactPlan plan : plan(strategy, EntryFilter.ALL)) {
            results.add(rewrite(plan));
        }
        commit(results, commitUser, identifier);
        return results;
    }

    /**
     * Commits rewritten {@code results} (from {@link #rewrite}, on any threads) as one COMPACT
     * snapshot under ({@code commitUser}, {@code identifier}); nothing when there are none.
     */
    public void commit(List<CompactResult> results, String commitUser, long identifier) {
        if (results.isEmpty()) {
            return;
        }
        List<CommitMessage> messages = new ArrayList<>();
        for (CompactResult r : results) {
            messages.add(r.toCommitMessage(table.schema().numBuckets()));
        }
        try (TableCommit commit = new TableCommit(table, commitUser)) {
            commit.commit(identifier, messages);
        }
    }
}
