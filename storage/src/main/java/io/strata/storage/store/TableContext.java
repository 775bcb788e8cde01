package io.strata.storage.store;

import io.strata.storage.data.BucketId;
import io.strata.storage.data.PartitionPath;
import io.strata.storage.format.DataFilePathFactory;
import io.strata.storage.format.FileFormatConfig;
import io.strata.storage.fs.AtomicPublisher;
import io.strata.storage.fs.FileIO;
import io.strata.storage.fs.Publishers;
import io.strata.storage.fs.TablePaths;
import io.strata.storage.manifest.ManifestCache;
import io.strata.storage.manifest.ManifestStore;
import io.strata.storage.merge.MergeEngines;
import io.strata.storage.options.ExpireOptions;
import io.strata.storage.options.WriteOptions;
import io.strata.storage.schema.TableSchema;
import io.strata.storage.snapshot.ChangelogManager;
import io.strata.storage.snapshot.ConsumerManager;
import io.strata.storage.snapshot.InFlightWriter;
import io.strata.storage.snapshot.SnapshotManager;
import io.strata.storage.snapshot.TagManager;
import io.strata.storage.snapshot.WriterRegistrations;
import java.io.File;
import java.time.Clock;

/**
 * What the layers below the table facade need of one table at one schema: where its files are
 * (file IO, paths), how they are laid out (schema, format), its metadata stores (manifests,
 * snapshots), its merge engine, its local scratch directory and its clock, and the registered
 * writer whose token new files carry, if any. Immutable and cheap; holds no open files. The merge
 * tree, changelog, compaction and read packages take this instead of the {@code table} facade, so
 * that the facade stays on top of them.
 */
public final class TableContext {
    private final String name;
    private final FileIO io;
    private final TablePaths paths;
    private final TableSchema schema;
    private final FileFormatConfig format;
    private final ManifestStore manifests;
    private final SnapshotManager snapshots;
    private final TagManager tags;
    private final ConsumerManager consumers;
    private final ChangelogManager changelogs;
    private final WriterRegistrations writerRegistrations;
    /** The writer whose token new data and changelog files carry; null: files get names of their own. */
    private final InFlightWriter writer;

    private final MergeEngines mergeEngines;
    private final Clock clock;
    private final ManifestCache manifestCache;

    public TableContext(String name, FileIO io, TablePaths paths, TableSchema schema, Clock clock) {
        this(name, io, paths, schema, clock, ManifestCache.disabled(), null);
    }

    /** @param manifestCache decoded manifests and lists shared with the other tables of a catalog */
    public TableContext(
            String name, FileIO io, TablePaths paths, TableSchema schema, Clock clock, ManifestCache manifestCache) {
        this(name, io, paths, schema, clock, manifestCache, null);
    }

    private TableContext(
            String name,
            FileIO io,
            TablePaths paths,
            TableSchema schema,
            Clock clock,
            ManifestCache manifestCache,
            InFlightWriter writer) {
        this.name = name;
        this.manifestCache = manifestCache;
        this.writer = writer;
        this.io = io;
        this.paths = paths;
        this.schema = schema;
        this.clock = clock;
        this.snapshots = new SnapshotManager(io, paths, name);
        this.tags = new TagManager(io, paths, name);
        this.consumers = new ConsumerManager(io, paths, name);
        this.changelogs = new ChangelogManager(io, paths, name);
        this.writerRegistrations = new WriterRegistrations(io, paths, name, clock);
        this.format = new FileFormatConfig(io.conf(), schema.tableOptions());
        this.manifests = new ManifestStore(
                io,
                paths,
                format,
                schema.tableOptions(),
                schema.typesOf(schema.partitionIndexes()),
                clock,
                manifestCache);
        this.mergeEngines = schema.hasPrimaryKey() ? MergeEngines.of(name, schema) : null;
    }

    public String name() {
        return name;
    }

    public FileIO fileIO() {
        return io;
    }

    public TablePaths paths() {
        return paths;
    }

    public TableSchema schema() {
        return schema;
    }

    public FileFormatConfig formatConfig() {
        return format;
    }

    public ManifestStore manifests() {
        return manifests;
    }

    public SnapshotManager snapshotManager() {
        return snapshots;
    }

    public TagManager tagManager() {
        return tags;
    }

    public ConsumerManager consumerManager() {
        return consumers;
    }

    /** The changelog kept of expired snapshots (changelog retention). */
    public ChangelogManager changelogManager() {
        return changelogs;
    }

    /** The registrations of the table's running writers. */
    public WriterRegistrations writerRegistrations() {
        return writerRegistrations;
    }

    /**
     * A new writer registration owned by {@code owner} (commit user, job, host), with the table's
     * {@code orphan-clean.writer-heartbeat-timeout}; it registers when it names its first file.
     */
    public InFlightWriter newInFlightWriter(String owner) {
        return writerRegistrations.newWriter(owner, schema.tableOptions().get(ExpireOptions.WRITER_HEARTBEAT_TIMEOUT));
    }

    /** This context, naming new data and changelog files with {@code w}'s token. */
    public TableContext withWriter(InFlightWriter w) {
        return new TableContext(name, io, paths, schema, clock, manifestCache, w);
    }

    /** The time source of commits and maintenance: the system clock unless a test injects one. */
    public Clock clock() {
        return clock;
    }

    /** The merge engine; null for append tables. */
    public MergeEngines mergeEngines() {
        return mergeEngines;
    }

    /** How this table publishes metadata files atomically (the table's commit lock options). */
    public AtomicPublisher publisher() {
        return Publishers.forTable(io, paths.root().toString(), schema.tableOptions());
    }

    /** Where the files of one bucket are written. */
    public DataFilePathFactory bucketPaths(BucketId bucket) {
        String partitionPath = PartitionPath.of(schema.partitionKeys(), bucket.partition());
        return writer == null
                ? new DataFilePathFactory(paths, partitionPath, bucket.bucket())
                : new DataFilePathFactory(paths, partitionPath, bucket.bucket(), writer.fileNames());
    }

    /** Local scratch directory for spilled buffers, bounded merges and lookup files. */
    public File spillDir() {
        String dir = schema.tableOptions().get(WriteOptions.SPILL_DIR);
        return new File(dir != null ? dir : System.getProperty("java.io.tmpdir"), "strata-spill");
    }

    /** This context at another schema (run options on top, or a new schema id). */
    public TableContext withSchema(TableSchema other) {
        return new TableContext(name, io, paths, other, clock, manifestCache, writer);
    }
}
