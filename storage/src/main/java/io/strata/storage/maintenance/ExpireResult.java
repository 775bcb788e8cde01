package io.strata.storage.maintenance;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What an expiration run did: its plan, and every file it deleted (snapshot files first). A dry
 * run has the plan and no deleted file. {@code resumed} counts interrupted earlier runs this one
 * finished first; {@code tagsExpired} names the tags whose retention had passed, deleted first.
 * {@code [changelogFromId, changelogToId)} are the snapshots whose kept changelog expired (or
 * would, in a dry run), empty when equal; {@code changelogFiles} the files that changelog
 * expiration planned to delete after the changelog files.
 */
public record ExpireResult(
        ExpirePlan plan,
        List<TableFile> deleted,
        int resumed,
        List<String> tagsExpired,
        boolean dryRun,
        long changelogFromId,
        long changelogToId,
        List<TableFile> changelogFiles) {

    public ExpireResult {
        deleted = List.copyOf(deleted);
        tagsExpired = List.copyOf(tagsExpired);
        changelogFiles = List.copyOf(changelogFiles);
    }

    /** A run that expired no kept changelog. */
    public ExpireResult(
            ExpirePlan plan, List<TableFile> deleted, int resumed, List<String> tagsExpired, boolean dryRun) {
        this(plan, deleted, resumed, tagsExpired, dryRun, 0, 0, List.of());
    }

    /** Kept changelogs this run expired. */
    public long changelogsExpired() {
        return changelogToId - changelogFromId;
    }

    /** Files deleted per kind. */
    public Map<TableFile.Kind, Integer> deletedCounts() {
        Map<TableFile.Kind, Integer> m = new EnumMap<>(TableFile.Kind.class);
        for (TableFile.Kind k : TableFile.Kind.values()) {
            m.put(k, 0);
        }
        deleted.forEach(f -> m.merge(f.kind(), 1, Integer::sum));
        return m;
    }

    /** Bytes deleted per kind (files of unknown size count 0). */
    public Map<TableFile.Kind, Long> deletedBytes() {
        Map<TableFile.Kind, Long> m = new EnumMap<>(TableFile.Kind.class);
        for (TableFile.Kind k : TableFile.Kind.values()) {
            m.put(k, 0L);
        }
        deleted.forEach(f -> m.merge(f.kind(), Math.max(0, f.size()), Long::sum));
        return m;
    }
}
