package io.strata.storage.maintenance;

import io.strata.storage.data.PartitionPath;
import io.strata.storage.fs.FileIO;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.manifest.FileKind;
import io.strata.storage.manifest.ManifestEntry;
import io.strata.storage.manifest.ManifestFileMeta;
import io.strata.storage.manifest.ManifestList;
import io.strata.storage.options.ChangelogOptions;
import io.strata.storage.options.ChangelogOptions.Producer;
import io.strata.storage.options.ExpireOptions;
import io.strata.storage.options.TableOptions;
import io.strata.storage.snapshot.ChangelogManager;
import io.strata.storage.snapshot.ConsumerManager;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.snapshot.SnapshotManager;
import io.strata.storage.snapshot.SnapshotNotFoundException;
import io.strata.storage.snapshot.Tag;
import io.strata.storage.store.TableContext;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.LongFunction;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Expires a table's oldest snapshots by its retention options ({@link ExpireOptions}) and deletes
 * the files only they referenced. Never loses data a retained snapshot can read:
 *
 * <ol>
 *   <li><b>Plan</b> from metadata only: the range {@code [earliest, N)} to expire, then every file
 *       that no snapshot from {@code N} on references: data files the snapshots {@code earliest+1
 *       .. N} deleted and {@code N} does not hold, the changelog files of the expired snapshots,
 *       their manifests that {@code N}'s manifest lists do not name, and their manifest lists. A
 *       manifest that cannot be read fails the run before anything is deleted (fail closed).
 *   <li><b>Journal</b>: the plan is written to {@code snapshot/expiring-<from>-<to>.json} before
 *       anything is deleted, so a run that crashes later is finished by the next one.
 *   <li><b>Snapshot files first</b>, oldest first: a reader that starts from the earliest snapshot
 *       never meets a snapshot whose files are gone, and one that asks for an expired snapshot
 *       is told it expired ({@link SnapshotManager#snapshot}).
 *   <li><b>Then the files</b>: data and changelog files, checked against the latest snapshot just
 *       before (a file live there is never deleted, whatever the plan says), then manifests,
 *       then manifest lists; a file already gone counts as deleted.
 *   <li>The journal is deleted last.
 * </ol>
 *
 * <p>Memory holds file names, never manifest entries of more than one manifest list at a time,
 * except the live set of the new earliest and of the latest snapshot, and the snapshots of the
 * range being planned (at most {@code snapshot.expire.limit + 1}, each read once).
 */
public final class SnapshotExpiration {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotExpiration.class);

    private final TableContext table;
    private final SnapshotManager snapshots;
    private final FileIO io;
    private BulkDelete bulkDelete;

    public SnapshotExpiration(TableContext table) {
        this.table = table;
        this.snapshots = table.snapshotManager();
        this.io = table.fileIO();
        this.bulkDelete = BulkDelete.local(table);
    }

    /**
     * Deletes the data, changelog, manifest and manifest-list files through {@code bulk} (a
     * Flink job for large tables) instead of in this process; the plan, the journal, the snapshot
     * files, the order of stages and the check against the latest snapshot stay here.
     */
    public SnapshotExpiration deletingWith(BulkDelete bulk) {
        this.bulkDelete = bulk;
        return this;
    }

    /** What {@link #expire()} would do now to the snapshots; deletes nothing. */
    public ExpirePlan plan() {
        List<Tag> tags = table.tagManager().list();
        return plan(tags, changelogPlan(tags));
    }

    private ChangelogExpiration.Plan changelogPlan(List<Tag> tags) {
        Retention r = Retention.of(table.name(), table.schema().tableOptions());
        return new ChangelogExpiration(table, bulkDelete).plan(r.changelog, r.limit, consumerFrom(r), tags);
    }

    /**
     * The plan, keeping what {@code tags} read and what the kept changelogs that {@code changelog}
     * does not expire hold.
     */
    private ExpirePlan plan(List<Tag> tags, ChangelogExpiration.Plan changelog) {
        Retention r = Retention.of(table.name(), table.schema().tableOptions());
        OptionalLong latest = snapshots.latestId();
        OptionalLong earliest = snapshots.earliestId();
        if (latest.isEmpty() || earliest.isEmpty()) {
            return new ExpirePlan(0, 0, 0, ExpirePlan.HeldBack.NO_SNAPSHOTS, "", List.of(), 0);
        }
        long from = earliest.getAsLong();
        long last = latest.getAsLong();
        // each snapshot of the range is read once per plan: at most snapshot.expire.limit + 1 are held
        Map<Long, Snapshot> read = new HashMap<>();
        LongFunction<Snapshot> snapshot = id -> read.computeIfAbsent(id, snapshots::snapshot);
        // ids below keepFrom may go; ids below mustGo go whatever their age
        long keepFrom = last - r.retainMin + 1;
        long mustGo = r.retainMax == null ? Long.MIN_VALUE : last - r.retainMax + 1;
        long limitEnd = from + r.limit;
        long cutoff = table.clock().millis() - r.timeRetained.toMillis();
        // a consumer's next snapshot and the later ones stay
        long consumerFrom = Long.MAX_VALUE;
        String consumerDetail = "";
        for (ConsumerManager.Consumer c : liveConsumers(r)) {
            if (c.nextSnapshot() < consumerFrom) {
                consumerFrom = c.nextSnapshot();
                consumerDetail = "consumer '" + c.id() + "' reads snapshot " + c.nextSnapshot() + " next";
            }
        }
        // with consumer.changelog-only a consumer holds back the changelog, not the snapshots
        long snapshotConsumerFrom = r.consumerChangelogOnly ? Long.MAX_VALUE : consumerFrom;
        long to = from;
        ExpirePlan.HeldBack held;
        String detail = "";
        while (true) {
            if (to >= keepFrom) {
                held = ExpirePlan.HeldBack.MIN_RETAINED;
                break;
            }
            if (to >= snapshotConsumerFrom) {
                held = ExpirePlan.HeldBack.CONSUMER;
                detail = consumerDetail;
                break;
            }
            if (to >= limitEnd) {
                held = ExpirePlan.HeldBack.LIMIT;
                break;
            }
            if (to >= mustGo && snapshot.apply(to).timeMillis() >= cutoff) {
                held = ExpirePlan.HeldBack.TIME_RETAINED;
                break;
            }
            to++;
        }
        if (to == from) {
            return new ExpirePlan(from, to, last, held, detail, List.of(), to);
        }
        List<Long> stillKept = new ArrayList<>();
        for (long id : table.changelogManager().ids()) {
            if (id < changelog.fromId() || id >= changelog.toId()) {
                stillKept.add(id);
            }
        }
        // the kept changes stay contiguous: after a kept changelog that stays, every one is kept
        long changelogKeptFrom =
                stillKept.isEmpty() ? changelogKeptFrom(snapshot, from, to, last, consumerFrom, r.changelog) : from;
        List<TableFile> files;
        try {
            files = filesOnlyReferencedBy(snapshot, from, to, changelogKeptFrom, stillKept, pinnedBefore(tags, to));
        } catch (RuntimeException e) {
            OptionalLong now = snapshots.earliestId();
            if (now.isPresent() && now.getAsLong() != from) {
                // another expiration removed the snapshots this plan was reading: fail closed, clearly
                SnapshotNotFoundException concurrent = new SnapshotNotFoundException("table " + table.name()
                        + ": another expiration removed snapshots from " + from + " while this one planned; nothing "
                        + "was deleted (earliest retained is now " + now.getAsLong() + ")");
                concurrent.initCause(e);
                throw concurrent;
            }
            throw e;
        }
        return new ExpirePlan(from, to, last, held, detail, files, changelogKeptFrom);
    }

    /**
     * The first id of {@code [from, to)} whose changes changelog retention keeps, or a consumer has
     * not read; {@code to} when it keeps none. From there on every id is kept: retention stops at
     * the first id it keeps.
     */
    private long changelogKeptFrom(
            LongFunction<Snapshot> snapshot, long from, long to, long latest, long consumerFrom, ChangelogRetention c) {
        long now = table.clock().millis();
        long id = from;
        while (id < to
                && id < consumerFrom
                && c.mayGo(id, latest, snapshot.apply(id).timeMillis(), now)) {
            id++;
        }
        return id;
    }

    /** Finishes interrupted earlier runs, then expires what {@link #plan()} says. */
    public ExpireResult expire() {
        List<TableFile> deleted = new ArrayList<>();
        int resumed = 0;
        for (Path journal : journals()) {
            Optional<ExpirationJournal> read = ExpirationJournal.read(io, journal);
            if (read.isEmpty()) {
                continue; // finished by a concurrent run since it was listed
            }
            ExpirationJournal j = read.get();
            LOG.info(
                    "table {}: finishing an interrupted expiration of snapshots {}..{}",
                    table.name(),
                    j.from(),
                    j.to() - 1);
            execute(journal, j.from(), j.to(), j.changelogKeptFrom(), j.files(), deleted);
            resumed++;
        }
        List<String> tagsExpired = expireTags();
        Retention r = Retention.of(table.name(), table.schema().tableOptions());
        expireConsumers(r);
        // the kept changelogs first: what stays of them decides what this run keeps of its range
        ChangelogExpiration.Plan changelog = new ChangelogExpiration(table, bulkDelete)
                .expire(
                        r.changelog,
                        r.limit,
                        consumerFrom(r),
                        table.tagManager().list(),
                        deleted);
        List<Tag> pinned = table.tagManager().list();
        ExpirePlan plan = plan(pinned, changelog);
        if (!plan.isEmpty()) {
            Path journal = snapshots.expirationJournal(plan.fromId(), plan.toId());
            new ExpirationJournal(plan.fromId(), plan.toId(), plan.changelogKeptFrom(), plan.files())
                    .write(io, journal, table.name());
            // a tag created meanwhile on a snapshot of the range would lose files: give up this run
            Set<String> before = tagKeys(pinned, plan.toId());
            for (Tag t : table.tagManager().list()) {
                if (t.snapshot().id() < plan.toId()
                        && !before.contains(t.name() + "@" + t.snapshot().id())) {
                    deleteQuietly(journal);
                    throw new IllegalStateException("table " + table.name() + ": tag '" + t.name() + "' was created on"
                            + " snapshot " + t.snapshot().id() + " while snapshots " + plan.fromId() + ".."
                            + (plan.toId() - 1) + " were being expired; nothing was deleted; run again");
                }
            }
            execute(journal, plan.fromId(), plan.toId(), plan.changelogKeptFrom(), plan.files(), deleted);
            LOG.info(
                    "table {}: expired snapshots {}..{} ({} kept: {}), deleted {} files",
                    table.name(),
                    plan.fromId(),
                    plan.toId() - 1,
                    plan.latestId() - plan.toId() + 1,
                    plan.heldBackBy(),
                    deleted.size());
        }
        return new ExpireResult(
                plan, deleted, resumed, tagsExpired, false, changelog.fromId(), changelog.toId(), changelog.files());
    }

    /**
     * Expires only the kept changelogs ({@code changelog/changelog-<id>}, the changes of snapshots
     * that expired already) by changelog retention ({@code changelog.*}), as {@link #expire()} does
     * before it expires snapshots: oldest first, at most {@code snapshot.expire.limit}, never one a
     * live consumer has not read, nothing a tag or a retained snapshot holds; interrupted changelog
     * expirations are finished first. Snapshots, tags and consumers are left as they are.
     */
    public ChangelogExpireResult expireChangelogs() {
        Retention r = Retention.of(table.name(), table.schema().tableOptions());
        List<TableFile> deleted = new ArrayList<>();
        ChangelogExpiration.Plan p = new ChangelogExpiration(table, bulkDelete)
                .expire(
                        r.changelog,
                        r.limit,
                        consumerFrom(r),
                        table.tagManager().list(),
                        deleted);
        return new ChangelogExpireResult(p.fromId(), p.toId(), deleted);
    }

    /** {@link #plan()} as a result that deleted nothing. */
    public ExpireResult dryRun() {
        List<Tag> tags = table.tagManager().list();
        ChangelogExpiration.Plan changelog = changelogPlan(tags);
        return new ExpireResult(
                plan(tags, changelog),
                List.of(),
                0,
                List.of(),
                true,
                changelog.fromId(),
                changelog.toId(),
                changelog.files());
    }

    /** Deletes the tags whose retention has passed; their files go with the next expiration or orphan cleanup. */
    private List<String> expireTags() {
        List<String> names = new ArrayList<>();
        long now = table.clock().millis();
        for (Tag t : table.tagManager().list()) {
            if (t.isExpiredAt(now) && table.tagManager().delete(t.name())) {
                LOG.info(
                        "table {}: tag '{}' (snapshot {}) expired",
                        table.name(),
                        t.name(),
                        t.snapshot().id());
                names.add(t.name());
            }
        }
        return names;
    }

    /** The lowest next snapshot of a live consumer; {@code Long.MAX_VALUE} when there is none. */
    private long consumerFrom(Retention r) {
        long from = Long.MAX_VALUE;
        for (ConsumerManager.Consumer c : liveConsumers(r)) {
            from = Math.min(from, c.nextSnapshot());
        }
        return from;
    }

    /** Consumers whose positions are fresh enough to hold snapshots back. */
    private List<ConsumerManager.Consumer> liveConsumers(Retention r) {
        List<ConsumerManager.Consumer> live = new ArrayList<>();
        long now = table.clock().millis();
        for (ConsumerManager.Consumer c : table.consumerManager().list()) {
            if (r.consumerExpiration == null || c.updatedMillis() + r.consumerExpiration.toMillis() > now) {
                live.add(c);
            }
        }
        return live;
    }

    /** Drops consumers not updated for {@code consumer.expiration-time}. */
    private void expireConsumers(Retention r) {
        if (r.consumerExpiration == null) {
            return;
        }
        long now = table.clock().millis();
        for (ConsumerManager.Consumer c : table.consumerManager().list()) {
            if (c.updatedMillis() + r.consumerExpiration.toMillis() <= now
                    && table.consumerManager().delete(c.id())) {
                LOG.info(
                        "table {}: consumer '{}' (next snapshot {}) not updated for {}; dropped",
                        table.name(),
                        c.id(),
                        c.nextSnapshot(),
                        r.consumerExpiration);
            }
        }
    }

    /** The snapshots tags hold below {@code to}: their files stay though the snapshots go. */
    private static List<Snapshot> pinnedBefore(List<Tag> tags, long to) {
        List<Snapshot> out = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        for (Tag t : tags) {
            if (t.snapshot().id() < to && seen.add(t.snapshot().id())) {
                out.add(t.snapshot());
            }
        }
        return out;
    }

    private static Set<String> tagKeys(List<Tag> tags, long to) {
        Set<String> keys = new HashSet<>();
        for (Tag t : tags) {
            if (t.snapshot().id() < to) {
                keys.add(t.name() + "@" + t.snapshot().id());
            }
        }
        return keys;
    }

    private void deleteQuietly(Path p) {
        try {
            io.delete(p);
        } catch (IOException e) {
            LOG.warn("table {}: cannot delete {}: {}", table.name(), p, e.toString());
        }
    }

    private void execute(
            Path journal, long from, long to, long changelogKeptFrom, List<TableFile> files, List<TableFile> deleted) {
        try {
            // every changelog kept is written before the first snapshot file goes: a rerun after a
            // crash finds each snapshot of the range, or its changelog written already
            for (long id = changelogKeptFrom; id < to; id++) {
                if (!table.changelogManager().exists(id)) {
                    try {
                        table.changelogManager().keep(snapshots.snapshot(id));
                    } catch (SnapshotNotFoundException gone) {
                        // deleted by a concurrent run of the same journal, after it wrote the changelog
                        if (!table.changelogManager().exists(id)) {
                            throw gone;
                        }
                    }
                }
            }
            for (long id = from; id < to; id++) {
                Path p = snapshots.snapshotPath(id);
                if (io.delete(p)) {
                    deleted.add(new TableFile(TableFile.Kind.SNAPSHOT, p.toString(), -1));
                }
            }
            io.overwriteHint(table.paths().earliestHint(), Long.toString(to));
            List<TableFile> toDelete = LiveInLatest.without(table, files, "expiration");
            try {
                FileDeleter.inStages(table, bulkDelete, toDelete, deleted);
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            io.delete(journal);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "table " + table.name() + ": expiration of snapshots " + from + ".." + (to - 1)
                            + " stopped (the next run finishes it, " + journal + "): " + e.getMessage(),
                    e);
        }
    }

    /**
     * The files that snapshots {@code [from, to)} reference and nothing retained does: no snapshot
     * from {@code to} on, no tag in {@code pinned}, no changelog kept (those of {@code [keptFrom,
     * to)} and those kept before).
     */
    private List<TableFile> filesOnlyReferencedBy(
            LongFunction<Snapshot> snapshot,
            long from,
            long to,
            long keptFrom,
            List<Long> stillKept,
            List<Snapshot> pinned) {
        ManifestList lists = table.manifests().manifestList();
        Snapshot kept = snapshot.apply(to);
        KeptChanges changes = keptChanges(snapshot, keptFrom, to, stillKept);
        // data files: deleted by one of the snapshots from+1 .. to, and not live again in `to`
        Map<String, TableFile> data = new LinkedHashMap<>();
        for (long id = from + 1; id <= to; id++) {
            Snapshot s = snapshot.apply(id);
            for (ManifestEntry e : table.manifests().scanner().entries(s.deltaManifestList())) {
                if (e.kind() == FileKind.DELETE) {
                    data.put(
                            e.file().fileName(),
                            new TableFile(
                                    TableFile.Kind.DATA, dataPath(e), e.file().fileSize()));
                }
            }
        }
        for (ManifestEntry e : table.manifests().scanner().scan(kept.baseManifestList(), EntryFilter.ALL)) {
            data.remove(e.file().fileName());
        }
        for (Snapshot t : pinned) {
            for (ManifestEntry e : table.manifests().scanner().scan(t.baseManifestList(), EntryFilter.ALL)) {
                data.remove(e.file().fileName());
            }
        }
        data.keySet().removeAll(changes.files);
        List<TableFile> files = new ArrayList<>(data.values());
        // changelog files belong to their snapshot, and stay with its kept changelog
        for (long id = from; id < keptFrom; id++) {
            Snapshot s = snapshot.apply(id);
            if (s.changelogManifestList() != null) {
                for (ManifestEntry e : table.manifests().scanner().entries(s.changelogManifestList())) {
                    files.add(new TableFile(
                            TableFile.Kind.CHANGELOG, dataPath(e), e.file().fileSize()));
                }
            }
        }
        // manifests: those of the expired snapshots' lists that the kept snapshot's lists do not
        // name (a manifest in a later snapshot's base and older than `to` is in `to`'s base too:
        // manifest merging removes manifests from the base, never adds old ones back)
        Set<String> keptManifests = new HashSet<>();
        for (String list : listsOf(kept)) {
            lists.read(list).forEach(m -> keptManifests.add(m.fileName()));
        }
        // a tag reads its snapshot's base list and the manifests it names
        Set<String> keptLists = new HashSet<>(changes.lists);
        keptManifests.addAll(changes.manifests);
        for (Snapshot t : pinned) {
            keptLists.add(t.baseManifestList());
            lists.read(t.baseManifestList()).forEach(m -> keptManifests.add(m.fileName()));
        }
        Map<String, TableFile> manifests = new LinkedHashMap<>();
        List<TableFile> manifestLists = new ArrayList<>();
        for (long id = from; id < to; id++) {
            for (String list : listsOf(snapshot.apply(id))) {
                for (ManifestFileMeta m : lists.read(list)) {
                    if (!keptManifests.contains(m.fileName())) {
                        manifests.putIfAbsent(
                                m.fileName(),
                                new TableFile(
                                        TableFile.Kind.MANIFEST,
                                        table.paths().manifestFile(m.fileName()).toString(),
                                        m.fileSize()));
                    }
                }
                if (!keptLists.contains(list)) {
                    manifestLists.add(new TableFile(
                            TableFile.Kind.MANIFEST_LIST, lists.path(list).toString(), -1));
                }
            }
        }
        files.addAll(manifests.values());
        files.addAll(manifestLists);
        return files;
    }

    /** The lists, manifests and files that kept changelogs hold. */
    private record KeptChanges(Set<String> lists, Set<String> manifests, Set<String> files) {}

    /**
     * What the changelogs kept after this run hold: those of {@code [keptFrom, to)}, and, with
     * {@code changelog-producer=none} (whose changes are the data files APPEND snapshots added, so
     * a snapshot of the range may delete or merge away what an older kept changelog holds), those
     * kept before. A changelog list and its manifests and files belong to their snapshot alone, so
     * with a producer the changelogs kept before hold nothing of this range.
     */
    private KeptChanges keptChanges(LongFunction<Snapshot> snapshot, long keptFrom, long to, List<Long> stillKept) {
        Producer producer = table.schema().tableOptions().get(ChangelogOptions.CHANGELOG_PRODUCER);
        KeptChanges out = new KeptChanges(new HashSet<>(), new HashSet<>(), new HashSet<>());
        List<Snapshot> holders = new ArrayList<>();
        if (producer == Producer.NONE) {
            for (long id : stillKept) {
                if (id < keptFrom) {
                    table.changelogManager().get(id).ifPresent(holders::add);
                }
            }
        }
        for (long id = keptFrom; id < to; id++) {
            holders.add(snapshot.apply(id));
        }
        ManifestList lists = table.manifests().manifestList();
        for (Snapshot s : holders) {
            for (String list : ChangelogManager.changeLists(s, producer)) {
                out.lists.add(list);
                lists.read(list).forEach(m -> out.manifests.add(m.fileName()));
                for (ManifestEntry e : table.manifests().scanner().entries(list)) {
                    if (e.kind() == FileKind.ADD) {
                        out.files.add(e.file().fileName());
                    }
                }
            }
        }
        return out;
    }

    private static List<String> listsOf(Snapshot s) {
        List<String> l = new ArrayList<>(3);
        l.add(s.baseManifestList());
        l.add(s.deltaManifestList());
        if (s.changelogManifestList() != null) {
            l.add(s.changelogManifestList());
        }
        return l;
    }

    private String dataPath(ManifestEntry e) {
        String partition = PartitionPath.of(table.schema().partitionKeys(), e.partition());
        return table.paths()
                .dataFile(partition, e.bucket(), e.file().fileName())
                .toString();
    }

    // ---- journal -------------------------------------------------------------------------

    private List<Path> journals() {
        try {
            return snapshots.expirationJournals();
        } catch (FileNotFoundException noSnapshotsYet) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "table " + table.name() + ": cannot list " + table.paths().snapshotDir() + ": " + e.getMessage(),
                    e);
        }
    }

    /** The retention options of one run, checked. */
    private record Retention(
            int retainMin,
            Integer retainMax,
            Duration timeRetained,
            int limit,
            Duration consumerExpiration,
            boolean consumerChangelogOnly,
            ChangelogRetention changelog) {
        static Retention of(String table, TableOptions o) {
            int min = o.get(ExpireOptions.NUM_RETAINED_MIN);
            Integer max = o.get(ExpireOptions.NUM_RETAINED_MAX);
            int limit = o.get(ExpireOptions.EXPIRE_LIMIT);
            if (min < 1) {
                throw new IllegalArgumentException("table " + table + ": " + ExpireOptions.NUM_RETAINED_MIN.key()
                        + " must be at least 1 (the latest snapshot is always kept), got " + min);
            }
            if (max != null && max < min) {
                throw new IllegalArgumentException("table " + table + ": " + ExpireOptions.NUM_RETAINED_MAX.key()
                        + " (" + max + ") must be at least " + ExpireOptions.NUM_RETAINED_MIN.key() + " (" + min
                        + ")");
            }
            if (limit < 1) {
                throw new IllegalArgumentException("table " + table + ": " + ExpireOptions.EXPIRE_LIMIT.key()
                        + " must be at least 1, got " + limit);
            }
            return new Retention(
                    min,
                    max,
                    o.get(ExpireOptions.TIME_RETAINED),
                    limit,
                    o.get(ExpireOptions.CONSUMER_EXPIRATION_TIME),
                    o.get(ExpireOptions.CONSUMER_CHANGELOG_ONLY),
                    ChangelogRetention.of(table, o));
        }
    }
}
