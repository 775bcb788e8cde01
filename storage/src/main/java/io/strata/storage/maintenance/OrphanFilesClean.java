package io.strata.storage.maintenance;

import io.strata.storage.fs.FileIO;
import io.strata.storage.manifest.ManifestFileMeta;
import io.strata.storage.manifest.ManifestList;
import io.strata.storage.options.FileOptions;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.snapshot.SnapshotManager;
import io.strata.storage.snapshot.Tag;
import io.strata.storage.store.TableContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the files under a table's directory that nothing references and that are older than a
 * threshold: data and changelog files no retained snapshot names, manifests and manifest lists no
 * retained snapshot or tag names, and hidden temporaries ({@code .<name>.tmp}) that a crashed
 * writer or committer left. Schema files, snapshot files, tags, consumers, hints and expiration
 * journals are never candidates; writer registrations go only when their heartbeat is stale.
 *
 * <p>Safety, each a rule and a test:
 *
 * <ul>
 *   <li>the candidates are listed <em>before</em> the referenced set is read, and the snapshots
 *       committed while it was read are added to it just before deleting: a file a commit names
 *       between the two passes is kept;
 *   <li>only files older than the threshold go (default 1 day; under 1 hour only when the caller
 *       says so): a writer's or a committer's files in flight are younger;
 *   <li>a file named with the token of a running writer's registration whose heartbeat is fresh
 *       ({@code orphan-clean.writer-heartbeat-timeout}) stays, however old; registrations are read
 *       after the listing and again just before deleting, so one that appears in between still
 *       protects its files. A registration stale for longer than the threshold is deleted too. One
 *       that cannot be parsed fails the run, naming its file, with nothing deleted;
 *   <li>a file is deleted by itself, never a directory, and never through or at a symbolic link;
 *       a table directory that is a symbolic link is refused, and any listed path outside the
 *       table directory (another scheme, authority or root) is refused and reported;
 *   <li>a directory that lists empty is nothing to delete, not a reason to delete it.
 * </ul>
 */
public final class OrphanFilesClean {
    private static final Logger LOG = LoggerFactory.getLogger(OrphanFilesClean.class);
    /** The smallest threshold accepted without {@link #olderThanAllowingRecent}. */
    public static final Duration MIN_SAFE_AGE = Duration.ofHours(1);

    private static final Set<String> METADATA_DIRS =
            Set.of("schema", "snapshot", "tag", "consumer", "changelog", "writer");

    private final TableContext table;
    private final FileIO io;
    private final Duration olderThan;
    private BulkListing bulkListing;
    private BulkDelete bulkDelete;

    private OrphanFilesClean(TableContext table, Duration olderThan) {
        this.table = table;
        this.io = table.fileIO();
        this.olderThan = olderThan;
        this.bulkListing = dirs -> {
            List<BulkListing.Listed> out = new ArrayList<>(dirs.size());
            for (Path dir : dirs) {
                out.add(listTree(table, dir));
            }
            return out;
        };
        this.bulkDelete = BulkDelete.local(table);
    }

    /**
     * Lists the data and manifest directories through {@code listing} and deletes the orphans
     * through {@code delete} (a Flink job for large tables) instead of in this process; the order
     * of listing and reading the referenced set, the re-check before deleting, the age threshold
     * and the path checks stay here.
     */
    public OrphanFilesClean runningWith(BulkListing listing, BulkDelete delete) {
        this.bulkListing = listing;
        this.bulkDelete = delete;
        return this;
    }

    /**
     * Orphan cleanup of files older than {@code olderThan}.
     *
     * @throws IllegalArgumentException naming the table when {@code olderThan} is under
     *     {@link #MIN_SAFE_AGE} (files of commits in flight could go) or negative
     */
    public static OrphanFilesClean olderThan(TableContext table, Duration olderThan) {
        if (olderThan.compareTo(MIN_SAFE_AGE) < 0) {
            throw new IllegalArgumentException("table " + table.name() + ": orphan cleanup of files younger than "
                    + "1 hour (asked: older than " + olderThan + ") could delete the files of a commit in "
                    + "flight; ask for at least 1 hour, or confirm that no writer or compaction runs");
        }
        return new OrphanFilesClean(table, olderThan);
    }

