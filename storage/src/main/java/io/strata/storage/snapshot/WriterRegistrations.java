package io.strata.storage.snapshot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.strata.storage.fs.FileIO;
import io.strata.storage.fs.TablePaths;
import io.strata.storage.util.CorruptFileException;
import io.strata.storage.util.Json;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.fs.Path;

/**
 * The registrations of a table's running writers, each a file {@code writer/writer-<token>}
 * (docs/FORMAT.md): the writer's token, which every data and changelog file it creates carries in
 * its name ({@code <prefix>-<token>-<n>.parquet}), who it is, and its heartbeat. Orphan cleanup
 * keeps the files of a registration whose heartbeat is fresh, however old they are. A registration
 * is replaced whole on every heartbeat ({@link FileIO#overwriteHint}: one PUT on object stores, a
 * write beside and a move elsewhere), so a reader sees an old or a new heartbeat, or, on HDFS, for
 * the moment of the move, no file; a crashed writer leaves its registration behind, with a heartbeat
 * that goes stale.
 */
public final class WriterRegistrations {
    static final int VERSION = 1;
    private static final String PREFIX = "writer-";

    /**
     * One registration.
     *
     * @param token the uuid in the writer's file names
     * @param owner who registered: the commit user, the job, the host
     * @param heartbeatMillis when the writer last said it runs, by its table's clock; {@link
     *     Long#MAX_VALUE} for a registration that was listed but gone when read (being replaced, or
     *     removed by its closing writer), which protects its files for that listing
     */
    public record Registration(String token, String owner, long createdMillis, long heartbeatMillis, Path file) {
        /** Whether the heartbeat is younger than {@code timeout} at {@code nowMillis}. */
        public boolean freshAt(long nowMillis, Duration timeout) {
            return heartbeatMillis == Long.MAX_VALUE || nowMillis - heartbeatMillis < timeout.toMillis();
        }
    }

    private final FileIO io;
    private final TablePaths paths;
    private final String tableName;
    private final Clock clock;

    public WriterRegistrations(FileIO io, TablePaths paths, String tableName, Clock clock) {
        this.io = io;
        this.paths = paths;
        this.tableName = tableName;
        this.clock = clock;
    }

    /**
     * A writer that registers when it names its first file (see {@link InFlightWriter}), renewing on
     * its activity every quarter of {@code heartbeatTimeout}.
     */
    public InFlightWriter newWriter(String owner, Duration heartbeatTimeout) {
        return new InFlightWriter(this, UUID.randomUUID().toString(), owner, clock, heartbeatTimeout);
    }

    public String tableName() {
        return tableName;
    }

    Path file(String token) {
        return new Path(paths.writerDir(), PREFIX + token);
    }

    /** Writes (or replaces) the registration of {@code token} with a heartbeat of {@code heartbeatMillis}. */
    public void write(String token, String owner, long createdMillis, long heartbeatMillis) throws IOException {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("version", VERSION);
        root.put("token", token);
        root.put("owner", owner);
        root.put("createdMillis", createdMillis);
        root.put("heartbeatMillis", heartbeatMillis);
        Path f = file(token);
        io.mkdirs(f.getParent());
        io.overwriteHint(f, Json.MAPPER.writeValueAsString(root));
    }

    /** Removes the registration of {@code token}; false when there was none. */
    public boolean remove(String token) throws IOException {
        return io.delete(file(token));
    }

    /**
     * Every registration, by token. One that cannot be parsed fails the listing with a {@link
     * CorruptFileException} naming its file: a caller that deletes unprotected files must not go on
     * without it.
     */
    public List<Registration> list() {
        List<Registration> out = new ArrayList<>();
        Path dir = paths.writerDir();
        List<FileIO.FileEntry> entries;
        try {
            entries = io.list(dir);
        } catch (FileNotFoundException none) {
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "table " + tableName + ": cannot list the writer registrations in " + dir + ": " + e.getMessage(),
                    e);
        }
        for (FileIO.FileEntry e : entries) {
            String n = e.path().getName();
            if (e.isDirectory() || e.isSymbolicLink() || !n.startsWith(PREFIX)) {
                continue;
            }
            String token = n.substring(PREFIX.length());
            byte[] bytes;
            try {
                bytes = io.readFully(e.path());
            } catch (FileNotFoundException gone) {
                out.add(new Registration(token, "(gone while listed)", -1, Long.MAX_VALUE, e.path()));
                continue;
            } catch (IOException ex) {
                throw new UncheckedIOException(
                        "table " + tableName + ": cannot read " + e.path() + ": " + ex.getMessage(), ex);
            }
            out.add(parse(token, e.path(), bytes));
        }
        out.sort(Comparator.comparing(Registration::token));
        return out;
    }

    private static Registration parse(String token, Path path, byte[] bytes) {
        JsonNode node;
        try {
            node = Json.MAPPER.readTree(bytes);
        } catch (IOException e) {
            throw new CorruptFileException(path, "cannot parse writer registration: " + e.getMessage(), e);
        }
        if (node == null || node.path("version").asInt(-1) != VERSION) {
            throw new CorruptFileException(path, "not a writer registration of version " + VERSION);
        }
        if (!token.equals(node.path("token").asText(null))
                || !node.path("heartbeatMillis").isIntegralNumber()) {
            throw new CorruptFileException(
                    path, "a writer registration needs token '" + token + "' (its file name's) and heartbeatMillis");
        }
        return new Registration(
                token,
                node.path("owner").asText(""),
                node.path("createdMillis").asLong(-1),
                node.get("heartbeatMillis").asLong(),
                path);
    }
}
