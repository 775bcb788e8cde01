package io.strata.storage.maintenance;

import io.strata.storage.snapshot.AutoTags;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.snapshot.Tag;
import io.strata.storage.snapshot.TagManager;
import io.strata.storage.store.TableContext;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creating, deleting and listing a table's tags. A tag pins its snapshot's data files and
 * manifests against expiration and orphan cleanup; deleting a tag frees nothing at once (orphan
 * cleanup takes what nothing else references).
 *
 * <p>A tag is never created on a snapshot an expiration is removing: creation writes the tag, then
 * looks for an expiration journal covering the snapshot and takes the tag back if there is one;
 * expiration writes its journal, then looks for tags in its range and gives up if there is a new
 * one. Whichever writes second sees the other.
 */
public final class Tags {
    private static final Logger LOG = LoggerFactory.getLogger(Tags.class);

    private final TableContext table;
    private final TagManager tags;

    public Tags(TableContext table) {
        this.table = table;
        this.tags = table.tagManager();
    }

    /**
     * Tags snapshot {@code snapshotId} (the latest when empty) as {@code name}, kept for
     * {@code retain} (until deleted when empty).
     *
     * @throws IllegalArgumentException naming the table when the tag exists, the name is not a tag
     *     name, the snapshot does not exist or is being expired
     */
    public Tag create(String name, Optional<Long> snapshotId, Optional<Duration> retain) {
        tags.checkName(name);
        if (retain.isPresent() && (retain.get().isNegative() || retain.get().isZero())) {
            throw new IllegalArgumentException("table " + table.name() + ": tag '" + name + "' retention must be "
                    + "positive, got " + retain.get());
        }
        Snapshot snapshot = snapshotId.isPresent()
                ? table.snapshotManager().snapshot(snapshotId.get())
                : table.snapshotManager()
                        .latest()
                        .orElseThrow(() ->
                                new IllegalArgumentException("table " + table.name() + " has no snapshot to tag"));
        Tag tag = tags.create(table.publisher(), name, snapshot, table.clock().millis(), retain);
        Optional<long[]> expiring = table.snapshotManager().expiringRangeCovering(snapshot.id());
        if (expiring.isPresent()) {
            tags.delete(name);
            throw new IllegalArgumentException("table " + table.name() + ": snapshot " + snapshot.id() + " is being "
                    + "expired (snapshots " + expiring.get()[0] + ".." + (expiring.get()[1] - 1) + "); tag '" + name
                    + "' was not created");
        }
        LOG.info("table {}: tag '{}' created on snapshot {}", table.name(), name, snapshot.id());
        return tag;
    }

    /**
     * Creates the automatic tag the table's options call for now ({@code tag.automatic-creation},
     * {@code tag.creation-period}, {@code tag.creation-delay}) on the last snapshot committed before
     * the period ended, as the first commit after it would, and deletes the oldest automatic tags
     * beyond {@code tag.num-retained-max} ({@link AutoTags#createDue}). For a table no commit
     * reaches after a period ends; creating the tag twice is harmless (a tag is published once).
     */
    public AutoTags.Result createAutomaticTag() {
        Optional<Snapshot> latest = table.snapshotManager().latest();
        if (latest.isEmpty()) {
            return AutoTags.Result.none("table " + table.name() + " has no snapshot to tag");
        }
        return new AutoTags(
                        tags,
                        table.snapshotManager(),
                        table.publisher(),
                        table.schema().tableOptions(),
                        table.clock())
                .createDue(latest.get());
    }

    /** @throws IllegalArgumentException naming the table and its tags when there is no such tag */
    public void delete(String name) {
        if (!tags.delete(name)) {
            throw new IllegalArgumentException("table " + table.name() + " has no tag '" + name + "'; its tags: "
                    + tags.list().stream().map(Tag::name).toList());
        }
        LOG.info("table {}: tag '{}' deleted", table.name(), name);
    }

    public List<Tag> list() {
        return tags.list();
    }
}
