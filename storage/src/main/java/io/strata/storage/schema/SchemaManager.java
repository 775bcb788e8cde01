package io.strata.storage.schema;

import com.fasterxml.jackson.databind.JsonNode;
import io.strata.storage.fs.AtomicPublisher;
import io.strata.storage.fs.FileIO;
import io.strata.storage.fs.TablePaths;
import io.strata.storage.options.InvalidOptionException;
import io.strata.storage.util.CorruptFileException;
import io.strata.storage.util.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.Path;

/** Reads and publishes the schema versions of one table. Schema files are immutable. */
public final class SchemaManager {
    private final FileIO io;
    private final TablePaths paths;
    private final String tableName;
    private final Map<Long, TableSchema> cache = new ConcurrentHashMap<>();

    public SchemaManager(FileIO io, TablePaths paths, String tableName) {
        this.io = io;
        this.paths = paths;
        this.tableName = tableName;
    }

    /** Publishes {@code schema}; false if that schema id already exists (someone else won). */
    public boolean publish(AtomicPublisher publisher, TableSchema schema) throws IOException {
        io.mkdirs(paths.schemaDir());
        byte[] json = Json.MAPPER.writeValueAsBytes(schema);
        return publisher.publish(paths.schemaFile(schema.id()), json);
    }

    public OptionalLong latestId() throws IOException {
        long max = -1;
        for (FileIO.FileEntry st : io.list(paths.schemaDir())) {
            String n = st.path().getName();
            if (n.startsWith("schema-")) {
                try {
                    max = Math.max(max, Long.parseLong(n.substring("schema-".length())));
                } catch (NumberFormatException ignored) {
                    // not a schema file (e.g. a temporary file); skip
                }
            }
        }
        return max < 0 ? OptionalLong.empty() : OptionalLong.of(max);
    }

    public TableSchema latest() {
        try {
            OptionalLong id = latestId();
            if (id.isEmpty()) {
                throw new IllegalStateException("table " + tableName + " has no schema under " + paths.schemaDir());
            }
            return schema(id.getAsLong());
        } catch (IOException e) {
            throw new UncheckedIOException("table " + tableName + ": cannot list schemas: " + e.getMessage(), e);
        }
    }

    public TableSchema schema(long id) {
        return cache.computeIfAbsent(id, this::load);
    }

    private TableSchema load(long id) {
        Path file = paths.schemaFile(id);
        byte[] bytes;
        try {
            bytes = io.readFully(file);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "table " + tableName + ": cannot read schema file " + file + ": " + e.getMessage(), e);
        }
        try {
            JsonNode node = Json.MAPPER.readTree(bytes);
            int version = node.path("version").asInt(-1);
            if (version < TableSchema.OLDEST_FORMAT_VERSION || version > TableSchema.FORMAT_VERSION) {
                throw new CorruptFileException(
                        file,
                        "unsupported schema version " + version + " (this build reads versions "
                                + TableSchema.OLDEST_FORMAT_VERSION + " to " + TableSchema.FORMAT_VERSION + ")");
            }
            TableSchema s = Json.MAPPER.treeToValue(node, TableSchema.class);
            if (s.id() != id) {
                throw new CorruptFileException(file, "holds schema id " + s.id());
            }
            if (s.version() > version) {
                throw new CorruptFileException(
                        file,
                        "is schema version " + version + " but has types of version " + s.version() + " (" + s.fields()
                                + ")");
            }
            return s;
        } catch (IOException | RuntimeException e) {
            if (e instanceof CorruptFileException) {
                throw (CorruptFileException) e;
            }
            InvalidOptionException bad = invalidOptions(e);
            if (bad != null) {
                // the file is intact: this build does not accept what it stores; nothing is changed
                throw new InvalidOptionException(
                        "table " + tableName + ": the options stored in " + file + " are not accepted: "
                                + bad.getMessage(),
                        bad);
            }
            throw new CorruptFileException(file, "cannot parse schema: " + e.getMessage(), e);
        }
    }

    /** The option error the schema's constructor threw, if that is why it could not be read. */
    private static InvalidOptionException invalidOptions(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InvalidOptionException ioe) {
                return ioe;
            }
        }
        return null;
    }
}
