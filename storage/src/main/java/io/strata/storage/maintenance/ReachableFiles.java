package io.strata.storage.maintenance;

import io.strata.storage.fs.FileIO;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.manifest.FileKind;
import io.strata.storage.manifest.ManifestEntry;
import io.strata.storage.options.ChangelogOptions;
import io.strata.storage.options.ChangelogOptions.Producer;
import io.strata.storage.snapshot.ChangelogManager;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.snapshot.SnapshotManager;
import io.strata.storage.snapshot.SnapshotNotFoundException;
import io.strata.storage.snapshot.Tag;
import io.strata.storage.store.TableContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.hadoop.fs.Path;

/**
 * Which data and changelog files of a table are reachable, and which files are on disk: the one
 * place that answers both, for the compaction job's cleanup of its failed attempts and for orphan
 * cleanup. Holds file names only, never file contents.
 *
 * <p>A file is reachable when a retained snapshot references it as data or as changelog: the live
 * files of the earliest retained snapshot, and every file added (as data or changelog) by the
 * snapshots after it, and the files the kept changelogs of expired snapshots hold. A snapshot that
 * expires while this runs is skipped; its files are live in a later snapshot, held by its kept
 * changelog (written before the snapshot goes, and read after the snapshots) or unreachable. A
 * retained snapshot that is missing (not expired) or cannot be read fails the call, naming it.
 */
public final class ReachableFiles {
    /** The table-level directories that hold metadata, never data or changelog files. */
    private static final Set<String> METADATA_DIRS =
            Set.of("schema", "snapshot", "manifest", "tag", "consumer", "changelog", "writer");

    private final TableContext table;

    public ReachableFiles(TableContext table) {
        this.table = table;
    }

    /**
     * The names of every data and changelog file a retained snapshot or a tag references. A tag
     * that cannot be read fails the call, naming it: a caller that deletes what is not referenced
     * must not go on without it.
     */
    public Set<String> referencedByRetainedSnapshots() {
        Set<String> names = new HashSet<>();
        for (Tag t : table.tagManager().list()) {
            addLive(t.snapshot(), names);
        }
        SnapshotManager snapshots = table.snapshotManager();
        OptionalLong latest = snapshots.latestId();
        OptionalLong earliest = snapshots.earliestId();
        if (latest.isEmpty() || earliest.isEmpty()) {
            List<String> signs = signsOfACommit();
            if (signs.isEmpty()) {
                return names;
            }
            // a first commit may have landed since the probe: look once more before refusing
            latest = snapshots.latestId();
            earliest = snapshots.earliestId();
            if (latest.isEmpty() || earliest.isEmpty()) {
                throw new IllegalStateException("table " + table.name() + ": no snapshot was found in "
                        + table.paths().snapshotDir() + ", but " + String.join(" and ", signs)
                        + "; refusing to treat the table's files as unreferenced (is the listing incomplete?)");
            }
        }
        boolean first = true;
        for (long id = earliest.getAsLong(); id <= latest.getAsLong(); id++) {
            Snapshot s;
            try {
                s = snapshots.snapshot(id);
            } catch (SnapshotNotFoundException missing) {
                if (hasExpired(snapshots, id)) {
                    continue;
                }
                throw missing;
            }
            try {
                if (first) {
                    addLive(s, names);
                    addChangelog(s, names);
                    first = false;
                } else {
                    addAdded(s, names);
                }
            } catch (RuntimeException e) {
                if (snapshots.exists(id) || !hasExpired(snapshots, id)) {
                    throw e;
                }
                // expired while it was read: its files are live in a later snapshot, held by its
                // changelog or unreferenced
            }
        }
        addKeptChangelogs(names);
        return names;
    }

