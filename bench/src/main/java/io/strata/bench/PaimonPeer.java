package io.strata.bench;

import io.strata.cli.workload.StandardWorkload;
import io.strata.cli.workload.WorkloadCheck;
import io.strata.cli.workload.WorkloadChecksum;
import io.strata.cli.workload.WorkloadSchema;
import io.strata.storage.data.GenericRow;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.fs.Path;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.operation.LocalOrphanFilesClean;
import org.apache.paimon.options.ExpireConfig;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.InnerTableCommit;
import org.apache.paimon.table.sink.StreamTableCommit;
import org.apache.paimon.table.sink.StreamTableWrite;
import org.apache.paimon.table.sink.StreamWriteBuilder;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;

/**
 * The Apache Paimon peer of WORKLOAD.md: one workload table in a filesystem catalog on a local
 * directory, driven only through Paimon's public Java API. One instance per table; not
 * thread-safe. The scenarios time themselves with {@link System#nanoTime()}; {@link #check()}
 * and {@link #files()} are outside the timings.
 */
public final class PaimonPeer implements AutoCloseable {
    private static final String DATABASE = "bench";
    private static final String INGEST_USER = "strata-bench-ingest";
    private static final String COMPACT_USER = "strata-bench-compact";

    private final Catalog catalog;
    private final Identifier identifier;
    private final IOManager ioManager;
    /** Commit identifiers of {@link #COMPACT_USER}: Paimon wants them increasing per user. */
    private long nextCompactionCommit;

    private PaimonPeer(Catalog catalog, Identifier identifier, IOManager ioManager) {
        this.catalog = catalog;
        this.identifier = identifier;
        this.ioManager = ioManager;
    }

    /**
     * Creates the workload table {@code bench.<table>} under {@code warehouse} (created if
     * missing; the table must not exist). Paimon's spill files go to {@code warehouse/.io-tmp}.
     */
    public static PaimonPeer createTable(java.nio.file.Path warehouse, String table) throws Exception {
        return createTable(warehouse, table, Map.of());
    }

    /** Like {@link #createTable(java.nio.file.Path, String)} with extra table options. */
    public static PaimonPeer createTable(java.nio.file.Path warehouse, String table, Map<String, String> options)
            throws Exception {
        java.nio.file.Path tmp = Files.createDirectories(warehouse.resolve(".io-tmp"));
        Catalog catalog = CatalogFactory.createCatalog(
                CatalogContext.create(new Path(warehouse.toAbsolutePath().toString())));
        try {
            Identifier id = Identifier.create(DATABASE, table);
            catalog.createDatabase(DATABASE, true);
            catalog.createTable(id, PaimonSchema.workloadTable(options), false);
            return new PaimonPeer(catalog, id, IOManager.create(tmp.toString()));
        } catch (Exception e) {
            catalog.close();
            throw e;
        }
    }

    /** The existing table {@code bench.<table>} under {@code warehouse}. */
    public static PaimonPeer open(java.nio.file.Path warehouse, String table) throws Exception {
        java.nio.file.Path tmp = Files.createDirectories(warehouse.resolve(".io-tmp"));
        Catalog catalog = CatalogFactory.createCatalog(
                CatalogContext.create(new Path(warehouse.toAbsolutePath().toString())));
        Identifier id = Identifier.create(DATABASE, table);
        try {
            catalog.getTable(id);
            return new PaimonPeer(catalog, id, IOManager.create(tmp.toString()));
        } catch (Exception e) {
            catalog.close();
            throw e;
        }
    }

    /**
     * The maintenance benchmark's history: write-only ingest, one commit per workload commit, and
     * a full compaction of every bucket ({@link #fullCompaction()}, one COMPACT snapshot) after every
     * {@code compactEvery}-th commit, stopping once the table has {@code snapshots} snapshots. The
     * ingest writer stays open across the compactions, as a write-only ingestion job's does beside
     * a dedicated compaction job.
     */
    public void ingestWithCompactions(StandardWorkload workload, int compactEvery, int snapshots) throws Exception {
        Table table = catalog.getTable(identifier).copy(Map.of("write-only", "true"));
        StreamWriteBuilder builder = table.newStreamWriteBuilder().withCommitUser(INGEST_USER);
        try (StreamTableWrite write = builder.newWrite();
                StreamTableCommit commit = builder.newCommit()) {
            write.withIOManager(ioManager);
            int made = 0;
            for (int c = workload.nextCommit(); c < workload.commits(); c++) {
                workload.forEachRowOfCommit(c, row -> write(write, row));
                commit.commit(c, write.prepareCommit(false, c));
                made++;
                if ((c + 1) % compactEvery == 0 && made < snapshots) {
                    fullCompaction(true);
                    made++;
                }
            }
        }
    }

