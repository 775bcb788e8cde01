package io.strata.compaction.commit;

import io.strata.compaction.job.FileNames;
import io.strata.compaction.rewrite.BucketRewrite;
import io.strata.compaction.rewrite.CompactionCommittable;
import io.strata.storage.commit.CommitConflictException;
import io.strata.storage.commit.CommitMessage;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.PartitionPath;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.manifest.ManifestEntry;
import io.strata.storage.manifest.PartitionBucketFilter;
import io.strata.storage.snapshot.CommitKind;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.snapshot.SnapshotNotFoundException;
import io.strata.storage.table.FileStoreTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits the compaction results of one table under one identifier, as one COMPACT snapshot, and
 * keeps the job going when another compaction got there first:
 * <ol>
 *   <li>an identifier this commit user already committed is skipped (a replay after failover);</li>
 *   <li>a result whose input files are no longer all live is stale: its files are removed and
 *       its bucket is re-planned from the latest snapshot and rewritten here;</li>
 *   <li>a commit that still conflicts (a race inside the commit) is re-planned the same way, up to
 *       {@link #MAX_ATTEMPTS} times; then the buckets are left for the next round.</li>
 * </ol>
 * Ingestion never conflicts with a compaction (appends add level-0 files only), so conflicts come
 * from another compaction of the same bucket.
 */
final class TableCommitPass {
    private static final Logger LOG = LoggerFactory.getLogger(TableCommitPass.class);
    static final int MAX_ATTEMPTS = 3;

    /** The outcome, for events and metrics. */
    static final class Outcome {
        List<Long> snapshots = List.of();
        boolean skipped;
        int conflicts;
        int replanned;
        int committedBuckets;
    }

    private final FileStoreTable table;
    private final String commitUser;

    TableCommitPass(FileStoreTable table, String commitUser) {
        this.table = table;
        this.commitUser = commitUser;
    }

    Outcome commit(long identifier, List<CompactionCommittable> committables) {
        Outcome outcome = new Outcome();
        TableCommit commit = table.newCommit(commitUser);
        if (commit.isCommitted(identifier)) {
            LOG.info("table {}: commit {} of {} is already in the table; skipped", table.name(), identifier, commitUser);
            outcome.skipped = true;
            return outcome;
        }
        // one message per bucket: a bucket compacted twice (it should not happen, but a planner bug once
        // made it) would conflict with itself forever; the second result is treated as stale
        if (committables.isEmpty()) {
            return outcome;
        }
        // the job plans a table with one strategy, so every result of this pass carries the same one
        CompactStrategy strategy = CompactStrategy.parse(committables.get(0).strategy);
        List<CommitMessage> results = new ArrayList<>(committables.size());
        committables.forEach(c -> results.add(c.commitMessage()));
        List<CommitMessage> messages = new ArrayList<>();
        Set<String> buckets = new HashSet<>();
        List<CommitMessage> stale = new ArrayList<>();
        Optional<Snapshot> latest = table.snapshotManager().latest();
        Set<String> live = onlyAppendedSincePlanning(committables, latest) ? null : liveFiles(results, latest);
        for (CommitMessage m : results) {
            boolean inputsLive = live == null || FileNames.of(m.compactBefore()).stream().allMatch(live::contains);
            if (inputsLive && buckets.add(bucketOf(m))) {
                messages.add(m);
            } else {
                stale.add(m);
            }
        }
        if (!stale.isEmpty() && live == null) {
            live = liveFiles(results, latest);
        }
        for (CommitMessage m : stale) {
            outcome.conflicts++;
            discard(m, live);
            if (buckets.add(bucketOf(m))) {
                replan(m, strategy).ifPresent(r -> {
                    messages.add(r);
                    outcome.replanned++;
                });
            }
        }
        for (int attempt = 1; !messages.isEmpty(); attempt++) {
            try {
                outcome.snapshots = commit.commit(identifier, messages);
                outcome.committedBuckets = messages.size();
                return outcome;
            } catch (CommitConflictException e) {
                // TableCommit removed the new files of every message; redo them from the latest snapshot
                outcome.conflicts++;
                if (attempt >= MAX_ATTEMPTS) {
                    LOG.warn("table {}: commit {} conflicted {} times; leaving {} buckets to the next round: {}",
                            table.name(), identifier, attempt, messages.size(), e.getMessage());
                    return outcome;
                }
                LOG.info("table {}: commit {} conflicted ({}); re-planning {} buckets", table.name(), identifier,
                        e.getMessage(), messages.size());
                List<CommitMessage> redo = new ArrayList<>();
                for (CommitMessage m : messages) {
                    replan(m, strategy).ifPresent(redo::add);
                }
                outcome.replanned += redo.size();
                messages.clear();
                messages.addAll(redo);
            }
        }
        return outcome;
    }

    private static String bucketOf(CommitMessage m) {
        return java.util.Arrays.deepToString(m.partition()) + "/" + m.bucket();
    }

    private Optional<CommitMessage> replan(CommitMessage m, CompactStrategy strategy) {
        return BucketRewrite.run(table, m.partition(), m.bucket(), 0, strategy)
                .map(CompactionCommittable::commitMessage);
    }

    /** Removes the new files of a result that will not be committed; files live in the table are kept. */
    private void discard(CommitMessage m, Set<String> live) {
        Set<String> inputs = FileNames.of(m.compactBefore());
        String partitionPath = PartitionPath.of(table.schema().partitionKeys(), m.partition());
        List<DataFileMeta> out = new ArrayList<>(m.compactAfter());
        boolean anyLive = out.stream().anyMatch(f -> !inputs.contains(f.fileName()) && live.contains(f.fileName()));
        if (anyLive) {
            return; // already committed once: nothing of it is garbage
        }
        out.addAll(m.compactChangelogFiles());
        for (DataFileMeta f : out) {
            if (!inputs.contains(f.fileName())) {
                try {
                    table.fileIO().delete(table.paths().dataFile(partitionPath, m.bucket(), f.fileName()));
                } catch (IOException e) {
                    LOG.warn("table {}: cannot delete uncommitted file {}: {}", table.name(), f.fileName(), e.toString());
                }
            }
        }
    }

    /** Snapshots further back than this are not read one by one: the manifests are scanned instead. */
    static final int MAX_SNAPSHOTS_TO_READ = 64;

    /**
     * True when every result's inputs are certainly still live, known without reading manifests:
     * each result's inputs were live in the snapshot it was planned from, and every snapshot since
     * the oldest of those only appended files (ingestion), which removes nothing. The usual case of
     * a batch job, whose results are planned from the latest snapshot; it saves a scan of the
     * table's manifests (about 10 ms of a 60 ms commit). False when that cannot be told: a COMPACT
     * or OVERWRITE snapshot in between, one already expired, or too many to read.
     */
    private boolean onlyAppendedSincePlanning(List<CompactionCommittable> committables, Optional<Snapshot> latest) {
        long oldest = committables.stream().mapToLong(c -> c.plannedFromSnapshot).min().orElse(0);
        if (oldest <= 0 || latest.isEmpty() || latest.get().id() < oldest
                || latest.get().id() - oldest > MAX_SNAPSHOTS_TO_READ) {
            return false;
        }
        for (long id = oldest + 1; id <= latest.get().id(); id++) {
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
        PartitionBucketFilter filter = new PartitionBucketFilter(table.schema().typesOf(table.schema().partitionIndexes()));
        for (CommitMessage m : results) {
            filter.add(m.partition(), m.bucket());
        }
        for (ManifestEntry e : table.manifests().scanner().scan(latest.get().baseManifestList(), filter)) {
            names.add(e.file().fileName());
        }
        return names;
    }

}
