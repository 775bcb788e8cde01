package io.strata.storage.read;

import io.strata.storage.data.GenericRow;
import io.strata.storage.mergetree.ConcatIterator;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.snapshot.SnapshotNotFoundException;
import io.strata.storage.store.TableContext;
import io.strata.storage.util.CloseableIterator;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Configures a batch read: which snapshot (latest, by id, or the last at a timestamp), which
 * rows (a {@link Predicate}), which columns. {@link #plan()} lists the splits;
 * {@link #read(Split)} merges one; {@link #readAll()} reads everything.
 */
public final class ReadBuilder {
    private final TableContext table;
    private Long snapshotId;
    private Long timestampMillis;
    private String tag;
    private Predicate filter;
    private int[] projection;

    public ReadBuilder(TableContext table) {
        this.table = table;
    }

    public ReadBuilder withSnapshot(long id) {
        this.snapshotId = id;
        return this;
    }

    /** The snapshot tag {@code name} holds (its snapshot file may have expired). */
    public ReadBuilder withTag(String name) {
        this.tag = name;
        return this;
    }

    /** Time travel: the latest snapshot committed at or before {@code millis}. */
    public ReadBuilder withTimestamp(long millis) {
        this.timestampMillis = millis;
        return this;
    }

    public ReadBuilder withFilter(Predicate predicate) {
        this.filter = predicate;
        return this;
    }

    /** Output columns, in this order. Default: all columns of the table's schema. */
    public ReadBuilder withProjection(String... columns) {
        int[] p = new int[columns.length];
        for (int i = 0; i < columns.length; i++) {
            p[i] = table.schema().fieldIndex(columns[i]);
            if (p[i] < 0) {
                throw new IllegalArgumentException("table " + table.name() + " has no column '" + columns[i] + "'");
            }
        }
        this.projection = p;
        return this;
    }

    /** The snapshot to read, or empty for a table without snapshots. */
    public Optional<Snapshot> snapshot() {
        if (tag != null) {
            return Optional.of(table.tagManager().require(tag).snapshot());
        }
        if (snapshotId != null) {
            return Optional.of(table.snapshotManager().snapshot(snapshotId));
        }
        if (timestampMillis != null) {
            Optional<Snapshot> s = table.snapshotManager().atOrBefore(timestampMillis);
            if (s.isEmpty()) {
                throw new SnapshotNotFoundException("table " + table.name() + " has no snapshot at or before "
                        + Instant.ofEpochMilli(timestampMillis));
            }
            return s;
        }
        return table.snapshotManager().latest();
    }

    public List<Split> plan() {
        Optional<Snapshot> s = snapshot();
        if (s.isEmpty()) {
            return List.of();
        }
        try {
            return new TableScan(table, filter).plan(s.get());
        } catch (RuntimeException e) {
            throw expiredOr(s.get().id(), e);
        }
    }

    public CloseableIterator<GenericRow> read(Split split) {
        return translated(split.snapshotId(), new TableRead(table, filter, projection).read(split));
    }

    /** Every row of the snapshot, split after split. */
    public CloseableIterator<GenericRow> readAll() {
        TableRead reader = new TableRead(table, filter, projection);
        List<Split> splits = plan();
        long snapshotId = splits.isEmpty() ? -1 : splits.get(0).snapshotId();
        return translated(snapshotId, new ConcatIterator<>(splits, reader::read));
    }

    /**
     * A failure to read a file of snapshot {@code snapshotId}, told as what it is when the snapshot
     * expired while it was being read (an expiration deletes the snapshot file before its data):
     * "snapshot N has expired", not a missing file. Reads of a tag are left as they are: a tag's
     * snapshot file may be gone while its files are kept.
     */
    private RuntimeException expiredOr(long snapshotId, RuntimeException e) {
        if (tag != null || snapshotId < 0 || e instanceof SnapshotNotFoundException) {
            return e;
        }
        boolean gone;
        try {
            gone = !table.snapshotManager().exists(snapshotId);
        } catch (RuntimeException unreadable) {
            e.addSuppressed(unreadable);
            return e;
        }
        if (!gone) {
            return e;
        }
        SnapshotNotFoundException expired = new SnapshotNotFoundException("table " + table.name() + ": snapshot "
                + snapshotId + " has expired while it was being read; the earliest retained snapshot is "
                + table.snapshotManager().earliestId().orElse(-1));
        expired.initCause(e);
        return expired;
    }

    private CloseableIterator<GenericRow> translated(long snapshotId, CloseableIterator<GenericRow> rows) {
        return new CloseableIterator<>() {
            @Override
            public boolean hasNext() {
                try {
                    return rows.hasNext();
                } catch (RuntimeException e) {
                    throw expiredOr(snapshotId, e);
                }
            }

            @Override
            public GenericRow next() {
                try {
                    return rows.next();
                } catch (RuntimeException e) {
                    throw expiredOr(snapshotId, e);
                }
            }

            @Override
            public void close() {
                rows.close();
            }
        };
    }
}