    /** The number of snapshots the table holds now. */
    public int snapshotCount() throws Exception {
        FileStoreTable t = (FileStoreTable) catalog.getTable(identifier);
        Long earliest = t.snapshotManager().earliestSnapshotId();
        Long latest = t.snapshotManager().latestSnapshotId();
        return earliest == null ? 0 : (int) (latest - earliest + 1);
    }

    /** The table's directory. */
    public java.nio.file.Path directory() throws Exception {
        return java.nio.file.Path.of(((FileStoreTable) catalog.getTable(identifier))
                .location()
                .toUri()
                .getPath());
    }

    /**
     * Paimon's {@code ExpireSnapshots}: every snapshot but the latest {@code retain}, at most
     * {@code limit} in one run, the time bound out of the way. Returns the snapshots it expired.
     */
    public int expire(int retain, int limit) throws Exception {
        FileStoreTable t = (FileStoreTable) catalog.getTable(identifier);
        return t.newExpireSnapshots()
                .config(ExpireConfig.builder()
                        .snapshotRetainMin(retain)
                        .snapshotRetainMax(retain)
                        .snapshotTimeRetain(Duration.ofMillis(1))
                        .snapshotMaxDeletes(limit)
                        .build())
                .expire();
    }

    /**
     * Paimon's local orphan-files clean ({@code LocalOrphanFilesClean}) of the files older than
     * {@code olderThan}; returns the files it deleted.
     */
    public long removeOrphans(Duration olderThan) throws Exception {
        FileStoreTable t = (FileStoreTable) catalog.getTable(identifier);
        return new LocalOrphanFilesClean(t, System.currentTimeMillis() - olderThan.toMillis(), false)
                .clean()
                .getDeletedFileCount();
    }

    /**
     * Scenario 1: the remaining commits of {@code workload}, one Paimon commit each, with
     * {@code write-only=true} so that no compaction runs and every commit adds one level-0 file
     * per bucket. Timed from opening the writer to closing it after the last commit; the time
     * includes generating and converting the rows.
     */
    public IngestResult ingest(StandardWorkload workload) throws Exception {
        return ingest(workload, true);
    }

    /**
     * Ingest; with {@code writeOnly} false Paimon compacts as the table's triggers ask, waiting
     * only when a bucket reaches {@code num-sorted-run.stop-trigger} (the Java API's
     * {@code prepareCommit(false, id)}); the last commit waits for the compactions (end of input).
     */
    public IngestResult ingest(StandardWorkload workload, boolean writeOnly) throws Exception {
        return ingest(workload, writeOnly, false);
    }

    /**
     * Like {@link #ingest(StandardWorkload, boolean)}; with {@code waitEveryCommit} every commit
     * waits for the compaction of its level-0 files ({@code prepareCommit(true, id)}): what
     * Paimon's Flink sink does for a lookup table with {@code changelog-producer.lookup-wait}
     * (its default), so each commit carries the changelog of its own rows.
     */
    public IngestResult ingest(StandardWorkload workload, boolean writeOnly, boolean waitEveryCommit) throws Exception {
        int first = workload.nextCommit();
        Table table = writeOnly
                ? catalog.getTable(identifier).copy(Map.of("write-only", "true"))
                : catalog.getTable(identifier);
        StreamWriteBuilder builder = table.newStreamWriteBuilder().withCommitUser(INGEST_USER);
        long start = System.nanoTime();
        try (StreamTableWrite write = builder.newWrite();
                StreamTableCommit commit = builder.newCommit()) {
            write.withIOManager(ioManager);
            for (int c = first; c < workload.commits(); c++) {
                workload.forEachRowOfCommit(c, row -> write(write, row));
                boolean last = c == workload.commits() - 1;
                commit.commit(c, write.prepareCommit(!writeOnly && (waitEveryCommit || last), c));
            }
        }
        long nanos = System.nanoTime() - start;
        int commits = workload.commits() - first;
        return new IngestResult((long) commits * workload.rowsPerCommit(), commits, nanos, files());
    }

