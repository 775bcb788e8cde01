package io.strata.storage.testutil;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.strata.storage.fs.JsonChecksum;
import io.strata.storage.util.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/** Rewrites JSON metadata files (snapshots, manifest lists) as a writer would have written them. */
public final class JsonFiles {
    private JsonFiles() {}

    /**
     * Applies {@code edit} to the file's top-level object and writes it back with a content
     * checksum that matches (as a writer of that content would have): for tests of content that is
     * well-formed but wrong, not damaged.
     */
    public static void rewriteSealed(Path file, Consumer<ObjectNode> edit) {
        try {
            ObjectNode root = (ObjectNode) Json.MAPPER.readTree(Files.readAllBytes(file));
            edit.accept(root);
            Files.write(file, JsonChecksum.seal(root));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Removes the content checksum, as files written before checksums existed have none. */
    public static void removeChecksum(Path file) {
        try {
            ObjectNode root = (ObjectNode) Json.MAPPER.readTree(Files.readAllBytes(file));
            root.remove(JsonChecksum.FIELD);
            Files.write(file, Json.MAPPER.writeValueAsBytes(root));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
