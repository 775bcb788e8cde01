package io.strata.storage.maintenance;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What an orphan cleanup found and did.
 *
 * @param orphans the unreferenced files older than the threshold that no fresh writer registration
 *     protects, and the registrations stale for longer than the threshold (what a dry run would
 *     delete)
 * @param deleted the files deleted (empty for a dry run)
 * @param youngSkipped unreferenced or not, files younger than the threshold, left alone
 * @param refused paths the cleanup would not touch, with the reason (symbolic links, paths outside
 *     the table directory)
 * @param scanned the files listed
 */
public record OrphanCleanResult(
        List<TableFile> orphans,
        List<TableFile> deleted,
        int youngSkipped,
        List<String> refused,
        int scanned,
        boolean dryRun) {

    public OrphanCleanResult {
        orphans = List.copyOf(orphans);
        deleted = List.copyOf(deleted);
        refused = List.copyOf(refused);
    }

    /** Per kind: files deleted, or for a dry run, files that would be. */
    public Map<TableFile.Kind, Integer> counts() {
        Map<TableFile.Kind, Integer> m = new EnumMap<>(TableFile.Kind.class);
        for (TableFile.Kind k : TableFile.Kind.values()) {
            m.put(k, 0);
        }
        (dryRun ? orphans : deleted).forEach(f -> m.merge(f.kind(), 1, Integer::sum));
        return m;
    }

    public long bytes() {
        return (dryRun ? orphans : deleted)
                .stream().mapToLong(f -> Math.max(0, f.size())).sum();
    }
}