    /**
     * Scenario 6: the next commit of {@code workload}, write-only, as one Paimon commit;
     * {@code observer} sees every row written.
     */
    public void ingestOneCommit(StandardWorkload workload, Consumer<GenericRow> observer) throws Exception {
        int c = workload.nextCommit();
        Table table = catalog.getTable(identifier).copy(Map.of("write-only", "true"));
        StreamWriteBuilder builder = table.newStreamWriteBuilder().withCommitUser(INGEST_USER);
        try (StreamTableWrite write = builder.newWrite();
                StreamTableCommit commit = builder.newCommit()) {
            write.withIOManager(ioManager);
            workload.forEachRowOfCommit(c, row -> {
                write(write, row);
                observer.accept(row);
            });
            commit.commit(c, write.prepareCommit(false, c));
        }
    }

    /**
     * Scenario 2: {@code compact(partition, bucket, fullCompaction=true)} for every bucket, then
     * one commit once the compactions are done. Paimon runs them on its one compaction thread.
     * Timed from opening the writer to closing it after the commit.
     */
    public CompactionResult fullCompaction() throws Exception {
        return fullCompaction(false);
    }

    /**
     * {@link #fullCompaction()}; with {@code ignoreEmptyCommit} the commit makes only the COMPACT
     * snapshot, without the empty APPEND snapshot a streaming commit otherwise makes first.
     */
    private CompactionResult fullCompaction(boolean ignoreEmptyCommit) throws Exception {
        FileSummary input = files();
        Table table = catalog.getTable(identifier);
        int buckets = Integer.parseInt(table.options().get("bucket"));
        StreamWriteBuilder builder = table.newStreamWriteBuilder().withCommitUser(COMPACT_USER);
        long start = System.nanoTime();
        try (StreamTableWrite write = builder.newWrite();
                StreamTableCommit commit = builder.newCommit()) {
            if (ignoreEmptyCommit) {
                ((InnerTableCommit) commit).ignoreEmptyCommit(true);
            }
            write.withIOManager(ioManager);
            for (int b = 0; b < buckets; b++) {
                write.compact(BinaryRow.EMPTY_ROW, b, true);
            }
            long id = nextCompactionCommit++;
            commit.commit(id, write.prepareCommit(true, id));
        }
        long nanos = System.nanoTime() - start;
        return new CompactionResult(input, files(), nanos);
    }

    /**
     * Reads the latest snapshot back (Paimon merges the runs and drops deleted keys) and
     * computes the workload check over its rows, to compare with {@code ExpectedTable}.
     *
     * @throws IllegalStateException if the read returns a retracting row
     */
    public WorkloadCheck check() throws Exception {
        ReadBuilder rb = catalog.getTable(identifier)
                .newReadBuilder()
                .withProjection(new int[] {WorkloadSchema.ID, WorkloadSchema.TS});
        WorkloadChecksum checksum = new WorkloadChecksum();
        try (RecordReader<InternalRow> reader =
                rb.newRead().createReader(rb.newScan().plan())) {
            reader.forEachRemaining(row -> {
                if (row.getRowKind().isRetract()) {
                    throw new IllegalStateException("a batch read returned a " + row.getRowKind() + " row");
                }
                checksum.add(row.getLong(0), row.getLong(1));
            });
        }
        return checksum.result();
    }

    /** Changelog rows of all snapshots (Paimon's snapshot changelogRecordCount). */
    public long changelogRows() throws Exception {
        FileStoreTable t = (FileStoreTable) catalog.getTable(identifier);
        long n = 0;
        Iterator<Snapshot> it = t.snapshotManager().snapshots();
        while (it.hasNext()) {
            Long c = it.next().changelogRecordCount();
            n += c == null ? 0 : c;
        }
        return n;
    }

    /** The data files of the latest snapshot. */
    public FileSummary files() throws Exception {
        List<Split> splits =
                catalog.getTable(identifier).newReadBuilder().newScan().plan().splits();
        int files = 0;
        long rows = 0;
        long bytes = 0;
        for (Split split : splits) {
            for (DataFileMeta f : ((DataSplit) split).dataFiles()) {
                files++;
                rows += f.rowCount();
                bytes += f.fileSize();
            }
        }
        return new FileSummary(files, rows, bytes);
    }

    @Override
    public void close() throws Exception {
        try {
            ioManager.close();
        } finally {
            catalog.close();
        }
    }

    private static void write(StreamTableWrite write, GenericRow row) {
        try {
            write.write(PaimonRows.toPaimon(row));
        } catch (Exception e) {
            throw new IllegalStateException("Paimon rejected row " + row, e);
        }
    }
}
