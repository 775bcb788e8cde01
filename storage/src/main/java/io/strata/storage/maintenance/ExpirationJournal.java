package io.strata.storage.maintenance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.strata.storage.fs.FileIO;
import io.strata.storage.util.CorruptFileException;
import io.strata.storage.util.Json;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plan of one expiration run, written before it deletes anything so that the next run
 * finishes it after a crash (docs/FORMAT.md): the ids {@code [from, to)} it removes, from which
 * id on their changelog is kept ({@code changelogKeptFrom}, {@code to} when none is), and the
 * files it deletes after the metadata, in order. Snapshot expiration journals in {@code snapshot/},
 * changelog expiration in {@code changelog/}.
 */
record ExpirationJournal(long from, long to, long changelogKeptFrom, List<TableFile> files) {
    private static final Logger LOG = LoggerFactory.getLogger(ExpirationJournal.class);
    /** Version 1 had no {@code changelogKeptFrom}: no changelog was kept. */
    private static final int VERSION = 2;

    ExpirationJournal {
        files = List.copyOf(files);
    }

    /**
     * Writes this journal at {@code path}; one written there already by a concurrent run that
     * planned the same range is as good (both delete the same files).
     */
    void write(FileIO io, Path path, String table) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("version", VERSION);
        root.put("fromId", from);
        root.put("toId", to);
        root.put("changelogKeptFrom", changelogKeptFrom);
        ArrayNode list = root.putArray("files");
        for (TableFile f : files) {
            list.addObject().put("kind", f.kind().name()).put("path", f.path()).put("size", f.size());
        }
        try {
            io.mkdirs(path.getParent());
            io.writeNewWhole(path, Json.MAPPER.writeValueAsBytes(root));
        } catch (FileAlreadyExistsException another) {
            LOG.info("table {}: {} exists already (a concurrent expiration); going on", table, path);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "table " + table + ": cannot write the expiration journal " + path + "; nothing was " + "deleted: "
                            + e.getMessage(),
                    e);
        }
    }

    /** The journal at {@code path}; empty when it is gone (a concurrent run finished it). */
    static Optional<ExpirationJournal> read(FileIO io, Path path) {
        try {
            byte[] bytes;
            try {
                bytes = io.readFully(path);
            } catch (FileNotFoundException done) {
                return Optional.empty();
            }
            JsonNode root = Json.MAPPER.readTree(bytes);
            int version = root.path("version").asInt(-1);
            if (version != 1 && version != VERSION) {
                throw new CorruptFileException(
                        path,
                        "unsupported expiration journal version " + version + " (this build reads versions 1 to "
                                + VERSION + ")");
            }
            List<TableFile> files = new ArrayList<>();
            for (JsonNode f : root.path("files")) {
                files.add(new TableFile(
                        TableFile.Kind.valueOf(f.path("kind").asText()),
                        f.path("path").asText(),
                        f.path("size").asLong(-1)));
            }
            long to = root.path("toId").asLong();
            long keptFrom = version == 1 ? to : root.path("changelogKeptFrom").asLong();
            return Optional.of(new ExpirationJournal(root.path("fromId").asLong(), to, keptFrom, files));
        } catch (IOException | IllegalArgumentException e) {
            throw new CorruptFileException(path, "cannot read the expiration journal: " + e.getMessage(), e);
        }
    }
}
