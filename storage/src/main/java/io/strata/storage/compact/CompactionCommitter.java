package io.strata.storage.compact;

import io.strata.storage.commit.CommitConflictException;
import io.strata.storage.commit.CommitMessage;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.BucketId;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.format.DataFilePathFactory;
import io.strata.storage.manifest.ManifestEntry;
import io.strata.storage.manifest.PartitionBucketFilter;
import io.strata.storage.snapshot.CommitKind;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.snapshot.SnapshotNotFoundException;
import io.strata.storage.store.TableContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits the results of a dedicated compaction of one table under one identifier, as one COMPACT
 * snapshot, and keeps going when another compaction got there first:
 * <ol>
 *   <li>an identifier this commit user already committed is skipped (a replay after failover);</li>
 *   <li>a result whose input files are no longer all live is stale: its new files are removed and
 *       its bucket is re-planned from the latest snapshot and rewritten here;</li>
 *   <li>a commit that still conflicts (a race inside the commit) is re-planned the same way, up to
 *       {@link #MAX_ATTEMPTS} times; then the buckets are left to the next round.</li>
 * </ol>
 * Ingestion never conflicts with a compaction (appends add level-0 files only), so conflicts come
 * from another compaction of the same bucket. At most one result per bucket is committed: a second
 * one is treated as stale.
 */
public final class CompactionCommitter {
    private static final Logger LOG = LoggerFactory.getLogger(CompactionCommitter.class);
    /** Commits of one identifier tried before its buckets are left to the next round. */
    public static final int MAX_ATTEMPTS = 3;
    /** Snapshots further back than this are not read one by one: the manifests are scanned instead. */
    static final int MAX_SNAPSHOTS_TO_READ = 64;

    /** What a commit did, for events and metrics. */
    public record Outcome(List<Long> snapshots, boolean skipped, int conflicts, int replanned, int committedBuckets) {
        static Outcome skippedAsCommitted() {
            return new Outcome(List.of(), true, 0, 0, 0);
        }
    }

    private final TableContext table;
    private final TableCompactor compactor;
    private final String commitUser;
    private final CompactStrategy strategy;

    /** @param strategy what stale buckets are re-planned with (the strategy their results were planned with) */
    public CompactionCommitter(TableContext table, String commitUser, CompactStrategy strategy) {
        this.table = table;
        this.compactor = new TableCompactor(table);
        this.commitUser = commitUser;
        this.strategy = strategy;
    }

    /**
     * Commits {@code results}, compaction messages of distinct or repeated buckets, under
     * {@code identifier}.
     *
     * @param plannedFromSnapshot the oldest snapshot any of the results was planned from; 0 when not known
     */
    public Outcome commit(long identifier, List<CommitMessage> results, long plannedFromSnapshot) {
        try (TableCommit commit = new TableCommit(table, commitUser)) {
            if (commit.isCommitted(identifier)) {
                LOG.info(
                        "table {}: commit {} of {} is already in the table; skipped",
                        table.name(),
                        identifier,
                        commitUser);
                return Outcome.skippedAsCommitted();
            }
            if (results.isEmpty()) {
                return new Outcome(List.of(), false, 0, 0, 0);
            }
            return commitNew(commit, identifier, results, plannedFromSnapshot);
        }
    }

    private Outcome commitNew(
            TableCommit commit, long identifier, List<CommitMessage> results, long plannedFromSnapshot) {
        int conflicts = 0;
        int replanned = 0;
        List<CommitMessage> messages = new ArrayList<>();
        Set<BucketId> buckets = new HashSet<>();
        List<CommitMessage> stale = new ArrayList<>();
        Optional<Snapshot> latest = table.snapshotManager().latest();
        Set<String> live = onlyAppendedSince(plannedFromSnapshot, latest) ? null : liveFiles(results, latest);
        for (CommitMessage m : results) {
            boolean inputsLive = live == null || live.containsAll(BucketPlan.namesOf(m.compactBefore()));
            if (inputsLive && buckets.add(m.bucketId())) {
                messages.add(m);
            } else {
                stale.add(m);
            }
        }
        if (!stale.isEmpty() && live == null) {
            live = liveFiles(results, latest);
        }
        for (CommitMessage m : stale) {
            conflicts++;
            discard(m, live);
            if (buckets.add(m.bucketId())) {
                Optional<CommitMessage> redo = replan(m.bucketId());
                if (redo.isPresent()) {
                    messages.add(redo.get());
                    replanned++;
                }
            }
        }
        for (int attempt = 1; !messages.isEmpty(); attempt++) {
            try {
                List<Long> snapshots = commit.commit(identifier, messages);
                return new Outcome(snapshots, false, conflicts, replanned, messages.size());
            } catch (CommitConflictException e) {
                // TableCommit removed the new files of every message; redo them from the latest snapshot
                conflicts++;
                if (attempt >= MAX_ATTEMPTS) {
                    LOG.warn(
                            "table {}: commit {} conflicted {} times; leaving {} buckets to the next round: {}",
                            table.name(),
                            identifier,
                            attempt,
                            messages.size(),
                            e.getMessage());
                    return new Outcome(List.of(), false, conflicts, replanned, 0);
                }
                LOG.info(
                        "table {}: commit {} conflicted ({}); re-planning {} buckets",
                        table.name(),
                        identifier,
                        e.getMessage(),
                        messages.size());
                List<CommitMessage> redo = new ArrayList<>();
                for (CommitMessage m : messages) {
                    replan(m.bucketId()).ifPresent(redo::add);
                }
                replanned += redo.size();
                messages = redo;
            }
        }
        return new Outcome(List.of(), false, conflicts, replanned, 0);
    }

    /** The bucket planned afresh from the latest snapshot and rewritten; empty when nothing is left to do. */
    private Optional<CommitMessage> replan(BucketId bucket) {
        return compactor
                .planBucket(bucket, strategy)
                .map(p -> compactor.rewrite(p).toCommitMessage(table.schema().numBuckets()));
    }

    /** Removes the new files of a result that will not be committed; files live in the table are kept. */
    private void discard(CommitMessage m, Set<String> live) {
        Set<String> inputs = BucketPlan.namesOf(m.compactBefore());
        List<DataFileMeta> written = new ArrayList<>();
        for (DataFileMeta f : m.compactAfter()) {
            if (!inputs.contains(f.fileName())) {
                if (live.contains(f.fileName())) {
                    return; // committed once already (a replay): nothing of it is garbage
                }
                written.add(f);
            }
        }
        written.addAll(m.compactChangelogFiles());
        DataFilePathFactory paths = table.bucketPaths(m.bucketId());
        for (DataFileMeta f : written) {
            try {
                table.fileIO().delete(paths.toPath(f.fileName()));
            } catch (IOException e) {
                LOG.warn("table {}: cannot delete uncommitted file {}: {}", table.name(), f.fileName(), e.toString());
            }
        }
    }

    /**
     * True when every result's inputs are certainly still live, known without reading manifests:
     * each result's inputs were live in the snapshot it was planned from, and every snapshot since
     * {@code plannedFrom} only appended files, which removes nothing. The usual case of a batch job;
     * it saves a scan of the table's manifests. False when that cannot be told: a COMPACT or
     * OVERWRITE snapshot in between, one already expired, or too many to read.
     */
    private boolean onlyAppendedSince(long plannedFrom, Optional<Snapshot> latest) {
        if (plannedFrom <= 0
                || latest.isEmpty()
                || latest.get().id() < plannedFrom
                || latest.get().id() - plannedFrom > MAX_SNAPSHOTS_TO_READ) {
            return false;
        }
        for (long id = plannedFrom + 1; id <= latest.get().id(); id++) {
            try {
                if (table.snapshotManager().snapshot(id).commitKind() != CommitKind.APPEND) {
                    return false;
                }
            } catch (SnapshotNotFoundException expired) {
                return false;
            }
        }
        return true;
    }

    /** The live files of the results' buckets in {@code latest}. */
    private Set<String> liveFiles(List<CommitMessage> results, Optional<Snapshot> latest) {
        Set<String> names = new HashSet<>();
        if (latest.isEmpty()) {
            return names;
        }
        PartitionBucketFilter filter =
                new PartitionBucketFilter(table.schema().typesOf(table.schema().partitionIndexes()));
        for (CommitMessage m : results) {
            filter.add(m.bucketId());
        }
        for (ManifestEntry e : table.manifests().scanner().scan(latest.get().baseManifestList(), filter)) {
            names.add(e.file().fileName());
        }
        return names;
    }
}
