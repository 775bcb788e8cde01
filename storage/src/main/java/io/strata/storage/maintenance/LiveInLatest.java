package io.strata.storage.maintenance;

import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.manifest.ManifestEntry;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.store.TableContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last check before an expiration deletes data and changelog files: a file live in the latest
 * snapshot is never deleted, whatever the plan says. Checked against the manifests just before
 * deleting, not assumed from the plan.
 */
final class LiveInLatest {
    private static final Logger LOG = LoggerFactory.getLogger(LiveInLatest.class);

    private LiveInLatest() {}

    /** {@code files} without the data and changelog files live in the latest snapshot, each logged. */
    static List<TableFile> without(TableContext table, List<TableFile> files, String operation) {
        Set<String> candidates = new HashSet<>();
        for (TableFile f : files) {
            if (isDataOrChangelog(f)) {
                candidates.add(new Path(f.path()).getName());
            }
        }
        if (candidates.isEmpty()) {
            return files;
        }
        Snapshot latest = table.snapshotManager()
                .latest()
                .orElseThrow(() -> new IllegalStateException(
                        "table " + table.name() + " has no snapshot left: expiration never removes the latest"));
        Set<String> live = new HashSet<>();
        for (ManifestEntry e : table.manifests().scanner().scan(latest.baseManifestList(), EntryFilter.ALL)) {
            if (candidates.contains(e.file().fileName())) {
                live.add(e.file().fileName());
            }
        }
        if (live.isEmpty()) {
            return files;
        }
        List<TableFile> out = new ArrayList<>(files.size());
        for (TableFile f : files) {
            if (isDataOrChangelog(f) && live.contains(new Path(f.path()).getName())) {
                LOG.error(
                        "table {}: {} planned to delete {}, but it is live in the latest snapshot {}; kept",
                        table.name(),
                        operation,
                        f.path(),
                        latest.id());
            } else {
                out.add(f);
            }
        }
        return out;
    }

    private static boolean isDataOrChangelog(TableFile f) {
        return f.kind() == TableFile.Kind.DATA || f.kind() == TableFile.Kind.CHANGELOG;
    }
}
