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
import io.strata.storage.snapshot.ChangelogManager;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.snapshot.SnapshotManager;
import io.strata.storage.snapshot.Tag;
import io.strata.storage.store.TableContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Expires the changelog kept of expired snapshots ({@code changelog/changelog-<id>}) by
 * {@link ChangelogRetention}, oldest first, at most {@code snapshot.expire.limit} per run, never
 * one a live consumer has not read. Same order as snapshot expiration: the plan is journaled
 * ({@code changelog/expiring-<from>-<to>.json}), the changelog files go oldest first, then the
 * files only they held (checked against the latest snapshot), then manifests, then manifest lists,
 * then the journal. A crash leaves a journal the next run finishes.
 */
final class ChangelogExpiration {
    private static final Logger LOG = LoggerFactory.getLogger(ChangelogExpiration.class);

    private final TableContext table;
    private final ChangelogManager changelogs;
    private final SnapshotManager snapshots;
    private final FileIO io;
    private final Producer producer;
    private final BulkDelete bulkDelete;

    ChangelogExpiration(TableContext table, BulkDelete bulkDelete) {
        this.bulkDelete = bulkDelete;
        this.table = table;
        this.changelogs = table.changelogManager();
        this.snapshots = table.snapshotManager();
        this.io = table.fileIO();
        this.producer = table.schema().tableOptions().get(ChangelogOptions.CHANGELOG_PRODUCER);
    }

    /** The kept changelogs {@code [fromId, toId)} that go, and the files only they hold. */
    record Plan(long fromId, long toId, List<TableFile> files) {
        static final Plan EMPTY = new Plan(0, 0, List.of());

        boolean isEmpty() {
            return fromId == toId;
        }
    }

    /**
     * What may go now.
     *
     * @param consumerFrom the lowest next snapshot of a live consumer ({@code Long.MAX_VALUE} for none)
     */
    Plan plan(ChangelogRetention retention, int limit, long consumerFrom, List<Tag> tags) {
        List<Long> ids = changelogs.ids();
        OptionalLong latest = snapshots.latestId();
        OptionalLong earliestSnapshot = snapshots.earliestId();
        if (ids.isEmpty() || latest.isEmpty() || earliestSnapshot.isEmpty()) {
            return Plan.EMPTY;
        }
        long now = table.clock().millis();
        List<Snapshot> going = new ArrayList<>();
        List<Long> staying = new ArrayList<>();
        for (long id : ids) {
            if (!staying.isEmpty()) {
                staying.add(id); // the oldest go first: once one stays, the later ones do
                continue;
            }
            boolean eligible = going.size() < limit && id < earliestSnapshot.getAsLong() && id < consumerFrom;
            Optional<Snapshot> c = eligible ? changelogs.get(id) : Optional.empty();
            if (eligible && c.isEmpty()) {
                continue; // expired by a concurrent run since it was listed
            }
            if (c.isPresent() && retention.mayGo(id, latest.getAsLong(), c.get().timeMillis(), now)) {
                going.add(c.get());
            } else {
                staying.add(id);
            }
        }
        if (going.isEmpty()) {
            return Plan.EMPTY;
        }
        long from = going.get(0).id();
        long to = going.get(going.size() - 1).id() + 1;
        return new Plan(from, to, filesOnlyHeldBy(going, staying, earliestSnapshot.getAsLong(), tags));
    }

    /**
     * Finishes interrupted runs, then expires what {@link #plan} says; adds every deleted file to
     * {@code deleted}. Returns the plan it carried out.
     */
    Plan expire(ChangelogRetention retention, int limit, long consumerFrom, List<Tag> tags, List<TableFile> deleted) {
        for (Path journal : changelogs.expirationJournals()) {
            Optional<ExpirationJournal> j = ExpirationJournal.read(io, journal);
            if (j.isPresent()) {
                LOG.info(
                        "table {}: finishing an interrupted expiration of the changelog of snapshots {}..{}",
                        table.name(),
                        j.get().from(),
                        j.get().to() - 1);
                execute(journal, j.get().from(), j.get().to(), j.get().files(), deleted);
            }
        }
        Plan plan = plan(retention, limit, consumerFrom, tags);
        if (!plan.isEmpty()) {
            Path journal = changelogs.expirationJournal(plan.fromId(), plan.toId());
            new ExpirationJournal(plan.fromId(), plan.toId(), plan.toId(), plan.files())
                    .write(io, journal, table.name());
            execute(journal, plan.fromId(), plan.toId(), plan.files(), deleted);
            LOG.info(
                    "table {}: expired the changelog of snapshots {}..{}",
                    table.name(),
                    plan.fromId(),
                    plan.toId() - 1);
        }
        return plan;
    }

