package io.strata.storage.table;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.format.FileFormatConfig;
import io.strata.storage.fs.AtomicPublisher;
import io.strata.storage.fs.FileIO;
import io.strata.storage.fs.Publishers;
import io.strata.storage.fs.TablePaths;
import io.strata.storage.manifest.ManifestStore;
import io.strata.storage.merge.MergeEngines;
import io.strata.storage.read.ReadBuilder;
import io.strata.storage.schema.DataType;
import io.strata.storage.schema.SchemaManager;
import io.strata.storage.schema.TableSchema;
import io.strata.storage.snapshot.SnapshotManager;
import io.strata.storage.data.KeyValue;
import io.strata.storage.data.ValueComparators;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.format.DataFilePathFactory;
import io.strata.storage.format.DataFileReader;
import io.strata.storage.mergetree.BoundedMerge;
import io.strata.storage.mergetree.ConcatIterator;
import io.strata.storage.mergetree.MergingIterator;
import io.strata.storage.mergetree.RecordComparator;
import io.strata.storage.mergetree.SortedRuns;
import io.strata.storage.options.CompactionOptions;
import io.strata.storage.options.WriteOptions;
import io.strata.storage.util.CloseableIterator;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * A handle on one table at its latest schema: the entry point for writers, committers and
 * readers. Cheap to create; holds no open files. Options given with {@link #copyWithOptions}
 * apply to this handle only (a run's) and are validated like table options; those that define
 * the table cannot be changed there.
 */
public final class FileStoreTable {
    private final String name;
    private final FileIO io;
    private final TablePaths paths;
    private final SchemaManager schemaManager;
    private final TableSchema schema;
    private final SnapshotManager snapshotManager;
    private final FileFormatConfig format;
    private final ManifestStore manifests;
    private final MergeEngines mergeEngines;

    FileStoreTable(String name, FileIO io, TablePaths paths, SchemaManager schemaManager, TableSchema schema) {
        this.name = name;
        this.io = io;
        this.paths = paths;
        this.schemaManager = schemaManager;
        this.schema = schema;
        this.snapshotManager = new SnapshotManager(io, paths, name);
        this.format = new FileFormatConfig(io.conf(), schema.tableOptions());
        this.manifests = new ManifestStore(io, paths, format, schema.tableOptions(),
                schema.typesOf(schema.partitionIndexes()));
        this.mergeEngines = schema.hasPrimaryKey() ? MergeEngines.of(name, schema) : null;
    }

    public String name() { return name; }
    public FileIO fileIO() { return io; }
    public TablePaths paths() { return paths; }
    public TableSchema schema() { return schema; }
    public SchemaManager schemaManager() { return schemaManager; }
    public SnapshotManager snapshotManager() { return snapshotManager; }
    public FileFormatConfig formatConfig() { return format; }
    public ManifestStore manifests() { return manifests; }

    /** The merge engine; null for append tables. */
    public MergeEngines mergeEngines() { return mergeEngines; }

    public AtomicPublisher publisher() {
        return Publishers.forTable(io, paths.root().toString(), schema.tableOptions());
    }

    /** A writer for one writer task; {@code commitUser} must be the one its committer uses. */
    public TableWrite newWrite(String commitUser) {
        return new TableWrite(this, commitUser);
    }

    public TableCommit newCommit(String commitUser) {
        return new TableCommit(name, schema, commitUser, io, paths, snapshotManager, manifests, publisher());
    }

    public ReadBuilder newReadBuilder() {
        return new ReadBuilder(this);
    }

    /** Local scratch directory for spilled buffers, bounded merges and lookup files. */
    public File spillDir() {
        String dir = schema.tableOptions().get(WriteOptions.SPILL_DIR);
        return new File(dir != null ? dir : System.getProperty("java.io.tmpdir"), "strata-spill");
    }

    /** The records of {@code run} (files of one bucket, read one after another), laid out in this schema. */
    public CloseableIterator<KeyValue> readRun(DataFilePathFactory paths, List<DataFileMeta> run) {
        return new ConcatIterator<>(run, f -> DataFileReader.open(io, format.conf(), paths.toPath(f.fileName()),
                schema, null, schema.hasPrimaryKey(), f.fileSize()));
    }

    /**
     * Whether compactions of this table may carry STRING values as their UTF-8 bytes
     * ({@link DataFileReader#openRaw}): true unless the merge engine looks into string values
     * (aggregation of a STRING field).
     */
    public boolean rewritesRawStrings() {
        return mergeEngines != null && mergeEngines.acceptsRawStrings();
    }

    /** {@link #readRun} for rewriting: STRING values are raw UTF-8 bytes when {@link #rewritesRawStrings()}. */
    public CloseableIterator<KeyValue> readRunForRewrite(DataFilePathFactory paths, List<DataFileMeta> run) {
        if (!rewritesRawStrings()) {
            return readRun(paths, run);
        }
        return new ConcatIterator<>(run, f -> DataFileReader.openRaw(io, format.conf(), paths.toPath(f.fileName()),
                schema, true, f.fileSize()));
    }

    /** The order of records read for rewriting (see {@link #readRunForRewrite}). */
    public RecordComparator rewriteComparator() {
        return new RecordComparator(schema, mergeEngines.sequenceFieldIndex(), rewritesRawStrings());
    }

    /** {@link #mergeFiles} over {@link #readRunForRewrite} runs, for compaction. */
    public CloseableIterator<KeyValue> mergeFilesForRewrite(DataFilePathFactory paths, List<DataFileMeta> files,
                                                            MergingIterator.Mode mode) {
        return mergeFiles(files, run -> readRunForRewrite(paths, run), rewriteComparator(), mode);
    }

    /**
     * Merges files of one bucket with the merge engine: grouped into sorted runs in LSM order
     * (level-0 files newest first, then each level), at most {@code sort-spill-threshold} open at
     * once. The LSM order is what {@link BoundedMerge} requires of its batches.
     */
    public CloseableIterator<KeyValue> mergeFiles(DataFilePathFactory paths, List<DataFileMeta> files,
                                                  MergingIterator.Mode mode) {
        return mergeFiles(files, run -> readRun(paths, run), new RecordComparator(schema, mergeEngines.sequenceFieldIndex()),
                mode);
    }

    private CloseableIterator<KeyValue> mergeFiles(List<DataFileMeta> files,
                                                   Function<List<DataFileMeta>, CloseableIterator<KeyValue>> reader,
                                                   RecordComparator comparator, MergingIterator.Mode mode) {
        List<Supplier<CloseableIterator<KeyValue>>> runs = new ArrayList<>();
        for (List<DataFileMeta> run : SortedRuns.of(files,
                ValueComparators.forTuple(schema.typesOf(schema.primaryKeyIndexes())))) {
            runs.add(() -> reader.apply(run));
        }
        return BoundedMerge.merge(runs, schema.tableOptions().get(CompactionOptions.SORT_SPILL_THRESHOLD), spillDir(),
                comparator, mergeEngines.functionFactory(), mode);
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
        TableSchema s = new TableSchema(schema.id(), schema.fields(), schema.highestFieldId(), schema.partitionKeys(),
                schema.primaryKeys(), schema.tableOptions().withRunOptions(name, overrides).toMap(),
                schema.timeMillis());
        return new FileStoreTable(name, io, paths, schemaManager, s);
    }

    /**
     * Adds a nullable column as schema id+1. Files written earlier read null for it. Returns the
     * table at the new schema.
     */
    public FileStoreTable addColumn(String column, DataType type) {
        if (!type.isNullable()) {
            throw new IllegalArgumentException("table " + name + ": a new column must be nullable ('" + column + "')");
        }
        if (column.startsWith("_")) {
            throw new IllegalArgumentException("table " + name + ": column '" + column + "': names starting with '_' "
                    + "are reserved");
        }
        // check against the latest schema, not this handle's: another handle may have added it since
        TableSchema latest = schemaManager.latest();
        if (schema.fieldIndex(column) >= 0 || latest.fieldIndex(column) >= 0) {
            throw new IllegalArgumentException("table " + name + ": column '" + column + "' already exists"
                    + (schema.fieldIndex(column) >= 0 ? "" : " in schema " + latest.id()));
        }
        TableSchema next = latest.withAddedColumn(column, type, System.currentTimeMillis());
        try {
            if (!schemaManager.publish(publisher(), next)) {
                throw new IllegalStateException("table " + name + ": schema " + next.id()
                        + " was created concurrently; reload the table and retry");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("table " + name + ": cannot write schema " + next.id(), e);
        }
        return new FileStoreTable(name, io, paths, schemaManager, next);
    }

    @Override
    public String toString() {
        return "table " + name + " at " + paths.root();
    }
}
