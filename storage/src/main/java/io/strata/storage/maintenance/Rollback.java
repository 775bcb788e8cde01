package io.strata.storage.maintenance;

import io.strata.storage.fs.FileIO;
import io.strata.storage.snapshot.ConsumerManager;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.snapshot.SnapshotManager;
import io.strata.storage.snapshot.Tag;
import io.strata.storage.store.TableContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rolls a table back to a snapshot or a tag: the target becomes the latest snapshot and the
 * snapshots after it leave the metadata (newest first); their files are left to orphan cleanup.
 * Writers and compaction jobs of the table must be stopped first: a commit that lands during the
 * rollback is reported, never silently lost or kept.
 *
 * <p>A tag whose snapshot expired is restored first (its snapshot file is published again from
 * the tag's copy), so that the table never has no snapshot. A crash at any step leaves a table
 * whose latest snapshot reads completely (only snapshot files are deleted); a rerun finishes.
 * Rolling back past a tag is refused: the tag would name a snapshot that no longer exists in the
 * table's history. Consumers that had read past the target are set back to the snapshot after it,
 * which the next commit takes.
 */
public final class Rollback {
    private static final Logger LOG = LoggerFactory.getLogger(Rollback.class);

    /**
     * What a rollback removes (or removed): the snapshots {@code (target, latest]}, and the kept
     * changelogs of expired snapshots after the target (a rollback to a tag whose snapshot expired).
     */
    public record Result(
            long target,
            long latestBefore,
            List<Long> snapshotsRemoved,
            List<Long> changelogsRemoved,
            boolean restored,
            boolean dryRun) {
        public Result {
            snapshotsRemoved = List.copyOf(snapshotsRemoved);
            changelogsRemoved = List.copyOf(changelogsRemoved);
        }
    }

    private final TableContext table;
    private final SnapshotManager snapshots;
    private final FileIO io;

    public Rollback(TableContext table) {
        this.table = table;
        this.snapshots = table.snapshotManager();
        this.io = table.fileIO();
    }

    /** What {@link #toSnapshot} would remove; changes nothing. */
    public Result planToSnapshot(long id) {
        Snapshot target = snapshots.snapshot(id); // names the expired range when it is gone
        return plan(target, false);
    }

    /** What {@link #toTag} would remove; changes nothing. */
    public Result planToTag(String name) {
        Tag tag = table.tagManager().require(name);
        return plan(tag.snapshot(), !snapshots.exists(tag.snapshot().id()));
    }

    public Result toSnapshot(long id) {
        return execute(planToSnapshot(id), null);
    }

    public Result toTag(String name) {
        Tag tag = table.tagManager().require(name);
        return execute(plan(tag.snapshot(), !snapshots.exists(tag.snapshot().id())), tag.snapshot());
    }

    private Result plan(Snapshot target, boolean restore) {
        OptionalLong latest = snapshots.latestId();
        long last = latest.orElseThrow(
                () -> new IllegalArgumentException("table " + table.name() + " has no snapshot to roll back"));
        List<String> later = new ArrayList<>();
        for (Tag t : table.tagManager().list()) {
            if (t.snapshot().id() > target.id()) {
                later.add(t.name() + " (snapshot " + t.snapshot().id() + ")");
            }
        }
        if (!later.isEmpty()) {
            throw new IllegalArgumentException("table " + table.name() + ": tags on snapshots after " + target.id()
                    + " would name snapshots that no longer exist: " + later + "; delete them first");
        }
        List<Long> removed = new ArrayList<>();
        long earliest = snapshots.earliestId().orElse(last);
        for (long id = last; id > target.id() && id >= earliest; id--) {
            removed.add(id);
        }
        List<Long> changelogs = new ArrayList<>();
        for (long id : table.changelogManager().ids()) {
            if (id > target.id()) {
                changelogs.add(0, id);
            }
        }
        return new Result(target.id(), last, removed, changelogs, restore, true);
    }

    private Result execute(Result plan, Snapshot restoreFrom) {
        try {
            if (plan.restored()) {
                // the table keeps a snapshot throughout: the target is back before the later ones go
                Snapshot restored = restoredCopy(restoreFrom);
                if (!snapshots.publish(table.publisher(), restored) && !snapshots.exists(restoreFrom.id())) {
                    throw new IllegalStateException("table " + table.name() + ": cannot restore snapshot "
                            + restoreFrom.id() + " from its tag");
                }
            }
            for (long id : plan.snapshotsRemoved()) {
                io.delete(snapshots.snapshotPath(id));
            }
            // the history after the target leaves entirely: a kept changelog of it would be read as
            // the changes of the new snapshots that reuse its ids
            for (long id : plan.changelogsRemoved()) {
                table.changelogManager().delete(id);
            }
            io.overwriteHint(table.paths().latestHint(), Long.toString(plan.target()));
            // consumers that read past the target would skip the commits that reuse those ids
            for (ConsumerManager.Consumer c : table.consumerManager().list()) {
                if (c.nextSnapshot() > plan.target() + 1) {
                    table.consumerManager()
                            .record(c.id(), plan.target() + 1, table.clock().millis());
                    LOG.info(
                            "table {}: consumer '{}' reset to snapshot {} by the rollback",
                            table.name(),
                            c.id(),
                            plan.target() + 1);
                }
            }
            if (plan.restored()) {
                io.overwriteHint(table.paths().earliestHint(), Long.toString(plan.target()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "table " + table.name() + ": rollback to snapshot " + plan.target()
                            + " stopped part way (the latest snapshot reads completely; run it again): "
                            + e.getMessage(),
                    e);
        }
        long now = snapshots.latestId().orElse(plan.target());
        if (now != plan.target()) {
            throw new IllegalStateException("table " + table.name() + ": snapshot " + now + " was committed during "
                    + "the rollback to " + plan.target() + "; stop the table's writers and compaction jobs and run "
                    + "the rollback again");
        }
        LOG.info(
                "table {}: rolled back to snapshot {}; removed snapshots {}",
                table.name(),
                plan.target(),
                plan.snapshotsRemoved());
        return new Result(
                plan.target(),
                plan.latestBefore(),
                plan.snapshotsRemoved(),
                plan.changelogsRemoved(),
                plan.restored(),
                false);
    }

    /**
     * The tag's snapshot as the table's snapshot again. Expiration kept only its base manifest list
     * (what the tag reads); its delta becomes an empty list and it has no changelog, so that
     * incremental reads and a later expiration find every list it names.
     */
    private Snapshot restoredCopy(Snapshot s) throws IOException {
        String emptyDelta = table.manifests().manifestList().write(List.of());
        return new Snapshot(
                s.id(),
                s.schemaId(),
                s.baseManifestList(),
                emptyDelta,
                null,
                s.commitUser(),
                s.commitIdentifier(),
                s.commitKind(),
                s.timeMillis(),
                s.totalRecordCount(),
                0,
                null,
                s.watermark());
    }
}