    /**
     * A table without a snapshot has nothing referenced, so every file would be an orphan: before
     * answering that, look for signs that the table did commit and the snapshots were only not
     * seen (a listing that came back incomplete, an unreadable directory): a snapshot hint, which
     * is written only after a snapshot is published and never deleted. Manifests are no such sign:
     * a first commit writes its manifests before it publishes. Any sign fails the call; a caller
     * that deletes what is not referenced must not go on.
     */
    private List<String> signsOfACommit() {
        FileIO io = table.fileIO();
        List<String> signs = new ArrayList<>();
        try {
            for (Path hint : List.of(table.paths().latestHint(), table.paths().earliestHint())) {
                if (io.exists(hint)) {
                    signs.add("the hint " + hint + " exists");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "table " + table.name() + ": no snapshot was found in "
                            + table.paths().snapshotDir() + " and the table's snapshot hints cannot be checked: "
                            + e.getMessage(),
                    e);
        }
        return signs;
    }

    /** The files the kept changelogs hold. */
    private void addKeptChangelogs(Set<String> names) {
        forEachKeptChangeList(list -> {
            for (ManifestEntry e : table.manifests().scanner().entries(list)) {
                if (e.kind() == FileKind.ADD) {
                    names.add(e.file().fileName());
                }
            }
        });
    }

    /**
     * Hands {@code reader} each manifest list that holds the changes of a kept changelog
     * ({@link ChangelogManager#changeLists}). A changelog that expires while this runs holds
     * nothing: one gone when read is skipped, and so is a failure of {@code reader} once its
     * changelog is gone; any other failure is thrown.
     */
    void forEachKeptChangeList(Consumer<String> reader) {
        Producer producer = table.schema().tableOptions().get(ChangelogOptions.CHANGELOG_PRODUCER);
        for (long id : table.changelogManager().ids()) {
            Optional<Snapshot> kept = table.changelogManager().get(id);
            try {
                kept.ifPresent(c -> ChangelogManager.changeLists(c, producer).forEach(reader));
            } catch (RuntimeException e) {
                if (table.changelogManager().exists(id)) {
                    throw e;
                }
            }
        }
    }

    /**
     * Whether snapshot {@code id}, found missing, has expired: it is below the earliest snapshot now
     * (expiration deletes oldest first). A missing snapshot at or above the earliest is a hole, not
     * an expiration; skipping it would lose the files it added that later snapshots still read, so
     * callers fail instead (paimon #5229).
     */
    static boolean hasExpired(SnapshotManager snapshots, long id) {
        OptionalLong earliest = snapshots.earliestId();
        return earliest.isPresent() && id < earliest.getAsLong();
    }

    /**
     * The names of the data and changelog files that snapshots from {@code fromId} to the latest
     * added: what became reachable since a reader of the referenced set read up to
     * {@code fromId - 1}.
     */
    public Set<String> referencedFrom(long fromId) {
        Set<String> names = new HashSet<>();
        OptionalLong latest = table.snapshotManager().latestId();
        for (long id = fromId; latest.isPresent() && id <= latest.getAsLong(); id++) {
            addAdded(table.snapshotManager().snapshot(id), names);
        }
        return names;
    }

    /** The files live in {@code s}. */
    private void addLive(Snapshot s, Set<String> names) {
        for (ManifestEntry e : table.manifests().scanner().scan(s.baseManifestList(), EntryFilter.ALL)) {
            names.add(e.file().fileName());
        }
    }

    /** The data files {@code s} added and its changelog files. */
    private void addAdded(Snapshot s, Set<String> names) {
        for (ManifestEntry e : table.manifests().scanner().entries(s.deltaManifestList())) {
            if (e.kind() == FileKind.ADD) {
                names.add(e.file().fileName());
            }
        }
        addChangelog(s, names);
    }

    private void addChangelog(Snapshot s, Set<String> names) {
        if (s.changelogManifestList() != null) {
            for (ManifestEntry e : table.manifests().scanner().entries(s.changelogManifestList())) {
                names.add(e.file().fileName());
            }
        }
    }

    /**
     * The files under the table's partition and bucket directories (data and changelog files, and
     * anything else left there) whose name {@code nameFilter} accepts. Metadata directories are not
     * walked.
     */
    public List<Path> dataDirectoryFiles(Predicate<String> nameFilter) throws IOException {
        List<Path> out = new ArrayList<>();
        walk(table.fileIO(), table.paths().root(), nameFilter, out, true);
        return out;
    }

    private static void walk(FileIO io, Path dir, Predicate<String> nameFilter, List<Path> out, boolean top)
            throws IOException {
        for (FileIO.FileEntry e : io.list(dir)) {
            String name = e.path().getName();
            if (e.isDirectory()) {
                if (!(top && METADATA_DIRS.contains(name))) {
                    walk(io, e.path(), nameFilter, out, false);
                }
            } else if (nameFilter.test(name)) {
                out.add(e.path());
            }
        }
    }
}