    private void execute(Path journal, long from, long to, List<TableFile> files, List<TableFile> deleted) {
        try {
            for (long id = from; id < to; id++) {
                if (changelogs.delete(id)) {
                    deleted.add(new TableFile(
                            TableFile.Kind.CHANGELOG_METADATA,
                            changelogs.path(id).toString(),
                            -1));
                }
            }
            try {
                FileDeleter.inStages(
                        table, bulkDelete, LiveInLatest.without(table, files, "changelog expiration"), deleted);
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            io.delete(journal);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "table " + table.name() + ": expiration of the changelog of snapshots " + from + ".." + (to - 1)
                            + " stopped (the next run finishes it, " + journal + "): " + e.getMessage(),
                    e);
        }
    }

    /**
     * The files the {@code going} changelogs hold and nothing retained does. With a changelog
     * producer a changelog list, its manifests and files belong to one snapshot alone. With
     * {@code changelog-producer=none} the files are data files an APPEND snapshot added, which the
     * earliest snapshot (and so any later one), a tag or another kept changelog may still hold, and
     * its delta manifests may still be in their manifest lists.
     */
    private List<TableFile> filesOnlyHeldBy(List<Snapshot> going, List<Long> staying, long earliest, List<Tag> tags) {
        ManifestList lists = table.manifests().manifestList();
        Map<String, TableFile> files = new LinkedHashMap<>();
        Map<String, TableFile> manifests = new LinkedHashMap<>();
        List<TableFile> manifestLists = new ArrayList<>();
        TableFile.Kind fileKind = producer == Producer.NONE ? TableFile.Kind.DATA : TableFile.Kind.CHANGELOG;
        for (Snapshot c : going) {
            for (String list : ChangelogManager.changeLists(c, producer)) {
                manifestLists.add(new TableFile(
                        TableFile.Kind.MANIFEST_LIST, lists.path(list).toString(), -1));
                for (ManifestFileMeta m : lists.read(list)) {
                    manifests.putIfAbsent(
                            m.fileName(),
                            new TableFile(
                                    TableFile.Kind.MANIFEST,
                                    table.paths().manifestFile(m.fileName()).toString(),
                                    m.fileSize()));
                }
                for (ManifestEntry e : table.manifests().scanner().entries(list)) {
                    if (e.kind() == FileKind.ADD) {
                        files.put(
                                e.file().fileName(),
                                new TableFile(fileKind, dataPath(e), e.file().fileSize()));
                    }
                }
            }
        }
        if (producer == Producer.NONE) {
            Set<String> heldLists = new HashSet<>();
            Set<String> heldManifests = new HashSet<>();
            List<Snapshot> holders = new ArrayList<>();
            for (long id : staying) {
                changelogs.get(id).ifPresent(holders::add);
            }
            for (Snapshot c : holders) {
                for (String list : ChangelogManager.changeLists(c, producer)) {
                    heldLists.add(list);
                    lists.read(list).forEach(m -> heldManifests.add(m.fileName()));
                    for (ManifestEntry e : table.manifests().scanner().entries(list)) {
                        files.remove(e.file().fileName());
                    }
                }
            }
            List<Snapshot> bases = new ArrayList<>();
            bases.add(snapshots.snapshot(earliest));
            tags.forEach(t -> bases.add(t.snapshot()));
            for (Snapshot s : bases) {
                for (ManifestEntry e : table.manifests().scanner().scan(s.baseManifestList(), EntryFilter.ALL)) {
                    files.remove(e.file().fileName());
                }
            }
            // a manifest older than the earliest snapshot and in a later snapshot's lists is in the
            // earliest's base too: merging manifests removes them from the base, never adds old ones
            Snapshot first = bases.get(0);
            for (String list :
                    new String[] {first.baseManifestList(), first.deltaManifestList(), first.changelogManifestList()}) {
                if (list != null) {
                    heldLists.add(list);
                    lists.read(list).forEach(m -> heldManifests.add(m.fileName()));
                }
            }
            for (Tag t : tags) {
                heldLists.add(t.snapshot().baseManifestList());
                lists.read(t.snapshot().baseManifestList()).forEach(m -> heldManifests.add(m.fileName()));
            }
            manifests.keySet().removeAll(heldManifests);
            manifestLists.removeIf(f -> heldLists.contains(new Path(f.path()).getName()));
        }
        List<TableFile> out = new ArrayList<>(files.values());
        out.addAll(manifests.values());
        out.addAll(manifestLists);
        return out;
    }

    private String dataPath(ManifestEntry e) {
        String partition = PartitionPath.of(table.schema().partitionKeys(), e.partition());
        return table.paths()
                .dataFile(partition, e.bucket(), e.file().fileName())
                .toString();
    }
}
