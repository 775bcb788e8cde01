package io.strata.storage.snapshot;

import com.fasterxml.jackson.databind.JsonNode;
import io.strata.storage.fs.AtomicPublisher;
import io.strata.storage.fs.FileIO;
import io.strata.storage.fs.JsonChecksum;
import io.strata.storage.fs.TablePaths;
import io.strata.storage.util.CorruptFileException;
import io.strata.storage.util.Json;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds and reads snapshots. Snapshot ids are dense between EARLIEST and LATEST. The LATEST and
 * EARLIEST files are hints: the latest snapshot is found by reading the hint and probing the id
 * after it, listing the snapshot directory when that one exists too (a stale hint) or the hint
 * is missing or unreadable. Correctness never depends on a hint being current.
 */
public final class SnapshotManager {
    private static final Pattern EXPIRATION_JOURNAL = Pattern.compile("expiring-(\\d+)-(\\d+)\\.json");
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotManager.class);

    private final FileIO io;
    private final TablePaths paths;
    private final String tableName;

    public SnapshotManager(FileIO io, TablePaths paths, String tableName) {
        this.io = io;
        this.paths = paths;
        this.tableName = tableName;
    }

    /**
     * Where an expiration of snapshots {@code [from, to)} journals its plan (docs/FORMAT.md): the
     * range is in the name, so that a reader can tell which snapshots are being expired without
     * reading the journal.
     */
    public Path expirationJournal(long from, long to) {
        return new Path(paths.snapshotDir(), "expiring-" + from + "-" + to + ".json");
    }

    /** The expiration journals present, by name. */
    public List<Path> expirationJournals() throws IOException {
        List<Path> out = new ArrayList<>();
        for (FileIO.FileEntry e : io.list(paths.snapshotDir())) {
            if (!e.isDirectory()
                    && EXPIRATION_JOURNAL.matcher(e.path().getName()).matches()) {
                out.add(e.path());
            }
        }
        out.sort(null);
        return out;
    }

    /**
     * The range {@code [from, to)} of an expiration journal that covers snapshot {@code id}, when
     * one exists: that snapshot is being expired and must not be tagged.
     */
    public Optional<long[]> expiringRangeCovering(long id) {
        try {
            for (Path journal : expirationJournals()) {
                Matcher m = EXPIRATION_JOURNAL.matcher(journal.getName());
                if (m.matches() && Long.parseLong(m.group(1)) <= id && id < Long.parseLong(m.group(2))) {
                    return Optional.of(new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))});
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "table " + tableName + ": cannot list " + paths.snapshotDir() + ": " + e.getMessage(), e);
        }
        return Optional.empty();
    }

    public FileIO fileIO() {
        return io;
    }

    public Path snapshotDir() {
        return paths.snapshotDir();
    }

    public Path snapshotPath(long id) {
        return paths.snapshotFile(id);
    }

    /** Reads snapshot {@code id}; fails naming the file when it is missing or corrupt. */
    public Snapshot snapshot(long id) {
        Path path = paths.snapshotFile(id);
        byte[] bytes;
        try {
            bytes = io.readFully(path);
        } catch (FileNotFoundException e) {
            OptionalLong earliest = earliestId();
            if (earliest.isPresent() && id < earliest.getAsLong()) {
                throw new SnapshotNotFoundException("table " + tableName + ": snapshot " + id
                        + " has expired; the earliest retained snapshot is " + earliest.getAsLong());
            }
            OptionalLong latest = latestId();
            if (latest.isPresent() && id > latest.getAsLong()) {
                throw new SnapshotNotFoundException(
                        "table " + tableName + " has no snapshot " + id + ": the latest is " + latest.getAsLong());
            }
            if (latest.isEmpty()) {
                throw new SnapshotNotFoundException(
                        "table " + tableName + " has no snapshot " + id + ": it has no snapshots yet");
            }
            throw new SnapshotNotFoundException("table " + tableName + " has no snapshot " + id + " (" + path + ")");
        } catch (IOException e) {
            throw new UncheckedIOException("table " + tableName + ": cannot read " + path + ": " + e.getMessage(), e);
        }
        return parse(path, bytes, id);
    }

    /** The JSON of a snapshot file: the snapshot and its content checksum ({@link JsonChecksum}). */
    static byte[] toJson(Snapshot snapshot) throws IOException {
        return JsonChecksum.seal(Json.MAPPER.valueToTree(snapshot));
    }

    static Snapshot parse(Path path, byte[] bytes, long expectedId) {
        try {
            JsonNode node = Json.MAPPER.readTree(bytes);
            if (node == null || !node.isObject()) {
                throw new CorruptFileException(path, "not a JSON snapshot");
            }
            JsonChecksum.verify(path, node);
            int version = node.path("version").asInt(-1);
            if (version != Snapshot.FORMAT_VERSION) {
                throw new CorruptFileException(
                        path,
                        "unsupported snapshot version " + version + " (this build reads version "
                                + Snapshot.FORMAT_VERSION + ")");
            }
            Snapshot s = Json.MAPPER.treeToValue(node, Snapshot.class);
            if (s.id() != expectedId || s.baseManifestList() == null || s.commitKind() == null) {
                throw new CorruptFileException(path, "snapshot content is inconsistent (id " + s.id() + ")");
            }
            return s;
        } catch (IOException | RuntimeException e) {
            if (e instanceof CorruptFileException) {
                throw (CorruptFileException) e;
            }
            throw new CorruptFileException(path, "cannot parse snapshot: " + e.getMessage(), e);
        }
    }

    public boolean exists(long id) {
        try {
            return io.exists(paths.snapshotFile(id));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The highest snapshot id, at the cost of a hint read and two probes when the hint is current.
     * When the snapshot after the hint exists too the hint is stale (a committer died before moving
     * it, or could not move it) by any number of ids: one listing of the snapshot directory finds
     * the latest, instead of a probe per id (on an object store a probe is one or two requests).
     */
    public OptionalLong latestId() {
        try {
            OptionalLong hint = readHint(paths.latestHint());
            if (hint.isPresent() && io.exists(paths.snapshotFile(hint.getAsLong()))) {
                long id = hint.getAsLong();
                if (!io.exists(paths.snapshotFile(id + 1))) {
                    return OptionalLong.of(id);
                }
                long listed =
                        listIds().stream().mapToLong(Long::longValue).max().orElse(id + 1);
                return OptionalLong.of(Math.max(listed, id + 1));
            }
            return listIds().stream().mapToLong(Long::longValue).max();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "table " + tableName + ": cannot find latest snapshot: " + e.getMessage(), e);
        }
    }

    public OptionalLong earliestId() {
        try {
            OptionalLong hint = readHint(paths.earliestHint());
            if (hint.isPresent() && io.exists(paths.snapshotFile(hint.getAsLong()))) {
                long id = hint.getAsLong();
                // expiration deletes from the oldest upward, so an older one may still exist
                while (id > 1 && io.exists(paths.snapshotFile(id - 1))) {
                    id--;
                }
                return OptionalLong.of(id);
            }
            return listIds().stream().mapToLong(Long::longValue).min();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "table " + tableName + ": cannot find earliest snapshot: " + e.getMessage(), e);
        }
    }

    public Optional<Snapshot> latest() {
        OptionalLong id = latestId();
        return id.isPresent() ? Optional.of(snapshot(id.getAsLong())) : Optional.empty();
    }

    /** The latest snapshot committed at or before {@code timeMillis}. */
    public Optional<Snapshot> atOrBefore(long timeMillis) {
        OptionalLong lo = earliestId();
        OptionalLong hi = latestId();
        if (lo.isEmpty()) {
            return Optional.empty();
        }
        long l = lo.getAsLong();
        long h = hi.getAsLong();
        Snapshot best = null;
        while (l <= h) {
            long mid = (l + h) >>> 1;
            Snapshot s = snapshot(mid);
            if (s.timeMillis() <= timeMillis) {
                best = s;
                l = mid + 1;
            } else {
                h = mid - 1;
            }
        }
        return Optional.ofNullable(best);
    }

    /** All snapshot ids present, ascending. */
    public List<Long> listIds() throws IOException {
        List<Long> ids = new ArrayList<>();
        for (FileIO.FileEntry st : io.list(paths.snapshotDir())) {
            String n = st.path().getName();
            if (n.startsWith("snapshot-")) {
                try {
                    ids.add(Long.parseLong(n.substring("snapshot-".length())));
                } catch (NumberFormatException ignored) {
                    // not a snapshot
                }
            }
        }
        ids.sort(null);
        return ids;
    }

    /**
     * Publishes {@code snapshot} with the table's atomic primitive.
     *
     * @return false if a snapshot with that id already exists (another committer won)
     */
    public boolean publish(AtomicPublisher publisher, Snapshot snapshot) throws IOException {
        io.mkdirs(paths.snapshotDir());
        boolean ok = publisher.publish(paths.snapshotFile(snapshot.id()), toJson(snapshot));
        if (ok) {
            try {
                io.overwriteHint(paths.latestHint(), Long.toString(snapshot.id()));
                if (snapshot.id() == 1) {
                    io.overwriteHint(paths.earliestHint(), "1");
                }
            } catch (IOException e) {
                LOG.warn(
                        "table {}: snapshot {} committed but the LATEST hint was not updated: {}",
                        tableName,
                        snapshot.id(),
                        e.toString());
            }
        }
        return ok;
    }

    private OptionalLong readHint(Path hint) {
        try {
            String s = io.readUtf8(hint).trim();
            return OptionalLong.of(Long.parseLong(s));
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
    }
}
