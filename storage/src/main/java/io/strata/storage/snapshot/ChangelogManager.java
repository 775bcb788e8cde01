package io.strata.storage.snapshot;

import io.strata.storage.fs.FileIO;
import io.strata.storage.fs.TablePaths;
import io.strata.storage.options.ChangelogOptions.Producer;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.Path;

/**
 * The changelog of snapshots that expired while changelog retention keeps their changes: one file
 * {@code changelog/changelog-<id>} per snapshot, holding a copy of the expired snapshot (the same
 * JSON as its snapshot file, docs/FORMAT.md). Its delta and changelog manifest lists, their
 * manifests and the files they add stay until the changelog expires; its base list does not.
 *
 * <p>Snapshot expiration writes {@code changelog-<id>} before it deletes {@code snapshot-<id>},
 * so for every id from the earliest retained changelog to the latest snapshot, a reader finds the
 * snapshot file or the changelog file, never neither. Ids are dense: changelog expiration removes
 * the oldest first.
 */
public final class ChangelogManager {
    private static final Pattern NAME = Pattern.compile("changelog-(\\d+)");
    private static final Pattern EXPIRATION_JOURNAL = Pattern.compile("expiring-(\\d+)-(\\d+)\\.json");

    private final FileIO io;
    private final TablePaths paths;
    private final String tableName;

    public ChangelogManager(FileIO io, TablePaths paths, String tableName) {
        this.io = io;
        this.paths = paths;
        this.tableName = tableName;
    }

    /**
     * The manifest lists that hold the changes {@code snapshot} made, which an incremental read
     * reads and a kept changelog keeps: its changelog list with a changelog producer; with
     * {@code changelog-producer=none}, the delta list of an APPEND snapshot (the files it added
     * are its changes). Empty when it changed nothing readers see.
     */
    public static List<String> changeLists(Snapshot snapshot, Producer producer) {
        if (producer == Producer.NONE) {
            return snapshot.commitKind() == CommitKind.APPEND ? List.of(snapshot.deltaManifestList()) : List.of();
        }
        return snapshot.changelogManifestList() == null ? List.of() : List.of(snapshot.changelogManifestList());
    }

    public Path path(long id) {
        return paths.changelogFile(id);
    }

    /** The changelog kept for expired snapshot {@code id}, if it is retained. */
    public Optional<Snapshot> get(long id) {
        Path path = paths.changelogFile(id);
        byte[] bytes;
        try {
            bytes = io.readFully(path);
        } catch (FileNotFoundException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("table " + tableName + ": cannot read " + path + ": " + e.getMessage(), e);
        }
        return Optional.of(SnapshotManager.parse(path, bytes, id));
    }

    public boolean exists(long id) {
        try {
            return io.exists(paths.changelogFile(id));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "table " + tableName + ": cannot check " + paths.changelogFile(id) + ": " + e.getMessage(), e);
        }
    }

    /**
     * Keeps the changelog of {@code snapshot}, which is about to expire. Idempotent: a rerun of an
     * interrupted expiration, or a concurrent one, writes the same content.
     */
    public void keep(Snapshot snapshot) throws IOException {
        io.mkdirs(paths.changelogDir());
        io.writeNewWhole(paths.changelogFile(snapshot.id()), SnapshotManager.toJson(snapshot));
    }

    /** Deletes the changelog of {@code id}; false when it was gone already. */
    public boolean delete(long id) throws IOException {
        return io.delete(paths.changelogFile(id));
    }

    /** The ids of the retained changelogs, ascending; empty when there are none. */
    public List<Long> ids() {
        List<Long> ids = new ArrayList<>();
        try {
            for (FileIO.FileEntry e : io.list(paths.changelogDir())) {
                Matcher m = NAME.matcher(e.path().getName());
                if (!e.isDirectory() && m.matches()) {
                    ids.add(Long.parseLong(m.group(1)));
                }
            }
        } catch (FileNotFoundException none) {
            return ids;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "table " + tableName + ": cannot list " + paths.changelogDir() + ": " + e.getMessage(), e);
        }
        ids.sort(null);
        return ids;
    }

    public OptionalLong earliestId() {
        List<Long> ids = ids();
        return ids.isEmpty() ? OptionalLong.empty() : OptionalLong.of(ids.get(0));
    }

    /**
     * Where an expiration of the changelogs {@code [from, to)} journals its plan, as snapshot
     * expiration does in {@code snapshot/}.
     */
    public Path expirationJournal(long from, long to) {
        return new Path(paths.changelogDir(), "expiring-" + from + "-" + to + ".json");
    }

    /** The changelog expiration journals present, by name. */
    public List<Path> expirationJournals() {
        List<Path> out = new ArrayList<>();
        try {
            for (FileIO.FileEntry e : io.list(paths.changelogDir())) {
                if (!e.isDirectory()
                        && EXPIRATION_JOURNAL.matcher(e.path().getName()).matches()) {
                    out.add(e.path());
                }
            }
        } catch (FileNotFoundException none) {
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "table " + tableName + ": cannot list " + paths.changelogDir() + ": " + e.getMessage(), e);
        }
        out.sort(null);
        return out;
    }
}
