package io.strata.storage.table;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.compact.CompactionCommitter;
import io.strata.storage.compact.TableCompactor;
import io.strata.storage.format.FileFormatConfig;
import io.strata.storage.fs.AtomicPublisher;
import io.strata.storage.fs.FileIO;
import io.strata.storage.fs.TablePaths;
import io.strata.storage.maintenance.OrphanFilesClean;
import io.strata.storage.maintenance.PartitionExpiration;
import io.strata.storage.maintenance.ReachableFiles;
import io.strata.storage.maintenance.Rollback;
import io.strata.storage.maintenance.SnapshotExpiration;
import io.strata.storage.maintenance.Tags;
import io.strata.storage.maintenance.UncommittedFiles;
import io.strata.storage.manifest.ManifestCache;
import io.strata.storage.manifest.ManifestStore;
import io.strata.storage.merge.MergeEngines;
import io.strata.storage.read.IncrementalRead;
import io.strata.storage.read.ReadBuilder;
import io.strata.storage.schema.DataType;
import io.strata.storage.schema.SchemaManager;
import io.strata.storage.schema.TableSchema;
import io.strata.storage.snapshot.InFlightWriter;
import io.strata.storage.snapshot.SnapshotManager;
import io.strata.storage.store.TableContext;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A handle on one table at its latest schema: the entry point for writers, committers and
 * readers. Cheap to create; holds no open files. Options given with {@link #copyWithOptions}
 * apply to this handle only (a run's) and are validated like table options; those that define
 * the table cannot be changed there.
 */
public final class FileStoreTable {
    private final SchemaManager schemaManager;
    private final TableContext context;

    FileStoreTable(
            String name,
            FileIO io,
            TablePaths paths,
            SchemaManager schemaManager,
            TableSchema schema,
            Clock clock,
            ManifestCache manifestCache) {
        this(schemaManager, new TableContext(name, io, paths, schema, clock, manifestCache));
    }

    private FileStoreTable(SchemaManager schemaManager, TableContext context) {
        this.schemaManager = schemaManager;
        this.context = context;
    }

    public String name() {
        return context.name();
    }

    public FileIO fileIO() {
        return context.fileIO();
    }

    public TablePaths paths() {
        return context.paths();
    }

    public TableSchema schema() {
        return context.schema();
    }

    public SchemaManager schemaManager() {
        return schemaManager;
    }

    public SnapshotManager snapshotManager() {
        return context.snapshotManager();
    }

    public FileFormatConfig formatConfig() {
        return context.formatConfig();
    }

    public ManifestStore manifests() {
        return context.manifests();
    }

    public Clock clock() {
        return context.clock();
    }

    /** What the engine's lower layers (merge tree, changelog, compaction, read) get of this table. */
    public TableContext context() {
        return context;
    }

    /** The merge engine; null for append tables. */
    public MergeEngines mergeEngines() {
        return context.mergeEngines();
    }

    public AtomicPublisher publisher() {
        return context.publisher();
    }

    /** A writer for one writer task; {@code commitUser} must be the one its committer uses. */
    public TableWrite newWrite(String commitUser) {
        return new TableWrite(this, commitUser);
    }

    public TableCommit newCommit(String commitUser) {
        return new TableCommit(context, commitUser);
    }

    public ReadBuilder newReadBuilder() {
        return new ReadBuilder(context);
    }

    /** The compaction engine of this table (primary-key tables only). */
    public TableCompactor newCompactor() {
        return new TableCompactor(context);
    }

    /**
     * The committer of a dedicated compaction's results under {@code commitUser}; stale buckets are
     * re-planned with {@code strategy}.
     */
    public CompactionCommitter newCompactionCommitter(String commitUser, CompactStrategy strategy) {
        return new CompactionCommitter(context, commitUser, strategy);
    }

    /**
     * Orphan cleanup of files older than {@code olderThan} (at least {@link OrphanFilesClean#MIN_SAFE_AGE}).
     */
    public OrphanFilesClean newOrphanFilesClean(Duration olderThan) {
        return OrphanFilesClean.olderThan(context, olderThan);
    }

    /** Dropping partitions older than {@code partition.expiration-time}. */
    public PartitionExpiration newPartitionExpiration() {
        return new PartitionExpiration(context);
    }

    /** Rollback to a snapshot or a tag (writers and compaction jobs stopped first). */
    public Rollback newRollback() {
        return new Rollback(context);
    }

    /** Creating, deleting and listing tags, and creating the automatic tag that is due ({@link Tags#createAutomaticTag}). */
    public Tags tags() {
        return new Tags(context);
    }

    /**
     * Expiration of this table's oldest snapshots by its retention options, or of its kept
     * changelogs alone ({@link SnapshotExpiration#expireChangelogs}).
     */
    public SnapshotExpiration newSnapshotExpiration() {
        return new SnapshotExpiration(context);
    }

    /** Which data and changelog files retained snapshots reference, and which are on disk. */
    public ReachableFiles reachableFiles() {
        return new ReachableFiles(context);
    }

    /**
     * Deletes the files a writer wrote and never committed: those whose names {@code writtenBy}
     * accepts and no retained snapshot references ({@link UncommittedFiles}).
     *
     * @param writer names the writer in the log
     * @return the number of files deleted
     */
    public int removeUncommittedFiles(Predicate<String> writtenBy, String writer) throws IOException {
        return UncommittedFiles.remove(context, writtenBy, writer);
    }

    /** Incremental reads of committed changes (changelog or deltas), snapshot by snapshot. */
    public IncrementalRead newIncrementalRead() {
        return new IncrementalRead(context);
    }

    /** Local scratch directory for spilled buffers, bounded merges and lookup files. */
    public File spillDir() {
        return context.spillDir();
    }

    /**
     * A registration for a writer or job that creates files through {@link #withWriter}: orphan
     * cleanup keeps every file named with its token while its heartbeat is fresh
     * ({@code orphan-clean.writer-heartbeat-timeout}). The caller renews it on its activity
     * ({@link InFlightWriter#renew}) and closes it when it stops writing.
     *
     * @param owner who writes, for people reading the registration: commit user, job, host
     */
    public InFlightWriter newInFlightWriter(String owner) {
        return context.newInFlightWriter(owner);
    }

    /**
     * This table, naming the data and changelog files its writers and compactions create with
     * {@code writer}'s token (naming the first registers the writer).
     */
    public FileStoreTable withWriter(InFlightWriter writer) {
        return new FileStoreTable(schemaManager, context.withWriter(writer));
    }

    /**
     * This table with the options of one run (a writer's, a job's) on top. Schema id and fields
     * are unchanged. Options that define the table (docs/OPTIONS.md, "per run": no; the commit
     * lock, the bucket count, the merge engine, ...) are accepted only with the table's value: a
     * run that disagrees with the other writers on them loses data.
     *
     * @throws IllegalArgumentException naming the table and the option for an unknown option, an
     *         invalid value, or a table-defining option set to another value than the table's
     */
    public FileStoreTable copyWithOptions(Map<String, String> overrides) {
        if (overrides.isEmpty()) {
            return this;
        }
        TableSchema schema = schema();
        TableSchema s = new TableSchema(
                schema.id(),
                schema.fields(),
                schema.highestFieldId(),
                schema.partitionKeys(),
                schema.primaryKeys(),
                schema.tableOptions().withRunOptions(name(), overrides).toMap(),
                schema.timeMillis());
        return new FileStoreTable(schemaManager, context.withSchema(s));
    }

    /**
     * Adds a nullable column as schema id+1. Files written earlier read null for it. Returns the
     * table at the new schema.
     */
    public FileStoreTable addColumn(String column, DataType type) {
        String name = name();
        TableSchema schema = schema();
        if (!type.isNullable()) {
            throw new IllegalArgumentException("table " + name + ": a new column must be nullable ('" + column + "')");
        }
        if (column.startsWith("_")) {
            throw new IllegalArgumentException(
                    "table " + name + ": column '" + column + "': names starting with '_' " + "are reserved");
        }
        // check against the latest schema, not this handle's: another handle may have added it since
        TableSchema latest = schemaManager.latest();
        if (schema.fieldIndex(column) >= 0 || latest.fieldIndex(column) >= 0) {
            throw new IllegalArgumentException("table " + name + ": column '" + column + "' already exists"
                    + (schema.fieldIndex(column) >= 0 ? "" : " in schema " + latest.id()));
        }
        TableSchema next = latest.withAddedColumn(column, type, clock().millis());
        try {
            if (!schemaManager.publish(publisher(), next)) {
                throw new IllegalStateException("table " + name + ": schema " + next.id()
                        + " was created concurrently; reload the table and retry");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("table " + name + ": cannot write schema " + next.id(), e);
        }
        return new FileStoreTable(schemaManager, context.withSchema(next));
    }

    @Override
    public String toString() {
        return "table " + name() + " at " + paths().root();
    }
}
