package io.strata.storage.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.strata.storage.fs.FileIO;
import io.strata.storage.fs.JsonChecksum;
import io.strata.storage.fs.TablePaths;
import io.strata.storage.util.CorruptFileException;
import io.strata.storage.util.Json;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.Path;

/**
 * A manifest list: the ordered manifests of one snapshot's base, delta or changelog, stored as
 * JSON {@code {"version": 1, "manifests": [...]}} in {@code manifest/manifest-list-<uuid>-<n>.json}.
 */
public final class ManifestList {
    public static final int VERSION = 1;

    private final FileIO io;
    private final TablePaths paths;
    private final ManifestCache cache;
    private final String uuid = UUID.randomUUID().toString();
    private final AtomicInteger counter = new AtomicInteger();

    public ManifestList(FileIO io, TablePaths paths) {
        this(io, paths, ManifestCache.disabled());
    }

    public ManifestList(FileIO io, TablePaths paths, ManifestCache cache) {
        this.io = io;
        this.paths = paths;
        this.cache = cache;
    }

    /** Writes a new manifest list and returns its file name. */
    public String write(List<ManifestFileMeta> manifests) throws IOException {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("version", VERSION);
        ArrayNode arr = root.putArray("manifests");
        for (ManifestFileMeta m : manifests) {
            arr.add(Json.MAPPER.valueToTree(m));
        }
        String name = "manifest-list-" + uuid + "-" + counter.getAndIncrement() + ".json";
        io.mkdirs(paths.manifestDir());
        io.writeNew(paths.manifestFile(name), JsonChecksum.seal(root));
        return name;
    }

    /** The manifests of list {@code name}. Fails naming the list if it is missing or corrupt. */
    public List<ManifestFileMeta> read(String name) {
        Path path = paths.manifestFile(name);
        return cache.get(path, () -> readFile(path));
    }

    private List<ManifestFileMeta> readFile(Path path) {
        byte[] bytes;
        try {
            bytes = io.readFully(path);
        } catch (FileNotFoundException e) {
            throw new CorruptFileException(path, "manifest list is missing", e);
        } catch (IOException e) {
            throw new CorruptFileException(path, "cannot read manifest list: " + e.getMessage(), e);
        }
        try {
            JsonNode root = Json.MAPPER.readTree(bytes);
            if (root == null || root.path("version").asInt(-1) != VERSION) {
                throw new CorruptFileException(path, "not a manifest list of version " + VERSION);
            }
            JsonChecksum.verify(path, root);
            List<ManifestFileMeta> out = new ArrayList<>();
            for (JsonNode n : root.path("manifests")) {
                out.add(Json.MAPPER.treeToValue(n, ManifestFileMeta.class));
            }
            return out;
        } catch (IOException | RuntimeException e) {
            if (e instanceof CorruptFileException) {
                throw (CorruptFileException) e;
            }
            throw new CorruptFileException(path, "cannot parse manifest list: " + e.getMessage(), e);
        }
    }

    public Path path(String name) {
        return paths.manifestFile(name);
    }
}
