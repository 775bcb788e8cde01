package io.strata.storage.compact;

import io.strata.storage.commit.CommitMessage;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.ValueComparators;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.manifest.ManifestEntry;
import io.strata.storage.mergetree.Levels;
import io.strata.storage.options.CompactionOptions;
import io.strata.storage.options.TableOptions;
import io.strata.storage.options.WriteOptions;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.store.TableContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
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

    public TableCompactor(TableContext table) {
        if (!table.schema().hasPrimaryKey()) {
            throw new IllegalArgumentException("table " + table.name() + " has no primary key: nothing to compact");
        }
        this.table = table;
        TableOptions o = table.schema().tableOptions();
        this.keyComparator = ValueComparators.forTuple(table.schema().typesOf(table.schema().primaryKeyIndexes()));
        this.numLevels = numLevels(o);
        UniversalCompaction universal = new UniversalCompaction(o.get(CompactionOptions.MAX_SIZE_AMPLIFICATION_PERCENT),
                o.get(CompactionOptions.SIZE_RATIO), o.get(CompactionOptions.COMPACTION_TRIGGER));
        this.planner = new CompactPlanner(universal, keyComparator, o.get(WriteOptions.TARGET_FILE_SIZE),
                o.get(CompactionOptions.SMALL_FILE_RATIO));
    }

    /** {@code num-levels}, default {@code num-sorted-run.compaction-trigger + 1} (derived in its declaration). */
    public static int numLevels(TableOptions o) {
        return o.get(CompactionOptions.NUM_LEVELS);
    }

    public CompactPlanner planner() {
        return planner;
    }

    /** The LSM shape of every bucket of {@code snapshot}, keyed by (partition..., bucket). */
    public Map<List<Object>, Levels> levels(Snapshot snapshot, EntryFilter filter) {
        Map<List<Object>, List<ManifestEntry>> byBucket = new LinkedHashMap<>();
        for (ManifestEntry e : table.manifests().scanner().scan(snapshot.baseManifestList(), filter)) {
            List<Object> k = new ArrayList<>(Arrays.asList(e.partition()));
            k.add(e.bucket());
            byBucket.computeIfAbsent(k, x -> new ArrayList<>()).add(e);
        }
        Map<List<Object>, Levels> out = new LinkedHashMap<>();
        for (Map.Entry<List<Object>, List<ManifestEntry>> e : byBucket.entrySet()) {
            List<DataFileMeta> files = new ArrayList<>();
            for (ManifestEntry m : e.getValue()) {
                files.add(m.file());
            }
            out.put(e.getKey(), levelsOf(files));
        }
        return out;
    }

    /** The LSM shape of one bucket holding exactly {@code files} (e.g. as read by {@link #levels} earlier). */
    public Levels levelsOf(List<DataFileMeta> files) {
        return Levels.of(files, numLevels, keyComparator);
    }

    /** Plans every bucket of the latest snapshot that {@code filter} accepts. */
    public List<CompactPlan> plan(CompactStrategy strategy, EntryFilter filter) {
        Optional<Snapshot> latest = table.snapshotManager().latest();
        List<CompactPlan> plans = new ArrayList<>();
        if (latest.isEmpty()) {
            return plans;
        }
        for (Map.Entry<List<Object>, Levels> e : levels(latest.get(), filter).entrySet()) {
            List<Object> k = e.getKey();
            Object[] partition = k.subList(0, k.size() - 1).toArray();
            int bucket = (Integer) k.get(k.size() - 1);
            planner.plan(partition, bucket, e.getValue(), strategy).ifPresent(plans::add);
        }
        return plans;
    }

    /** Rewrites one plan; nothing is committed. */
    public CompactResult rewrite(CompactPlan plan) {
        try (CompactRewriter rewriter = new CompactRewriter(table)) {
            return rewriter.rewrite(plan);
        } catch (IOException e) {
            throw new UncheckedIOException("table " + table.name() + ": compaction of bucket " + plan.bucket()
                    + " failed: " + e.getMessage(), e);
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
