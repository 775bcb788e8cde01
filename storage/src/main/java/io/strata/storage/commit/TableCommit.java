package io.strata.storage.commit;

import io.strata.storage.data.PartitionPath;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.fs.AtomicPublisher;
import io.strata.storage.fs.FileIO;
import io.strata.storage.fs.TablePaths;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.manifest.FileKind;
import io.strata.storage.manifest.ManifestEntry;
import io.strata.storage.manifest.ManifestFileMeta;
import io.strata.storage.manifest.ManifestStore;
import io.strata.storage.manifest.PartitionBucketFilter;
import io.strata.storage.options.CommitOptions;
import io.strata.storage.schema.TableSchema;
import io.strata.storage.snapshot.AutoTags;
import io.strata.storage.snapshot.CommitKind;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.snapshot.SnapshotManager;
import io.strata.storage.snapshot.SnapshotNotFoundException;
import io.strata.storage.store.TableContext;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The second phase of the two-phase commit: publishes the committables of a checkpoint (or batch)
 * as new snapshots. One instance per committer; {@code commitUser} identifies it across restarts
 * and {@code identifier}s must increase per user (a checkpoint id does).
 *
 * <p>Contract of {@link #commit}:
 * <ul>
 *   <li>Atomic: each snapshot appears whole or not at all, published with the table's
 *       {@link AtomicPublisher}; an existing snapshot is never replaced.</li>
 *   <li>Racing committers: the loser of snapshot N+1 re-reads the latest snapshot, re-checks
 *       conflicts and retries with back-off, up to {@code commit.max-retries}.</li>
 *   <li>Idempotent: if the latest snapshot of {@code commitUser} already has an identifier at or
 *       above {@code identifier}, the call does nothing (a replay after a crash).</li>
 *   <li>Appended files make an APPEND snapshot; compaction results a COMPACT snapshot after it.
 *       A conflict of the compaction part fails with {@link CommitConflictException}, leaves no
 *       trace in the table and deletes the compaction's new files.</li>
 * </ul>
 */
public final class TableCommit implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TableCommit.class);

    private final String tableName;
    private final TableSchema schema;
    private final String commitUser;
    private final FileIO io;
    private final TablePaths paths;
    private final SnapshotManager snapshots;
    private final ManifestStore manifests;
    private final AtomicPublisher publisher;
    private final Clock clock;
    private final ConflictDetection conflicts;
    private final int maxRetries;
    private final long minWait;
    private final long maxWait;
    private final AutoTags autoTags;

    /** Highest snapshot id already searched for this user's commits (-1: none yet). */
    private long checkedUpTo = -1;

    private long lastCommittedIdentifier = Long.MIN_VALUE;

    /** A committer of {@code table}'s snapshots under {@code commitUser}; times come from the table's clock. */
    public TableCommit(TableContext table, String commitUser) {
        this.tableName = table.name();
        this.schema = table.schema();
        this.commitUser = commitUser;
        this.io = table.fileIO();
        this.paths = table.paths();
        this.snapshots = table.snapshotManager();
        this.manifests = table.manifests();
        this.publisher = table.publisher();
        this.clock = table.clock();
        this.conflicts = new ConflictDetection(tableName, schema, manifests);
        this.maxRetries = schema.tableOptions().get(CommitOptions.MAX_RETRIES);
        this.minWait = schema.tableOptions().get(CommitOptions.MIN_RETRY_WAIT).toMillis();
        this.maxWait = schema.tableOptions().get(CommitOptions.MAX_RETRY_WAIT).toMillis();
        this.autoTags = new AutoTags(table.tagManager(), snapshots, publisher, schema.tableOptions(), clock);
    }

    public String commitUser() {
        return commitUser;
    }

    /**
     * Commits {@code messages} under {@code identifier}.
     *
     * @return the ids of the snapshots published (empty when skipped as already committed or empty)
     */
    public List<Long> commit(long identifier, List<CommitMessage> messages) {
        if (isCommitted(identifier)) {
            LOG.info(
                    "table {}: commit {} of user {} is already in a snapshot; skipped",
                    tableName,
                    identifier,
                    commitUser);
            return List.of();
        }
        List<ManifestEntry> append = new ArrayList<>();
        List<ManifestEntry> compact = new ArrayList<>();
        List<ManifestEntry> appendChangelog = new ArrayList<>();
        List<ManifestEntry> compactChangelog = new ArrayList<>();
        for (CommitMessage m : messages) {
            checkBuckets(m);
            for (DataFileMeta f : m.appendFiles()) {
                append.add(new ManifestEntry(FileKind.ADD, m.partition(), m.bucket(), m.totalBuckets(), f));
            }
            for (DataFileMeta f : m.changelogFiles()) {
                appendChangelog.add(new ManifestEntry(FileKind.ADD, m.partition(), m.bucket(), m.totalBuckets(), f));
            }
            for (DataFileMeta f : m.compactChangelogFiles()) {
                compactChangelog.add(new ManifestEntry(FileKind.ADD, m.partition(), m.bucket(), m.totalBuckets(), f));
            }
            for (DataFileMeta f : m.compactBefore()) {
                compact.add(new ManifestEntry(FileKind.DELETE, m.partition(), m.bucket(), m.totalBuckets(), f));
            }
            for (DataFileMeta f : m.compactAfter()) {
                compact.add(new ManifestEntry(FileKind.ADD, m.partition(), m.bucket(), m.totalBuckets(), f));
            }
        }
        List<Long> published = new ArrayList<>();
        boolean appending = !append.isEmpty() || !appendChangelog.isEmpty();
        if (appending) {
            published.add(commitEntries(CommitKind.APPEND, identifier, append, appendChangelog, messages));
        }
        if (!compact.isEmpty() || !compactChangelog.isEmpty()) {
            try {
                published.add(commitEntries(
                        CommitKind.COMPACT, identifier, compact, compactChangelog, appending ? null : messages));
            } catch (CommitConflictException e) {
                deleteNewFiles(messages);
                throw e;
            }
        }
        lastCommittedIdentifier = identifier;
        if (!published.isEmpty()) {
            tagAutomatically(published.get(published.size() - 1));
        }
        return published;
    }

    /** Automatic tags never fail a commit that is published: a failure is logged, the next commit tries again. */
    private void tagAutomatically(long snapshotId) {
        if (!autoTags.enabled()) {
            return; // reading the snapshot back would cost a read (a GET on S3) per commit for nothing
        }
        try {
            autoTags.afterCommit(snapshots.snapshot(snapshotId));
        } catch (RuntimeException e) {
            LOG.warn(
                    "table {}: snapshot {} committed, but its automatic tag was not created: {}",
                    tableName,
                    snapshotId,
                    e.toString());
        }
    }

    /**
     * Drops every file of {@code partitions} that the latest snapshot holds, as one OVERWRITE
     * snapshot under {@code identifier}. A compaction of those files that commits later conflicts
     * (its inputs are no longer live) and fails cleanly; it never brings the partition back. Files
     * appended to a partition after the latest snapshot was read stay.
     *
     * @return the snapshot published; empty when the partitions hold no file or the identifier was
     *     committed already
     */
    public Optional<Long> dropPartitions(long identifier, List<Object[]> partitions) {
        if (isCommitted(identifier)) {
            return Optional.empty();
        }
        Optional<Snapshot> latest = snapshots.latest();
        if (latest.isEmpty() || partitions.isEmpty()) {
            return Optional.empty();
        }
        EntryFilter inPartitions = new EntryFilter() {
            @Override
            public boolean accept(Object[] partition, int bucket) {
                for (Object[] p : partitions) {
                    if (Arrays.deepEquals(p, partition)) {
                        return true;
                    }
                }
                return false;
            }
        };
        List<ManifestEntry> deletes = new ArrayList<>();
        for (ManifestEntry e : manifests.scanner().scan(latest.get().baseManifestList(), inPartitions)) {
            deletes.add(new ManifestEntry(FileKind.DELETE, e.partition(), e.bucket(), e.totalBuckets(), e.file()));
        }
        if (deletes.isEmpty()) {
            return Optional.empty();
        }
        long id = commitEntries(CommitKind.OVERWRITE, identifier, deletes, List.of(), null);
        lastCommittedIdentifier = identifier;
        return Optional.of(id);
    }

    /**
     * Settles the durability of every file the messages add before any snapshot names them:
     * writers may hand data files over before they are on stable storage ({@code
     * FileIO#dataOutputFile}); a published snapshot must never name a file an OS crash could lose.
     * Files a compaction only moved to another level (in both its inputs and outputs) were made
     * durable by the commit that first named them and are skipped.
     */
    private void makeDurable(List<CommitMessage> messages) {
        List<Path> added = new ArrayList<>();
        for (CommitMessage m : messages) {
            String partitionPath = PartitionPath.of(schema.partitionKeys(), m.partition());
            Set<String> upgraded = new HashSet<>();
            for (DataFileMeta f : m.compactBefore()) {
                upgraded.add(f.fileName());
            }
            for (List<DataFileMeta> files :
                    List.of(m.appendFiles(), m.changelogFiles(), m.compactAfter(), m.compactChangelogFiles())) {
                for (DataFileMeta f : files) {
                    if (!upgraded.contains(f.fileName())) {
                        added.add(paths.dataFile(partitionPath, m.bucket(), f.fileName()));
                    }
                }
            }
        }
        try {
            io.makeDurable(added);
        } catch (IOException e) {
            throw new CommitFailedException(
                    "table " + tableName + ": " + e.getMessage() + "; nothing was committed", e);
        }
    }

    private void checkBuckets(CommitMessage m) {
        if (m.totalBuckets() != schema.numBuckets() || m.bucket() < 0 || m.bucket() >= m.totalBuckets()) {
            throw new IllegalArgumentException("table " + tableName + ": commit message for bucket " + m.bucket()
                    + " of " + m.totalBuckets() + " does not match the table's " + schema.numBuckets() + " buckets");
        }
    }

    /**
     * True if a snapshot of this user already carries {@code identifier} or a later one: a
     * {@link #commit} with it would be skipped. Committers that must decide what to do with a
     * replayed committable (re-plan it or drop it) ask this first.
     */
    public boolean isCommitted(long identifier) {
        if (identifier <= lastCommittedIdentifier) {
            return true;
        }
        OptionalLong latest = snapshots.latestId();
        if (latest.isEmpty()) {
            return false;
        }
        OptionalLong earliest = snapshots.earliestId();
        long stop = Math.max(checkedUpTo, earliest.isPresent() ? earliest.getAsLong() - 1 : 0);
        boolean found = false;
        for (long id = latest.getAsLong(); id > stop; id--) {
            Snapshot s;
            try {
                s = snapshots.snapshot(id);
            } catch (SnapshotNotFoundException expired) {
                break;
            }
            if (commitUser.equals(s.commitUser())) {
                lastCommittedIdentifier = Math.max(lastCommittedIdentifier, s.commitIdentifier());
                found = true;
                break;
            }
        }
        if (!found || checkedUpTo < latest.getAsLong()) {
            checkedUpTo = latest.getAsLong();
        }
        return identifier <= lastCommittedIdentifier;
    }

    /**
     * Writes the delta and changelog manifests of {@code entries} and the delta's manifest list,
     * then publishes them as one snapshot of {@code kind}. Everything written before the loop
     * depends on the entries only, not on the latest snapshot, so it is written once however many
     * attempts the race for the snapshot id takes, and removed again when the commit gives up.
     *
     * @param settle the messages whose added files must be made durable before the snapshot is
     *               published (after the manifests are written, so the writing overlaps the forces
     *               still running in the background), or null when an earlier call settled them
     */
    private long commitEntries(
            CommitKind kind,
            long identifier,
            List<ManifestEntry> entries,
            List<ManifestEntry> changelog,
            List<CommitMessage> settle) {
        long started = System.nanoTime();
        Prepared prepared = new Prepared();
        try {
            prepared.delta = manifests.manifestFile().write(entries);
            prepared.deltaList = manifests.manifestList().write(prepared.delta);
            prepared.changelogManifests = manifests.manifestFile().write(changelog);
            if (!changelog.isEmpty()) {
                prepared.changelogList = manifests.manifestList().write(prepared.changelogManifests);
            }
        } catch (IOException e) {
            prepared.abandon();
            throw new CommitFailedException("table " + tableName + ": cannot write manifests: " + e.getMessage(), e);
        }
        long changelogRows = 0;
        for (ManifestEntry e : changelog) {
            changelogRows += e.file().rowCount();
        }
        prepared.changelogRows = changelog.isEmpty() ? null : changelogRows;
        long recordDelta = 0;
        for (ManifestEntry e : entries) {
            recordDelta +=
                    e.kind() == FileKind.ADD ? e.file().rowCount() : -e.file().rowCount();
        }
        long manifestsWritten = System.nanoTime();
        if (settle != null) {
            try {
                makeDurable(settle);
            } catch (RuntimeException e) {
                prepared.abandon();
                throw e;
            }
        }
        long durable = System.nanoTime();
        for (int attempt = 0; ; attempt++) {
            Optional<Snapshot> latest;
            try {
                latest = snapshots.latest(); // unreadable: the prepared manifests go, as on a conflict
                conflicts.check(latest.orElse(null), entries);
            } catch (RuntimeException e) {
                prepared.abandon();
                throw e;
            }
            Optional<Long> id = tryPublish(kind, identifier, latest.orElse(null), prepared, recordDelta);
            if (id.isPresent()) {
                if (LOG.isDebugEnabled()) {
                    long now = System.nanoTime();
                    LOG.debug(
                            "table {}: snapshot {} ({}, {} entries) committed in {} ms: manifests {} ms, waiting for "
                                    + "the data files' durability {} ms, conflict check and publishing {} ms ({} attempts)",
                            tableName,
                            id.get(),
                            kind,
                            entries.size(),
                            (now - started) / 1_000_000,
                            (manifestsWritten - started) / 1_000_000,
                            (durable - manifestsWritten) / 1_000_000,
                            (now - durable) / 1_000_000,
                            attempt + 1);
                }
                return id.get();
            }
            if (attempt >= maxRetries) {
                prepared.abandon();
                throw new CommitFailedException(
                        "table " + tableName + ": " + kind + " commit " + identifier + " of " + commitUser
                                + " lost the race for a new snapshot " + (attempt + 1) + " times; giving up",
                        null);
            }
            backOff(attempt);
        }
    }

    /**
     * What a commit writes once, before racing for the snapshot id: its delta manifests and their
     * list, and its changelog manifests and their list (null when it has no changelog). Nothing
     * names them until a snapshot does; a commit that gives up deletes them ({@link #abandon}).
     */
    private final class Prepared {
        List<ManifestFileMeta> delta = List.of();
        String deltaList;
        List<ManifestFileMeta> changelogManifests = List.of();
        String changelogList;
        /** Rows of the changelog files; null when the commit has none. */
        Long changelogRows;

        void abandon() {
            deleteManifests(delta);
            deleteManifests(changelogManifests);
            for (String list : new String[] {deltaList, changelogList}) {
                if (list != null) {
                    deleteQuietly(manifests.manifestList().path(list));
                }
            }
        }
    }

    /**
     * One attempt: merges the latest snapshot's base manifests with the delta, writes the new base
     * list and publishes; empty if another committer took the snapshot id first (what this attempt
     * wrote is removed; {@code prepared} is kept for the next one). A failure before publishing
     * removes both. A failure of the publish itself whose outcome cannot be read back removes
     * nothing: the snapshot may exist, and a file it names must not go (an orphan is the lesser
     * harm; orphan cleanup takes it later).
     */
    private Optional<Long> tryPublish(
            CommitKind kind, long identifier, Snapshot latest, Prepared prepared, long recordDelta) {
        long newId = latest == null ? 1 : latest.id() + 1;
        List<ManifestFileMeta> written = new ArrayList<>();
        List<String> lists = new ArrayList<>();
        try {
            String baseList;
            try {
                List<ManifestFileMeta> base = new ArrayList<>();
                if (latest != null) {
                    base.addAll(manifests.manifestList().read(latest.baseManifestList()));
                }
                base.addAll(prepared.delta);
                List<ManifestFileMeta> merged = manifests.merger().merge(base, written);
                baseList = manifests.manifestList().write(merged);
                lists.add(baseList);
            } catch (RuntimeException unreadable) {
                // manifests report read failures unchecked; nothing is published yet, so clean up as for I/O
                throw new IOException(unreadable.getMessage(), unreadable);
            }
            long total = (latest == null ? 0 : latest.totalRecordCount()) + recordDelta;
            Snapshot s = new Snapshot(
                    newId,
                    schema.id(),
                    baseList,
                    prepared.deltaList,
                    prepared.changelogList,
                    commitUser,
                    identifier,
                    kind,
                    clock.millis(),
                    total,
                    recordDelta,
                    prepared.changelogRows,
                    latest == null ? null : latest.watermark());
            if (publishOrCheck(s)) {
                return Optional.of(newId); // commitEntries logs it, with its phases
            }
        } catch (IOException e) {
            if (e instanceof PublishOutcomeUnknown) {
                throw new CommitFailedException(
                        "table " + tableName + ": " + kind + " commit " + identifier
                                + " may or may not have published snapshot " + newId + " (it cannot be read back: "
                                + e.getMessage() + "); its files are kept",
                        e);
            }
            cleanup(written, lists);
            prepared.abandon();
            throw new CommitFailedException(
                    "table " + tableName + ": " + kind + " commit " + identifier + " failed before its snapshot "
                            + newId + " was published: " + e.getMessage(),
                    e);
        }
        cleanup(written, lists);
        return Optional.empty();
    }

    /**
     * Publishes, and when the publisher cannot say whether it succeeded, decides by reading the
     * snapshot back: ours (same user, identifier and base list) means success.
     */
    private boolean publishOrCheck(Snapshot s) throws IOException {
        try {
            return snapshots.publish(publisher, s);
        } catch (IOException e) {
            try {
                if (snapshots.exists(s.id())) {
                    Snapshot there = snapshots.snapshot(s.id());
                    return commitUser.equals(there.commitUser())
                            && there.commitIdentifier() == s.commitIdentifier()
                            && s.baseManifestList().equals(there.baseManifestList());
                }
            } catch (RuntimeException unreadable) { // SnapshotManager reports I/O failures unchecked
                e.addSuppressed(unreadable);
                throw new PublishOutcomeUnknown(e);
            }
            throw e; // the snapshot is not there: not published
        }
    }

    /** The publish failed and whether the snapshot exists could not be read back. */
    private static final class PublishOutcomeUnknown extends IOException {
        PublishOutcomeUnknown(IOException cause) {
            super(cause.getMessage(), cause);
        }
    }

    private void backOff(int attempt) {
        long wait = Math.min(maxWait, minWait << Math.min(attempt, 20));
        long jittered = wait / 2 + ThreadLocalRandom.current().nextLong(wait / 2 + 1);
        try {
            Thread.sleep(jittered);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommitFailedException("table " + tableName + ": interrupted while retrying a commit", e);
        }
    }

    private void cleanup(List<ManifestFileMeta> manifestsWritten, List<String> lists) {
        deleteManifests(manifestsWritten);
        for (String l : lists) {
            deleteQuietly(manifests.manifestList().path(l));
        }
    }

    private void deleteManifests(List<ManifestFileMeta> ms) {
        for (ManifestFileMeta m : ms) {
            deleteQuietly(paths.manifestFile(m.fileName()));
        }
    }

    /**
     * After a conflict: the compaction outputs were never committed; remove them (not upgraded
     * inputs). A file that is live in the latest snapshot is never deleted, whatever the message
     * says: a committable replayed after it was already committed (under another identifier or by
     * another attempt) must not take live data with it.
     */
    private void deleteNewFiles(List<CommitMessage> messages) {
        Set<String> live = liveFileNames(messages);
        for (CommitMessage m : messages) {
            Set<String> inputs = new HashSet<>();
            for (DataFileMeta f : m.compactBefore()) {
                inputs.add(f.fileName());
            }
            String partitionPath = PartitionPath.of(schema.partitionKeys(), m.partition());
            for (DataFileMeta f : m.compactAfter()) {
                if (!inputs.contains(f.fileName()) && !live.contains(f.fileName())) {
                    deleteQuietly(paths.dataFile(partitionPath, m.bucket(), f.fileName()));
                }
            }
            for (DataFileMeta f : m.compactChangelogFiles()) {
                if (!live.contains(f.fileName())) {
                    deleteQuietly(paths.dataFile(partitionPath, m.bucket(), f.fileName()));
                }
            }
        }
    }

    /**
     * Names of the data files live in the latest snapshot in the buckets of {@code messages}, and
     * of the changelog files its changelog manifest list references. When the snapshot cannot be
     * read, every file of the messages counts as live: better an orphan than a lost file.
     */
    private Set<String> liveFileNames(List<CommitMessage> messages) {
        Set<String> names = new HashSet<>();
        try {
            Optional<Snapshot> latest = snapshots.latest();
            if (latest.isEmpty()) {
                return names;
            }
            PartitionBucketFilter filter = new PartitionBucketFilter(schema.typesOf(schema.partitionIndexes()));
            for (CommitMessage m : messages) {
                filter.add(m.bucketId());
            }
            for (ManifestEntry e : manifests.scanner().scan(latest.get().baseManifestList(), filter)) {
                names.add(e.file().fileName());
            }
            if (latest.get().changelogManifestList() != null) {
                for (ManifestEntry e : manifests.scanner().entries(latest.get().changelogManifestList())) {
                    names.add(e.file().fileName());
                }
            }
        } catch (RuntimeException e) {
            LOG.warn(
                    "table {}: cannot read the latest snapshot to check files before deleting them; keeping them: {}",
                    tableName,
                    e.toString());
            for (CommitMessage m : messages) {
                m.compactAfter().forEach(f -> names.add(f.fileName()));
                m.compactChangelogFiles().forEach(f -> names.add(f.fileName()));
            }
        }
        return names;
    }

    private void deleteQuietly(Path p) {
        try {
            io.delete(p);
        } catch (IOException e) {
            LOG.warn("table {}: could not delete uncommitted file {}: {}", tableName, p, e.toString());
        }
    }

    /** Holds no open resources; closeable so committers scope it like the writer it pairs with. */
    @Override
    public void close() {}
}