    /**
     * As {@link #olderThan}, accepting thresholds under an hour (not negative ones): for a caller
     * that knows no writer, committer or compaction is running on the table.
     */
    public static OrphanFilesClean olderThanAllowingRecent(TableContext table, Duration olderThan) {
        if (olderThan.isNegative()) {
            throw new IllegalArgumentException(
                    "table " + table.name() + ": orphan cleanup threshold " + olderThan + " is in the future");
        }
        return new OrphanFilesClean(table, olderThan);
    }

    /** What {@link #clean()} would delete now; deletes nothing. */
    public OrphanCleanResult dryRun() {
        Scan scan = scan();
        return new OrphanCleanResult(scan.orphans, List.of(), scan.youngSkipped, scan.refused, scan.scanned, true);
    }

    /** Deletes the orphans. */
    public OrphanCleanResult clean() {
        Scan scan = scan();
        List<TableFile> deleted = new ArrayList<>();
        try {
            FileDeleter.inStages(table, bulkDelete, scan.orphans, deleted);
        } catch (UncheckedIOException e) {
            throw new UncheckedIOException(
                    "table " + table.name() + ": orphan cleanup stopped after deleting " + deleted.size()
                            + " files (a rerun goes on): " + e.getMessage(),
                    e.getCause());
        }
        if (!deleted.isEmpty() || !scan.refused.isEmpty()) {
            LOG.info(
                    "table {}: orphan cleanup deleted {} files older than {}; refused {}",
                    table.name(),
                    deleted.size(),
                    olderThan,
                    scan.refused);
        }
        return new OrphanCleanResult(scan.orphans, deleted, scan.youngSkipped, scan.refused, scan.scanned, false);
    }

    private static final class Scan {
        final List<TableFile> orphans = new ArrayList<>();
        final List<String> refused = new ArrayList<>();
        int youngSkipped;
        int scanned;
    }

