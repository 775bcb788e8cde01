package io.strata.compaction.commit;

import io.strata.compaction.job.JobTables;
import io.strata.storage.fs.FileIO;
import io.strata.storage.manifest.FileKind;
import io.strata.storage.manifest.ManifestEntry;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.snapshot.SnapshotNotFoundException;
import io.strata.storage.table.FileStoreTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the files that earlier attempts of this job wrote but never committed: rewrites that
 * ran after the last completed checkpoint of an attempt that then failed. They are recognised by
 * name ({@link JobTables#filePrefix}: this job's tag and an attempt number below the current one)
 * and deleted only when no retained snapshot references them, as data or as changelog.
 *
 * <p>Safe to run concurrently with this attempt's rewrites (their files carry the current attempt)
 * and with ingestion (writers' files carry another prefix). Runs after the committer has
 * re-committed the results of the restored checkpoint, so those are referenced by then.
 */
final class FailedAttemptFiles {
    private static final Logger LOG = LoggerFactory.getLogger(FailedAttemptFiles.class);

    private FailedAttemptFiles() {
    }

    /** @return the number of files deleted */
    static int clean(FileStoreTable table, String commitUser, int currentAttempt) throws IOException {
        List<Path> candidates = new ArrayList<>();
        collect(table.fileIO(), table.paths().root(), commitUser, currentAttempt, candidates, true);
        if (candidates.isEmpty()) {
            return 0;
        }
        Set<String> referenced = referenced(table);
        int deleted = 0;
        for (Path p : candidates) {
            if (!referenced.contains(p.getName())) {
                table.fileIO().delete(p);
                deleted++;
            }
        }
        if (deleted > 0) {
            LOG.info("table {}: removed {} files that failed attempts of {} wrote and never committed", table.name(),
                    deleted, commitUser);
        }
        return deleted;
    }

    private static void collect(FileIO io, Path dir, String user, int attempt, List<Path> out, boolean top)
            throws IOException {
        for (FileIO.FileEntry e : io.list(dir)) {
            String name = e.path().getName();
            if (e.isDirectory()) {
                if (!(top && (name.equals("schema") || name.equals("snapshot") || name.equals("manifest")))) {
                    collect(io, e.path(), user, attempt, out, false);
                }
            } else {
                int a = JobTables.attemptOf(name, user);
                if (a >= 0 && a < attempt) {
                    out.add(e.path());
                }
            }
        }
    }

    /**
     * Every data and changelog file name any retained snapshot references: the live files of the
     * earliest snapshot plus everything added by the deltas and changelogs after it.
     */
    private static Set<String> referenced(FileStoreTable table) {
        Set<String> names = new HashSet<>();
        OptionalLong latest = table.snapshotManager().latestId();
        OptionalLong earliest = table.snapshotManager().earliestId();
        if (latest.isEmpty() || earliest.isEmpty()) {
            return names;
        }
        boolean first = true;
        for (long id = earliest.getAsLong(); id <= latest.getAsLong(); id++) {
            Snapshot s;
            try {
                s = table.snapshotManager().snapshot(id);
            } catch (SnapshotNotFoundException expired) {
                continue;
            }
            if (first) {
                table.manifests().scanner().scan(s.baseManifestList(), io.strata.storage.manifest.EntryFilter.ALL)
                        .forEach(e -> names.add(e.file().fileName()));
                first = false;
            } else {
                for (ManifestEntry e : table.manifests().scanner().entries(s.deltaManifestList())) {
                    if (e.kind() == FileKind.ADD) {
                        names.add(e.file().fileName());
                    }
                }
            }
            if (s.changelogManifestList() != null) {
                table.manifests().scanner().entries(s.changelogManifestList()).forEach(e -> names.add(e.file().fileName()));
            }
        }
        return names;
    }
}
