package io.strata.storage.table;

import io.strata.storage.commit.CommitMessage;
import io.strata.storage.compact.CompactManager;
import io.strata.storage.compact.CompactPlanner;
import io.strata.storage.compact.CompactRewriter;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.compact.TableCompactor;
import io.strata.storage.data.BucketHasher;
import io.strata.storage.data.BucketId;
import io.strata.storage.data.GenericRow;
import io.strata.storage.data.ValueComparators;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.format.DataFilePathFactory;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.manifest.ManifestEntry;
import io.strata.storage.merge.MergeEngines;
import io.strata.storage.merge.MergeFunction;
import io.strata.storage.mergetree.BucketEdit;
import io.strata.storage.mergetree.KeySorter;
import io.strata.storage.mergetree.Levels;
import io.strata.storage.mergetree.MergeTreeWriter;
import io.strata.storage.mergetree.RecordComparator;
import io.strata.storage.mergetree.WriteBuffer;
import io.strata.storage.options.ChangelogOptions;
import io.strata.storage.options.CompactionOptions;
import io.strata.storage.options.TableOptions;
import io.strata.storage.options.WriteOptions;
import io.strata.storage.schema.DataField;
import io.strata.storage.schema.DataType;
import io.strata.storage.schema.TableSchema;
import io.strata.storage.snapshot.InFlightWriter;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.store.TableContext;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first phase of the two-phase commit, for one writer task: rows are validated, routed to
 * their partition and bucket, buffered, and flushed as level-0 files; {@link #prepareCommit()}
 * returns the committables. One writer per bucket at a time (fixed buckets).
 *
 * <p>Memory: all buckets of this writer share {@code write-buffer-size}; when it is exceeded the
 * largest bucket buffer spills to local disk ({@code write-buffer-spillable}) or is flushed.
 *
 * <p>In-flight files: the writer registers ({@link InFlightWriter}) before its first file, names
 * every file it and its inline compaction create with the registration's token, renews the
 * heartbeat as it names files and prepares commits, and between those on a daemon thread of its
 * own, so orphan cleanup keeps its uncommitted files however long they wait; {@link #close()} stops
 * the thread and removes the registration. Not thread-safe.
 */
public final class TableWrite implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TableWrite.class);

    private final FileStoreTable table;
    /** The table's context naming new files with {@link #inFlight}'s token. */
    private final TableContext context;

    private final InFlightWriter inFlight;
    private final TableSchema schema;
    private final MergeEngines engines;
    private final RecordComparator comparator;
    private final KeySorter sorter;
    private final Supplier<MergeFunction> functions;
    private final BucketHasher hasher;
    private final int[] partitionIndexes;
    private final long bufferLimit;
    private final boolean spillable;
    private final long targetFileSize;
    private final File spillDir;
    private final Map<BucketId, MergeTreeWriter> writers = new LinkedHashMap<>();
    private Map<BucketId, Long> restoredSequences;
    private Map<BucketId, List<DataFileMeta>> restoredFiles;
    private final boolean writeOnly;
    private ExecutorService compactionPool;
    private CompactPlanner planner;
    private ExecutorService flushPool;
    private long buffered;
    private long rowNumber;

    TableWrite(FileStoreTable table, String commitUser) {
        this.table = table;
        this.inFlight = table.newInFlightWriter("table writer of commit user " + commitUser + " in process "
                + ManagementFactory.getRuntimeMXBean().getName());
        this.inFlight.renewInBackground();
        this.context = table.context().withWriter(inFlight);
        this.schema = table.schema();
        this.engines = table.mergeEngines();
        if (schema.hasPrimaryKey()) {
            this.comparator = new RecordComparator(schema, engines.sequenceFieldIndex());
            this.sorter = KeySorter.of(schema, engines.sequenceFieldIndex(), comparator);
            this.functions = engines.functionFactory();
        } else {
            this.comparator = null;
            this.sorter = null;
            this.functions = null;
        }
        this.hasher = new BucketHasher(schema.indexesOf(schema.bucketKeys()), schema.numBuckets());
        this.partitionIndexes = schema.partitionIndexes();
        this.bufferLimit = schema.tableOptions().get(WriteOptions.WRITE_BUFFER_SIZE);
        this.spillable = schema.tableOptions().get(WriteOptions.WRITE_BUFFER_SPILLABLE);
        this.targetFileSize = schema.tableOptions().get(WriteOptions.TARGET_FILE_SIZE);
        this.writeOnly = !schema.hasPrimaryKey() || schema.tableOptions().get(WriteOptions.WRITE_ONLY);
        this.spillDir = table.spillDir();
    }

    /**
     * Writes one row. Rejects, with a message naming the table and field, a row that does not
     * match the schema or that the merge engine cannot accept; nothing is buffered then.
     */
    public void write(GenericRow row) {
        rowNumber++;
        validate(row);
        Object[] fields = row.fields();
        if (schema.hasPrimaryKey()) {
            fields = engines.prepare(row);
            if (fields == null) {
                return;
            }
        } else if (row.kind().isRetract()) {
            throw new IllegalArgumentException("table " + table.name() + ": append tables (no primary key) accept only "
                    + "+I and +U rows, got " + row.kind().shortString() + " at row " + rowNumber);
        }
        Object[] partition = ValueComparators.project(fields, partitionIndexes);
        int bucket = hasher.bucket(fields);
        MergeTreeWriter w = writerFor(BucketId.of(partition, bucket));
        long before = w.bufferedBytes();
        w.write(row.kind(), fields);
        buffered += w.bufferedBytes() - before;
        if (buffered > bufferLimit) {
            relieveMemory();
        }
    }

    private void validate(GenericRow row) {
        List<DataField> fs = schema.fields();
        if (row.arity() != fs.size()) {
            throw new IllegalArgumentException("table " + table.name() + ": row " + rowNumber + " has " + row.arity()
                    + " fields but the schema (id " + schema.id() + ") has " + fs.size() + ": " + fs);
        }
        for (int i = 0; i < fs.size(); i++) {
            DataType t = fs.get(i).type();
            Object v = row.get(i);
            String problem = t.problemWith(v);
            if (problem != null) {
                throw new IllegalArgumentException("table " + table.name() + ": row " + rowNumber + " field '"
                        + fs.get(i).name() + "' " + problem);
            }
        }
    }

    private MergeTreeWriter writerFor(BucketId bucketId) {
        MergeTreeWriter w = writers.get(bucketId);
        if (w == null) {
            DataFilePathFactory paths = context.bucketPaths(bucketId);
            WriteBuffer buffer = new WriteBuffer(comparator, sorter, functions, spillDir);
            w = new MergeTreeWriter(context, paths, buffer, comparator, targetFileSize, nextSequence(bucketId));
            if (!writeOnly) {
                w.setCompaction(compactManager(bucketId));
            }
            if (schema.hasPrimaryKey()
                    && schema.tableOptions().get(ChangelogOptions.CHANGELOG_PRODUCER)
                            == ChangelogOptions.Producer.INPUT) {
                w.enableInputChangelog(spillDir);
            }
            writers.put(bucketId, w);
        }
        return w;
    }

    /** The bucket's highest committed sequence number + 1, from the latest snapshot (read once). */
    private long nextSequence(BucketId bucketId) {
        restore();
        Long max = restoredSequences.get(bucketId);
        return max == null ? 0 : max + 1;
    }

    /** Reads the latest snapshot's files once: sequence numbers to continue, levels to compact. */
    private void restore() {
        if (restoredSequences != null) {
            return;
        }
        restoredSequences = new HashMap<>();
        restoredFiles = new HashMap<>();
        Optional<Snapshot> latest = table.snapshotManager().latest();
        if (latest.isPresent()) {
            for (ManifestEntry e : table.manifests().scanner().scan(latest.get().baseManifestList(), EntryFilter.ALL)) {
                BucketId bucketId = BucketId.of(e.partition(), e.bucket());
                restoredSequences.merge(bucketId, e.file().maxSequence(), Math::max);
                if (!writeOnly) {
                    restoredFiles
                            .computeIfAbsent(bucketId, k -> new ArrayList<>())
                            .add(e.file());
                }
            }
        }
    }

    /** Inline compaction of one bucket: one background compaction thread per writer. */
    private CompactManager compactManager(BucketId bucketId) {
        restore();
        TableOptions o = schema.tableOptions();
        if (compactionPool == null) {
            TableCompactor compactor = table.newCompactor();
            planner = compactor.planner();
            compactionPool = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "strata-compaction-" + table.name());
                t.setDaemon(true);
                return t;
            });
        }
        int stopTrigger = o.get(CompactionOptions.STOP_TRIGGER);
        Levels levels = Levels.of(
                restoredFiles.getOrDefault(bucketId, List.of()),
                TableCompactor.numLevels(o),
                ValueComparators.forTuple(schema.typesOf(schema.primaryKeyIndexes())));
        CompactStrategy strategy = o.get(ChangelogOptions.CHANGELOG_PRODUCER) == ChangelogOptions.Producer.LOOKUP
                ? CompactStrategy.LOOKUP
                : CompactStrategy.MINOR;
        int gentle = 0;
        if (strategy == CompactStrategy.LOOKUP
                && o.get(CompactionOptions.LOOKUP_COMPACT) == CompactionOptions.LookupCompact.GENTLE) {
            gentle = o.get(CompactionOptions.LOOKUP_COMPACT_MAX_INTERVAL);
        }
        return new CompactManager(
                bucketId,
                levels,
                planner,
                strategy,
                new CompactRewriter(context),
                compactionPool,
                stopTrigger,
                strategy == CompactStrategy.LOOKUP && o.get(ChangelogOptions.LOOKUP_WAIT),
                gentle);
    }

    private void relieveMemory() {
        MergeTreeWriter largest = null;
        for (MergeTreeWriter w : writers.values()) {
            if (largest == null || w.bufferedBytes() > largest.bufferedBytes()) {
                largest = w;
            }
        }
        if (largest == null) {
            return;
        }
        long before = largest.bufferedBytes();
        try {
            if (spillable) {
                largest.relieveMemoryBySpilling();
            } else {
                largest.relieveMemoryByFlushing();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "table " + table.name() + ": cannot spill or flush a write buffer: " + e.getMessage(), e);
        }
        buffered -= before - largest.bufferedBytes();
    }

    /**
     * Flushes every bucket (in parallel, {@code write.flush-threads}) and returns the
     * committables, one per touched bucket, in the order buckets were first written.
     */
    public List<CommitMessage> prepareCommit() {
        return prepare(false);
    }

    /**
     * Like {@link #prepareCommit()}, but every bucket first waits for its inline compaction and
     * runs one more if its triggers still ask for one, so the committables carry everything
     * compacted (and, with the lookup producer, the changelog of every row written). Use it for
     * the last commit of a bounded input, like Paimon's batch writes.
     */
    public List<CommitMessage> prepareLastCommit() {
        return prepare(true);
    }

    private List<CommitMessage> prepare(boolean waitCompaction) {
        inFlight.renew();
        List<BucketId> keys = new ArrayList<>(writers.keySet());
        List<Future<MergeTreeWriter.Increment>> flushes = new ArrayList<>();
        for (BucketId bucketId : keys) {
            MergeTreeWriter w = writers.get(bucketId);
            flushes.add(flushPool().submit(() -> waitCompaction ? w.prepareLastCommit() : w.prepareCommit()));
        }
        List<CommitMessage> out = new ArrayList<>();
        Throwable failure = null;
        for (int i = 0; i < keys.size(); i++) {
            try {
                MergeTreeWriter.Increment inc = flushes.get(i).get();
                if (!inc.isEmpty()) {
                    BucketId bucketId = keys.get(i);
                    BucketEdit edit = inc.compaction();
                    out.add(new CommitMessage(
                            bucketId.partition(),
                            bucketId.bucket(),
                            schema.numBuckets(),
                            inc.appendedFiles(),
                            edit.deletedFiles(),
                            edit.addedFiles(),
                            inc.changelogFiles(),
                            edit.changelogFiles()));
                }
            } catch (ExecutionException e) {
                failure = failure == null ? e.getCause() : failure;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failure = failure == null ? e : failure;
            }
        }
        buffered = 0;
        if (failure != null) {
            throw new UncheckedIOException(
                    "table " + table.name() + ": cannot flush write buffers: " + failure.getMessage(),
                    failure instanceof IOException ? (IOException) failure : new IOException(failure));
        }
        return out;
    }

    private ExecutorService flushPool() {
        if (flushPool == null) {
            int n = schema.tableOptions().get(WriteOptions.FLUSH_THREADS);
            n = n > 0 ? n : Runtime.getRuntime().availableProcessors();
            AtomicInteger id = new AtomicInteger();
            flushPool = Executors.newFixedThreadPool(n, r -> {
                Thread t = new Thread(r, "strata-flush-" + table.name() + "-" + id.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
        }
        return flushPool;
    }

    /**
     * Discards buffered rows, deletes files flushed but not handed out, and removes the writer's
     * registration: files handed out by {@link #prepareCommit()} and not committed are then
     * orphans once older than orphan cleanup's threshold.
     */
    @Override
    public void close() {
        // Never by interrupt: a thread interrupted while Parquet writes a column chunk can deadlock
        // in the JDK (see CompactRewriter#cancel). Flushes left running by a failed prepareCommit
        // finish first, so that abort deletes their files; abort cancels compactions and waits.
        awaitQuietly(flushPool);
        flushPool = null;
        for (MergeTreeWriter w : writers.values()) {
            w.abort();
        }
        awaitQuietly(compactionPool);
        compactionPool = null;
        writers.clear();
        buffered = 0;
        inFlight.close();
    }

    /** Shuts the pool down and waits for its tasks; interrupts them only if this thread is interrupted. */
    private static void awaitQuietly(ExecutorService pool) {
        if (pool == null) {
            return;
        }
        pool.shutdown();
        try {
            while (!pool.awaitTermination(1, TimeUnit.MINUTES)) {
                LOG.warn("still waiting for a writer's tasks to finish before closing it");
            }
        } catch (InterruptedException e) {
            pool.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    /** This writer's registration: its token is in the name of every file the writer creates. */
    public InFlightWriter inFlightWriter() {
        return inFlight;
    }
}
