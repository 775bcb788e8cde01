package io.strata.storage.snapshot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.strata.storage.fs.AtomicPublisher;
import io.strata.storage.fs.FileIO;
import io.strata.storage.fs.TablePaths;
import io.strata.storage.util.CorruptFileException;
import io.strata.storage.util.Json;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.Path;

/**
 * The tags of one table, each a file {@code tag/tag-<name>} holding a copy of its snapshot
 * (docs/FORMAT.md). A tag is created once and never modified; names are 1 to 100 letters, digits,
 * '_', '-' and '.', not only digits (that would read as a snapshot id) and not starting with '.'.
 */
public final class TagManager {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,100}");
    private static final int VERSION = 1;

    private final FileIO io;
    private final TablePaths paths;
    private final String tableName;

    public TagManager(FileIO io, TablePaths paths, String tableName) {
        this.io = io;
        this.paths = paths;
        this.tableName = tableName;
    }

    /** @throws IllegalArgumentException naming the table and the rule when {@code name} is not a tag name */
    public String checkName(String name) {
        if (name == null
                || !NAME.matcher(name).matches()
                || name.startsWith(".")
                || name.chars().allMatch(Character::isDigit)) {
            throw new IllegalArgumentException("table " + tableName + ": '" + name + "' is not a tag name (1 to 100 "
                    + "letters, digits, '_', '-' and '.', not only digits, not starting with '.')");
        }
        return name;
    }

    /**
     * Creates tag {@code name} on {@code snapshot}.
     *
     * @throws IllegalArgumentException when the tag exists, naming the snapshot it is on
     */
    public Tag create(
            AtomicPublisher publisher, String name, Snapshot snapshot, long createdMillis, Optional<Duration> retain) {
        checkName(name);
        Tag tag = new Tag(name, snapshot, createdMillis, retain);
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("version", VERSION);
        root.put("name", name);
        root.put("createdMillis", createdMillis);
        if (retain.isPresent()) {
            root.put("retainMillis", retain.get().toMillis());
        } else {
            root.putNull("retainMillis");
        }
        root.set("snapshot", Json.MAPPER.valueToTree(snapshot));
        try {
            io.mkdirs(paths.tagDir());
            if (!publisher.publish(paths.tagFile(name), Json.MAPPER.writeValueAsBytes(root))) {
                Optional<Tag> there = get(name);
                throw new IllegalArgumentException("table " + tableName + ": tag '" + name + "' exists"
                        + there.map(t -> " (on snapshot " + t.snapshot().id() + ")")
                                .orElse(""));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "table " + tableName + ": cannot create tag '" + name + "': " + e.getMessage(), e);
        }
        return tag;
    }

    /** @return whether the tag existed */
    public boolean delete(String name) {
        checkName(name);
        try {
            return io.delete(paths.tagFile(name));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "table " + tableName + ": cannot delete tag '" + name + "': " + e.getMessage(), e);
        }
    }

    public Optional<Tag> get(String name) {
        checkName(name);
        Path path = paths.tagFile(name);
        byte[] bytes;
        try {
            bytes = io.readFully(path);
        } catch (FileNotFoundException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("table " + tableName + ": cannot read " + path + ": " + e.getMessage(), e);
        }
        return Optional.of(parse(path, bytes));
    }

    /** The tag, or an error naming the table and the tags it has. */
    public Tag require(String name) {
        return get(name)
                .orElseThrow(() -> new IllegalArgumentException("table " + tableName + " has no tag '" + name
                        + "'; its tags: " + list().stream().map(Tag::name).toList()));
    }

    /** Every tag, by snapshot id then name. A tag file that cannot be read fails the listing, naming it. */
    public List<Tag> list() {
        List<Tag> tags = new ArrayList<>();
        try {
            for (FileIO.FileEntry e : io.list(paths.tagDir())) {
                String n = e.path().getName();
                if (!e.isDirectory() && n.startsWith("tag-")) {
                    tags.add(parse(e.path(), io.readFully(e.path())));
                }
            }
        } catch (FileNotFoundException none) {
            return tags;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "table " + tableName + ": cannot read the tags in " + paths.tagDir() + ": " + e.getMessage(), e);
        }
        tags.sort(Comparator.comparingLong((Tag t) -> t.snapshot().id()).thenComparing(Tag::name));
        return tags;
    }

    private static Tag parse(Path path, byte[] bytes) {
        try {
            JsonNode node = Json.MAPPER.readTree(bytes);
            int version = node == null ? -1 : node.path("version").asInt(-1);
            if (version != VERSION) {
                throw new CorruptFileException(
                        path, "unsupported tag version " + version + " (this build reads version " + VERSION + ")");
            }
            Snapshot s = Json.MAPPER.treeToValue(node.get("snapshot"), Snapshot.class);
            JsonNode retain = node.get("retainMillis");
            return new Tag(
                    node.path("name").asText(),
                    s,
                    node.path("createdMillis").asLong(),
                    retain == null || retain.isNull()
                            ? Optional.empty()
                            : Optional.of(Duration.ofMillis(retain.asLong())));
        } catch (IOException | RuntimeException e) {
            if (e instanceof CorruptFileException) {
                throw (CorruptFileException) e;
            }
            throw new CorruptFileException(path, "cannot parse tag: " + e.getMessage(), e);
        }
    }
}
