package io.strata.storage.maintenance;

import java.util.List;

/**
 * What one expiration run removes: the snapshots {@code [fromId, toId)} and the files only they
 * reference, and what kept it from removing more. Empty ({@code fromId == toId}) when nothing can
 * go.
 *
 * @param fromId the earliest snapshot before the run
 * @param toId the earliest snapshot retained after it
 * @param latestId the latest snapshot when the run planned
 * @param heldBackBy why the run stops at {@code toId}
 * @param heldBackDetail what exactly held it back, for people (the consumer and its position), or empty
 * @param files the files the run deletes after the snapshot files, in deletion order (data and
 *     changelog files, then manifests, then manifest lists)
 * @param changelogKeptFrom the first snapshot of the range whose changes changelog retention (or a
 *     consumer) keeps as {@code changelog/changelog-<id>}: those of {@code [changelogKeptFrom,
 *     toId)}; {@code toId} when none is kept
 */
public record ExpirePlan(
        long fromId,
        long toId,
        long latestId,
        HeldBack heldBackBy,
        String heldBackDetail,
        List<TableFile> files,
        long changelogKeptFrom) {

    /** What stops an expiration at the snapshot it stops at. */
    public enum HeldBack {
        /** The table has no snapshot. */
        NO_SNAPSHOTS,
        /** {@code snapshot.num-retained.min} snapshots remain. */
        MIN_RETAINED,
        /** The next snapshot is younger than {@code snapshot.time-retained}. */
        TIME_RETAINED,
        /** The run removed {@code snapshot.expire.limit} snapshots. */
        LIMIT,
        /** A consumer has not read the next snapshot yet. */
        CONSUMER
    }

    public ExpirePlan {
        files = List.copyOf(files);
    }

    /** Snapshots of the range whose changelog is kept. */
    public long changelogsKept() {
        return toId - changelogKeptFrom;
    }

    public long snapshotsExpired() {
        return toId - fromId;
    }

    public boolean isEmpty() {
        return fromId == toId;
    }
}
