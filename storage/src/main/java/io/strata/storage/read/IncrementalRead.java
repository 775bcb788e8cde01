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
import io.strata.storage.snapshot.CommitKind;
import io.strata.storage.snapshot.ConsumerManager;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.store.TableContext;
import io.strata.storage.util.CloseableIterator;
import java.util.ArrayList;
import java.util.List;

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
                .orElseGet(() -> table.snapshotManager().earliestId().orElse(1));
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

    /** Changes of snapshots {@code fromExclusive + 1 .. toInclusive}. */
    public CloseableIterator<GenericRow> read(long fromExclusive, long toInclusive) {
        Producer producer = table.schema().tableOptions().get(ChangelogOptions.CHANGELOG_PRODUCER);
        List<ManifestEntry> files = new ArrayList<>();
        for (long id = fromExclusive + 1; id <= toInclusive; id++) {
            Snapshot s = table.snapshotManager().snapshot(id);
            String list = producer == Producer.NONE
                    ? (s.commitKind() == CommitKind.APPEND ? s.deltaManifestList() : null)
                    : s.changelogManifestList();
            if (list == null) {
                continue;
            }
            for (ManifestEntry e : table.manifests().scanner().entries(list)) {
                if (e.kind() == FileKind.ADD) {
                    files.add(e);
                }
            }
        }
        return new ConcatIterator<>(files, this::open);
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
