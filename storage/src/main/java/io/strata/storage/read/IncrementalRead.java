package io.strata.storage.read;

import io.strata.storage.data.GenericRow;
import io.strata.storage.data.KeyValue;
import io.strata.storage.data.PartitionPath;
import io.strata.storage.format.DataFileReader;
import io.strata.storage.manifest.FileKind;
import io.strata.storage.manifest.ManifestEntry;
import io.strata.storage.mergetree.ConcatIterator;
import io.strata.storage.options.ChangelogOptions;
import io.strata.storage.options.ChangelogOptions.Producer;
import io.strata.storage.snapshot.ChangelogManager;
import io.strata.storage.snapshot.ConsumerManager;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.snapshot.SnapshotNotFoundException;
import io.strata.storage.store.TableContext;
import io.strata.storage.util.CloseableIterator;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The changes between two snapshots, in commit order, as rows with their row kind:
 * <ul>
 *   <li>with a changelog producer: the changelog files each snapshot references
 *       (input: the writers' rows; lookup and full-compaction: +I/-U/+U/-D from compactions);</li>
 *   <li>with {@code changelog-producer=none}: the files each APPEND snapshot added (its delta),
 *       as stored: per key the pre-merged versions of that commit, without before images.</li>
 * </ul>
 * Files are opened one at a time.
 */
public final class IncrementalRead {
    private final TableContext table;

    public IncrementalRead(TableContext table) {
        this.table = table;
    }

    /**
     * The changes consumer {@code consumerId} has not read, up to snapshot {@code toInclusive}: from
     * its recorded next snapshot (the earliest retained for a new consumer). Once the returned
     * iterator has been read to its end, the consumer's next snapshot is recorded as
     * {@code toInclusive + 1}; a consumer's position keeps expiration from removing what it has
     * not read.
     */
    public CloseableIterator<GenericRow> readAs(String consumerId, long toInclusive) {
        ConsumerManager consumers = table.consumerManager();
        long next = consumers
                .get(consumerId)
                .map(ConsumerManager.Consumer::nextSnapshot)
                .orElseGet(() -> historyStart().orElse(1));
        CloseableIterator<GenericRow> changes = read(next - 1, toInclusive);
        return new CloseableIterator<>() {
            private boolean recorded;

            @Override
            public boolean hasNext() {
                boolean more = changes.hasNext();
                if (!more && !recorded) {
                    recorded = true;
                    consumers.record(
                            consumerId,
                            Math.max(next, toInclusive + 1),
                            table.clock().millis());
                }
                return more;
            }

            @Override
            public GenericRow next() {
                return changes.next();
            }

            @Override
            public void close() {
                changes.close();
            }
        };
    }

    /**
     * The first snapshot whose changes are retained: the earliest kept changelog of an expired
     * snapshot or the earliest snapshot, whichever is first (an expiration writes the changelog of
     * a snapshot before it deletes it); empty for a table without snapshots.
     */
    public OptionalLong historyStart() {
        OptionalLong changelog = table.changelogManager().earliestId();
        OptionalLong snapshot = table.snapshotManager().earliestId();
        if (changelog.isEmpty() || snapshot.isEmpty()) {
            return snapshot;
        }
        return OptionalLong.of(Math.min(changelog.getAsLong(), snapshot.getAsLong()));
    }

    /**
     * Changes of snapshots {@code fromExclusive + 1 .. toInclusive}, read from each snapshot, or
     * from its kept changelog once it expired.
     *
     * @throws SnapshotNotFoundException naming where history starts when the changes of a snapshot
     *     of the range are no longer retained, or naming the latest snapshot when
     *     {@code toInclusive} is past it
     * @throws IllegalArgumentException when {@code fromExclusive} is past {@code toInclusive} (an
     *     empty range is {@code fromExclusive == toInclusive}: nothing after the last change read)
     */
    public CloseableIterator<GenericRow> read(long fromExclusive, long toInclusive) {
        long latest = table.snapshotManager().latestId().orElse(0);
        if (toInclusive > latest) {
            throw new SnapshotNotFoundException("table " + table.name() + " has no snapshot " + toInclusive
                    + (latest == 0 ? ": it has no snapshots yet" : ": the latest is " + latest));
        }
        if (fromExclusive > toInclusive) {
            throw new IllegalArgumentException("table " + table.name() + ": the changes after snapshot " + fromExclusive
                    + " up to snapshot " + toInclusive + " were asked for, but " + fromExclusive + " is past "
                    + toInclusive + " (the latest snapshot is " + latest + ")");
        }
        Producer producer = table.schema().tableOptions().get(ChangelogOptions.CHANGELOG_PRODUCER);
        List<ManifestEntry> files = new ArrayList<>();
        Set<Long> kept = new HashSet<>(table.changelogManager().ids());
        // expiration removes the oldest first: what is at or above the earliest now stays a snapshot
        // or gets its changelog before it goes
        long earliest = table.snapshotManager().earliestId().orElse(Long.MAX_VALUE);
        for (long id = fromExclusive + 1; id <= toInclusive; id++) {
            for (String list : ChangelogManager.changeLists(changesOf(id, kept, earliest), producer)) {
                for (ManifestEntry e : table.manifests().scanner().entries(list)) {
                    if (e.kind() == FileKind.ADD) {
                        files.add(e);
                    }
                }
            }
        }
        return new ConcatIterator<>(files, this::open);
    }

    /**
     * The kept changelog of snapshot {@code id} when {@code kept} lists one, else the snapshot. A
     * kept changelog is the original record of a snapshot's changes, written before the snapshot
     * goes: where both exist (an expiration in flight, or a snapshot a rollback restored from a
     * tag without its changes), the changelog is read.
     */
    private Snapshot changesOf(long id, Set<Long> kept, long earliest) {
        if (kept.contains(id)) {
            Optional<Snapshot> c = table.changelogManager().get(id);
            if (c.isPresent()) {
                return c.get();
            }
        }
        if (id >= earliest) {
            try {
                return table.snapshotManager().snapshot(id);
            } catch (SnapshotNotFoundException expiredMeanwhile) {
                // its changelog was written before it went, after `kept` was listed
            }
        }
        Optional<Snapshot> c = table.changelogManager().get(id);
        if (c.isPresent()) {
            return c.get();
        }
        OptionalLong start = historyStart();
        throw new SnapshotNotFoundException("table " + table.name() + ": the changes of snapshot " + id
                + (start.isPresent() && id < start.getAsLong()
                        ? " are no longer retained; history starts at snapshot " + start.getAsLong()
                                + " (raise changelog.num-retained.* or changelog.time-retained to keep more)"
                        : " do not exist: the table has no snapshot " + id));
    }

    private CloseableIterator<GenericRow> open(ManifestEntry e) {
        DataFileReader reader = DataFileReader.of(
                        table.fileIO(),
                        table.formatConfig().conf(),
                        table.paths()
                                .dataFile(
                                        PartitionPath.of(table.schema().partitionKeys(), e.partition()),
                                        e.bucket(),
                                        e.file().fileName()),
                        table.schema())
                .fileSize(e.file().fileSize())
                .open();
        return new CloseableIterator<>() {
            @Override
            public boolean hasNext() {
                return reader.hasNext();
            }

            @Override
            public GenericRow next() {
                KeyValue kv = reader.next();
                return new GenericRow(kv.kind(), kv.row());
            }

            @Override
            public void close() {
                reader.close();
            }
        };
    }
}