    private Scan scan() {
        Path root = table.paths().root();
        Scan scan = new Scan();
        List<FileIO.FileEntry> candidates = new ArrayList<>();
        try {
            if (io.isSymbolicLink(root)) {
                throw new IllegalStateException("table " + table.name() + ": the table directory " + root
                        + " is a symbolic link; orphan cleanup does not walk it");
            }
            listTable(root, candidates, scan.refused);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "table " + table.name() + ": cannot list " + root + "; nothing deleted: " + e.getMessage(), e);
        }
        long cutoff = table.clock().millis() - olderThan.toMillis();
        // read after listing: a writer registered, or a file committed, after it was listed is seen by then
        InFlightFiles inFlight = new InFlightFiles(table, olderThan);
        inFlight.read();
        Referenced referenced = referenced();
        List<FileIO.FileEntry> old = new ArrayList<>();
        for (FileIO.FileEntry e : candidates) {
            scan.scanned++;
            if (e.modificationTime() >= cutoff) {
                scan.youngSkipped++;
            } else if (!referenced.names.contains(e.path().getName())
                    && !inFlight.protects(e.path().getName())) {
                old.add(e);
            }
        }
        // snapshots committed and writers registered while the referenced set was read
        referenced.addSnapshotsAfter();
        inFlight.read();
        String changelogPrefix = table.schema().tableOptions().get(FileOptions.CHANGELOG_FILE_PREFIX);
        for (FileIO.FileEntry e : old) {
            String name = e.path().getName();
            if (!referenced.names.contains(name) && !inFlight.protects(name)) {
                scan.orphans.add(new TableFile(
                        kindOf(e.path(), root, name, changelogPrefix), e.path().toString(), e.length()));
            }
        }
        // stale registrations protect nothing any more; they go with the orphans
        scan.orphans.addAll(inFlight.staleRegistrations());
        return scan;
    }

    private static TableFile.Kind kindOf(Path path, Path root, String name, String changelogPrefix) {
        if (name.startsWith(".")) {
            return TableFile.Kind.TEMPORARY;
        }
        if (path.getParent().getName().equals("manifest")
                && samePath(path.getParent().getParent(), root)) {
            return name.startsWith("manifest-list-") ? TableFile.Kind.MANIFEST_LIST : TableFile.Kind.MANIFEST;
        }
        return name.startsWith(changelogPrefix) ? TableFile.Kind.CHANGELOG : TableFile.Kind.DATA;
    }

    /**
     * Collects the candidate files of the table directory, in the order of a walk of it: its
     * temporaries, the temporaries of its metadata directories, and through {@link #bulkListing}
     * everything under its other directories (data and manifests), each reported file checked.
     */
    private void listTable(Path root, List<FileIO.FileEntry> out, List<String> refused) throws IOException {
        List<FileIO.FileEntry> top = io.list(root);
        List<Path> trees = new ArrayList<>();
        for (FileIO.FileEntry e : top) {
            if (isInside(e.path(), root)
                    && !e.isSymbolicLink()
                    && e.isDirectory()
                    && !METADATA_DIRS.contains(e.path().getName())) {
                trees.add(e.path());
            }
        }
        List<BulkListing.Listed> listed = trees.isEmpty() ? List.of() : bulkListing.list(trees);
        if (listed.size() != trees.size()) {
            throw new IllegalStateException("table " + table.name() + ": the listing returned " + listed.size()
                    + " listings for " + trees.size() + " directories");
        }
        int next = 0;
        for (FileIO.FileEntry e : top) {
            Path p = e.path();
            if (!isInside(p, root)) {
                refused.add(p + " (outside the table directory " + root + ")");
            } else if (e.isSymbolicLink()) {
                refused.add(p + " (a symbolic link)");
            } else if (e.isDirectory() && METADATA_DIRS.contains(p.getName())) {
                walk(io, root, p, out, refused, 1);
            } else if (e.isDirectory()) {
                Path tree = trees.get(next);
                BulkListing.Listed l = listed.get(next++);
                for (FileIO.FileEntry f : l.files()) {
                    if (f.isDirectory() || f.isSymbolicLink() || !isInside(f.path(), tree)) {
                        refused.add(f.path() + " (reported by the listing of " + tree + " but not a file under it)");
                    } else {
                        out.add(f);
                    }
                }
                refused.addAll(l.refused());
            } else if (p.getName().startsWith(".")) {
                // files directly in the table directory are not the table's, except temporaries
                out.add(e);
            }
        }
    }

    /**
     * The candidate files under {@code dir}, a directory directly under the table directory that
     * holds data or manifests, and the paths refused there (links, paths outside the table
     * directory): what {@link BulkListing} implementations call for each directory they list.
     */
    public static BulkListing.Listed listTree(TableContext table, Path dir) throws IOException {
        List<FileIO.FileEntry> files = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        walk(table.fileIO(), table.paths().root(), dir, files, refused, 1);
        return new BulkListing.Listed(files, refused);
    }

    /**
     * Collects the candidate files under {@code dir}: everything in the data and manifest
     * directories, and only hidden temporaries in {@code schema/} and {@code snapshot/}.
     */
    private static void walk(
            FileIO io, Path root, Path dir, List<FileIO.FileEntry> out, List<String> refused, int depth)
            throws IOException {
        boolean metadataDir = depth == 1 && METADATA_DIRS.contains(dir.getName());
        for (FileIO.FileEntry e : io.list(dir)) {
            Path p = e.path();
            if (!isInside(p, root)) {
                refused.add(p + " (outside the table directory " + root + ")");
                continue;
            }
            if (e.isSymbolicLink()) {
                refused.add(p + " (a symbolic link)");
                continue;
            }
            if (e.isDirectory()) {
                if (!metadataDir) {
                    walk(io, root, p, out, refused, depth + 1);
                }
            } else if (!metadataDir || p.getName().startsWith(".")) {
                out.add(e);
            }
        }
    }

    /** Whether {@code p}, normalised, is strictly under {@code root} on the same file system. */
    static boolean isInside(Path p, Path root) {
        URI u = p.toUri().normalize();
        URI r = root.toUri().normalize();
        if (u.getScheme() != null && r.getScheme() != null && !u.getScheme().equalsIgnoreCase(r.getScheme())) {
            return false;
        }
        // a path that names an authority must name the table's: file://otherhost/... is not under file:/...
        if (u.getAuthority() != null && !u.getAuthority().equals(r.getAuthority())) {
            return false;
        }
        String rp = r.getPath().endsWith("/") ? r.getPath() : r.getPath() + "/";
        return u.getPath().startsWith(rp) && !u.getPath().substring(rp.length()).contains("..");
    }

    private static boolean samePath(Path a, Path b) {
        return a != null
                && a.toUri().normalize().getPath().equals(b.toUri().normalize().getPath());
    }

    /** The names of every file a retained snapshot references, data to manifest list. */
    private final class Referenced {
        final Set<String> names = new HashSet<>();
        long readUpTo;

        void addSnapshot(Snapshot s) {
            ManifestList lists = table.manifests().manifestList();
            for (String list : new String[] {s.baseManifestList(), s.deltaManifestList(), s.changelogManifestList()}) {
                if (list != null) {
                    names.add(list);
                    for (ManifestFileMeta m : lists.read(list)) {
                        names.add(m.fileName());
                    }
                }
            }
        }

        void addList(String list) {
            names.add(list);
            table.manifests().manifestList().read(list).forEach(m -> names.add(m.fileName()));
        }

        void addBaseList(Snapshot s) {
            names.add(s.baseManifestList());
            for (ManifestFileMeta m : table.manifests().manifestList().read(s.baseManifestList())) {
                names.add(m.fileName());
            }
        }

        void addSnapshotsAfter() {
            SnapshotManager snapshots = table.snapshotManager();
            OptionalLong latest = snapshots.latestId();
            if (latest.isEmpty() || latest.getAsLong() <= readUpTo) {
                return;
            }
            try {
                for (long id = readUpTo + 1; id <= latest.getAsLong(); id++) {
                    addSnapshot(snapshots.snapshot(id));
                }
                // data and changelog files of the new snapshots
                names.addAll(new ReachableFiles(table).referencedFrom(readUpTo + 1));
                readUpTo = latest.getAsLong();
            } catch (RuntimeException e) {
                if (!ReachableFiles.hasExpired(snapshots, readUpTo + 1)) {
                    throw e;
                }
                // a new snapshot expired before it was read (a short retention): the files it added
                // that are still live are in no later snapshot's delta, so read the whole set again
                Referenced again = referenced();
                names.addAll(again.names);
                readUpTo = again.readUpTo;
            }
        }
    }

    private Referenced referenced() {
        Referenced r = new Referenced();
        SnapshotManager snapshots = table.snapshotManager();
        OptionalLong latest = snapshots.latestId();
        OptionalLong earliest = snapshots.earliestId();
        // also without a snapshot: the tags still count, and it refuses when the snapshots only
        // seem to be gone
        r.names.addAll(new ReachableFiles(table).referencedByRetainedSnapshots());
        for (Tag t : table.tagManager().list()) {
            r.addBaseList(t.snapshot()); // a tag reads its base list only; expiration keeps no other list of it
        }
        long first = earliest.isPresent() && latest.isPresent() ? earliest.getAsLong() : 1;
        long last = earliest.isPresent() && latest.isPresent() ? latest.getAsLong() : 0;
        for (long id = first; id <= last; id++) {
            try {
                r.addSnapshot(snapshots.snapshot(id));
            } catch (RuntimeException e) {
                if (snapshots.exists(id) || !ReachableFiles.hasExpired(snapshots, id)) {
                    throw e;
                }
                // expired while this ran (before or while its lists were read): its files are live in a
                // later snapshot or unreferenced
            }
        }
        // after the snapshots: a snapshot that expired before it was read has its changelog by then
        new ReachableFiles(table).forEachKeptChangeList(r::addList);
        r.readUpTo = last;
        return r;
    }
}
