package io.strata.storage.table;

import io.strata.storage.fs.FileIO;
import io.strata.storage.fs.Publishers;
import io.strata.storage.fs.TablePaths;
import io.strata.storage.manifest.ManifestCache;
import io.strata.storage.merge.MergeEngines;
import io.strata.storage.schema.Schema;
import io.strata.storage.schema.SchemaManager;
import io.strata.storage.schema.SchemaValidation;
import io.strata.storage.schema.TableSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * A warehouse: databases are directories {@code <db>.db}, tables are directories inside them
 * with a {@code schema/} directory. No metastore; the file system is the catalog.
 */
public final class Catalog {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_]+");

    private final String warehouse;
    private final FileIO io;
    private final Path root;
    private final Clock clock;
    private final ManifestCache manifestCache;

    private Catalog(String warehouse, FileIO io, Clock clock, ManifestCache manifestCache) {
        this.warehouse = warehouse;
        this.io = io;
        this.clock = clock;
        this.manifestCache = manifestCache;
        this.root = new Path(FileIO.qualify(warehouse));
    }

    private Catalog(String warehouse, FileIO io) {
        this(warehouse, io, Clock.systemUTC(), ManifestCache.disabled());
    }

    /**
     * This catalog with another time source for the tables it opens: schema and snapshot times,
     * and (next) the retention of expiration, are read from {@code clock}. For tests.
     */
    public Catalog withClock(Clock clock) {
        return new Catalog(warehouse, io, clock, manifestCache);
    }

    /**
     * This catalog with its tables reading manifests and manifest lists through one cache of at
     * most {@code maxEntries} decoded entries ({@link ManifestCache}, shared by them all, owned by
     * the catalog returned): for a reader that polls many tables' metadata again and again, such
     * as the scheduler's health polls. Without one (the default) every read goes to the file
     * system, which is what commits and maintenance need to notice a missing manifest.
     */
    public Catalog withManifestCache(long maxEntries) {
        return new Catalog(warehouse, io, clock, ManifestCache.ofEntries(maxEntries));
    }

    public static Catalog open(String warehouse) {
        return new Catalog(warehouse, FileIO.forWarehouse(warehouse, Map.of()));
    }

    /** A catalog over {@code io}, a FileIO of the warehouse's file system (tests inject faults this way). */
    public static Catalog open(String warehouse, FileIO io) {
        return new Catalog(warehouse, io);
    }

    public static Catalog open(String warehouse, Configuration hadoopConf) {
        return new Catalog(warehouse, FileIO.forWarehouse(warehouse, hadoopConf));
    }

    public String warehouse() {
        return warehouse;
    }

    public FileIO fileIO() {
        return io;
    }

    public Path tablePath(String database, String table) {
        return new Path(new Path(root, checkName("database", database) + ".db"), checkName("table", table));
    }

    private static String checkName(String what, String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(what + " name '" + name + "' is invalid: use letters, digits and '_'");
        }
        return name;
    }

    /** Parses {@code db.table}. */
    public static String[] splitIdentifier(String identifier) {
        String[] parts = identifier == null ? new String[0] : identifier.split("\\.");
        if (parts.length != 2) {
            throw new IllegalArgumentException("table identifier '" + identifier + "' must be <database>.<table>");
        }
        checkName("database", parts[0]);
        checkName("table", parts[1]);
        return parts;
    }

    public boolean tableExists(String database, String table) {
        try {
            return io.exists(new TablePaths(tablePath(database, table)).schemaFile(0));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Creates a table from {@code schema}.
     *
     * @throws IllegalArgumentException naming the table when it exists already or is created
     *         concurrently, or when the schema or an option is invalid
     */
    public FileStoreTable createTable(String database, String table, Schema schema) {
        return create(database, table, schema, false);
    }

    /**
     * Like {@link #createTable}, but a table that already exists (or is created concurrently) is
     * returned as it is: its schema and options are not compared with {@code schema}.
     */
    public FileStoreTable createTableIfNotExists(String database, String table, Schema schema) {
        return create(database, table, schema, true);
    }

    private FileStoreTable create(String database, String table, Schema schema, boolean ignoreIfExists) {
        String name = database + "." + table;
        TablePaths paths = new TablePaths(tablePath(database, table));
        if (tableExists(database, table)) {
            if (ignoreIfExists) {
                return getTable(database, table);
            }
            throw new IllegalArgumentException("table " + name + " already exists at " + paths.root());
        }
        TableSchema first = SchemaValidation.firstSchema(name, schema, clock.millis());
        if (first.hasPrimaryKey()) {
            MergeEngines.of(name, first);
        }
        SchemaManager sm = new SchemaManager(io, paths, name);
        try {
            boolean created = sm.publish(Publishers.forTable(io, paths.root().toString(), first.tableOptions()), first);
            if (!created && !ignoreIfExists) {
                throw new IllegalArgumentException("table " + name + " was created concurrently");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot create table " + name + " at " + paths.root() + ": " + e.getMessage(), e);
        }
        return getTable(database, table);
    }

    public FileStoreTable getTable(String database, String table) {
        String name = database + "." + table;
        if (!tableExists(database, table)) {
            throw new TableNotFoundException("table " + name + " does not exist in warehouse " + warehouse);
        }
        TablePaths paths = new TablePaths(tablePath(database, table));
        SchemaManager sm = new SchemaManager(io, paths, name);
        return new FileStoreTable(name, io, paths, sm, sm.latest(), clock, manifestCache);
    }

    public FileStoreTable getTable(String identifier) {
        String[] p = splitIdentifier(identifier);
        return getTable(p[0], p[1]);
    }

    public List<String> listDatabases() throws IOException {
        List<String> out = new ArrayList<>();
        for (FileIO.FileEntry st : io.list(root)) {
            String n = st.path().getName();
            if (st.isDirectory() && n.endsWith(".db")) {
                out.add(n.substring(0, n.length() - 3));
            }
        }
        out.sort(null);
        return out;
    }

    public List<String> listTables(String database) throws IOException {
        List<String> out = new ArrayList<>();
        for (FileIO.FileEntry st : io.list(new Path(root, checkName("database", database) + ".db"))) {
            if (st.isDirectory() && tableExists(database, st.path().getName())) {
                out.add(st.path().getName());
            }
        }
        out.sort(null);
        return out;
    }
}
