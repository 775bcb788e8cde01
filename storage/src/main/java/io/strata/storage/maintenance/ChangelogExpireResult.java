package io.strata.storage.maintenance;

import java.util.List;

/**
 * What a run of changelog expiration alone ({@link SnapshotExpiration#expireChangelogs}) did: the
 * kept changelogs of snapshots {@code [fromId, toId)} expired (none when equal), and every file it
 * deleted, those of interrupted earlier runs it finished included (changelog metadata first, then
 * the files only they held, manifests, manifest lists).
 */
public record ChangelogExpireResult(long fromId, long toId, List<TableFile> deleted) {
    public ChangelogExpireResult {
        deleted = List.copyOf(deleted);
    }

    /** Kept changelogs this run expired. */
    public long changelogsExpired() {
        return toId - fromId;
    }

    /** Bytes of the deleted files (files of unknown size count 0). */
    public long deletedBytes() {
        return deleted.stream().mapToLong(f -> Math.max(0, f.size())).sum();
    }
}
