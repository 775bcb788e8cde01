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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.Path;

/**
 * Named reader positions of one table, each a file {@code consumer/consumer-<id>} (docs/FORMAT.md):
 * the next snapshot the consumer reads. Expiration keeps that snapshot and every later one, so a
 * reader that is behind keeps its changes. A position is replaced whole on every update.
 */
public final class ConsumerManager {
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_.-]{1,100}");
    private static final int VERSION = 1;

    /** One consumer: the next snapshot it reads, and when its position was last written. */
    public record Consumer(String id, long nextSnapshot, long updatedMillis) {}

    private final FileIO io;
    private final TablePaths paths;
    private final String tableName;

    public ConsumerManager(FileIO io, TablePaths paths, String tableName) {
        this.io = io;
        this.paths = paths;
        this.tableName = tableName;
    }

    public String checkId(String id) {
        if (id == null || !ID.matcher(id).matches() || id.startsWith(".")) {
            throw new IllegalArgumentException("table " + tableName + ": '" + id + "' is not a consumer id (1 to 100 "
                    + "letters, digits, '_', '-' and '.', not starting with '.')");
        }
        return id;
    }

    private Path file(String id) {
        return new Path(new Path(paths.root(), "consumer"), "consumer-" + checkId(id));
    }

    /** Records that consumer {@code id} reads snapshot {@code nextSnapshot} next. */
    public void record(String id, long nextSnapshot, long nowMillis) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("version", VERSION);
        root.put("nextSnapshot", nextSnapshot);
        root.put("updatedMillis", nowMillis);
        try {
            io.mkdirs(file(id).getParent());
            io.overwriteHint(file(id), Json.MAPPER.writeValueAsString(root));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "table " + tableName + ": cannot record the position of consumer '" + id + "': " + e.getMessage(),
                    e);
        }
    }

    public Optional<Consumer> get(String id) {
        Path path = file(id);
        try {
            return Optional.of(parse(id, path, io.readFully(path)));
        } catch (FileNotFoundException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("table " + tableName + ": cannot read " + path + ": " + e.getMessage(), e);
        }
    }

    /** @return whether the consumer existed */
    public boolean delete(String id) {
        try {
            return io.delete(file(id));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "table " + tableName + ": cannot delete consumer '" + id + "': " + e.getMessage(), e);
        }
    }

    /** Every consumer, by id. A position that cannot be read fails the listing, naming its file. */
    public List<Consumer> list() {
        List<Consumer> out = new ArrayList<>();
        Path dir = new Path(paths.root(), "consumer");
        try {
            for (FileIO.FileEntry e : io.list(dir)) {
                String n = e.path().getName();
                if (!e.isDirectory() && n.startsWith("consumer-")) {
                    out.add(parse(n.substring("consumer-".length()), e.path(), io.readFully(e.path())));
                }
            }
        } catch (FileNotFoundException none) {
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "table " + tableName + ": cannot read the consumers in " + dir + ": " + e.getMessage(), e);
        }
        out.sort(Comparator.comparing(Consumer::id));
        return out;
    }

    private static Consumer parse(String id, Path path, byte[] bytes) {
        try {
            JsonNode node = Json.MAPPER.readTree(bytes);
            int version = node == null ? -1 : node.path("version").asInt(-1);
            if (version != VERSION || !node.hasNonNull("nextSnapshot")) {
                throw new CorruptFileException(path, "not a consumer position of version " + VERSION);
            }
            return new Consumer(
                    id,
                    node.get("nextSnapshot").asLong(),
                    node.path("updatedMillis").asLong());
        } catch (IOException e) {
            throw new CorruptFileException(path, "cannot parse consumer position: " + e.getMessage(), e);
        }
    }
}
