package io.strata.bench;

import com.sun.management.ThreadMXBean;
import io.strata.cli.workload.StandardWorkload;
import io.strata.cli.workload.TableChecksum;
import io.strata.cli.workload.WorkloadCheck;
import io.strata.cli.workload.WorkloadIngest;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactPlan;
import io.strata.storage.compact.CompactResult;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.compact.TableCompactor;
import io.strata.storage.data.GenericRow;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.format.DataFileReader;
import io.strata.storage.format.DataFileWriter;
import io.strata.storage.format.FileSource;
import io.strata.storage.fs.FileIO;
import io.strata.storage.maintenance.ExpireResult;
import io.strata.storage.maintenance.OrphanCleanResult;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.options.ExpireOptions;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.snapshot.SnapshotManager;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.table.system.FilesTable;
import io.strata.storage.table.system.SnapshotsTable;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/** Strata's side of a benchmark: one workload table in a fresh local warehouse, driven through the public API. */
final class StrataPeer {
    private final FileStoreTable table;
    /** Commit identifiers of the compactor's user: a repeated identifier would be skipped as a replay. */
    private long compactions;

    private StrataPeer(FileStoreTable table) {
        this.table = table;
    }

    static StrataPeer createTable(Path warehouse, String name) {
        return createTable(warehouse, name, Map.of());
    }

    static StrataPeer createTable(Path warehouse, String name, Map<String, String> options) {
        Catalog catalog = Catalog.open(warehouse.toString());
        return new StrataPeer(catalog.createTable("bench", name, WorkloadIngest.schema(4, options)));
    }

    /** The existing table {@code bench.NAME} of {@code warehouse}. */
    static StrataPeer open(Path warehouse, String name) {
        return new StrataPeer(Catalog.open(warehouse.toString()).getTable("bench", name));
    }

    /** Scenario 1: write-only ingest, one commit per workload commit. */
    IngestResult ingest(StandardWorkload workload) {
        return ingest(workload, true);
    }

    /** Ingest; with {@code writeOnly} false the writer compacts inline as the triggers ask. */
    IngestResult ingest(StandardWorkload workload, boolean writeOnly) {
        FileStoreTable writer = table.copyWithOptions(Map.of("write-only", String.valueOf(writeOnly)));
        long start = System.nanoTime();
        long rows = WorkloadIngest.write(writer, workload, row -> {}, c -> {});
        long nanos = System.nanoTime() - start;
        return new IngestResult(rows, workload.commits(), nanos, files());
    }

    /**
     * Scenario 6: write-only ingest; {@code observer} sees every row written and {@code afterCommit}
     * the index of each commit once it is published (the writer stays open, holding nothing).
     */
    void ingest(StandardWorkload workload, Consumer<GenericRow> observer, IntConsumer afterCommit) {
        WorkloadIngest.write(table.copyWithOptions(Map.of("write-only", "true")), workload, observer, afterCommit);
    }

    /** Scenario 2: a full compaction of every bucket and its commit, on one thread. */
    CompactionResult fullCompaction() {
        FileSummary input = files();
        long start = System.nanoTime();
        table.newCompactor().compact(CompactStrategy.FULL, "bench-compactor", ++compactions);
        long nanos = System.nanoTime() - start;
        return new CompactionResult(input, files(), nanos);
    }

    /**
     * -Dstrata.bench.rewrite-cpu=true prints each rewrite's wall time, its thread's CPU time and
     * allocation in {@link #fullCompaction(int)}: wall well above CPU means the thread waited for a
     * core (GC, JIT and kernel threads compete for two cores), not for I/O.
     */
    private static final boolean REWRITE_CPU = Boolean.getBoolean("strata.bench.rewrite-cpu");

    /**
     * The same full compaction with the buckets' rewrites spread over {@code threads} plain Java
     * threads (each takes the next bucket when idle, as the job's subtasks do), then one commit:
     * what parallel rewriting gains on this machine without Flink, the ceiling for the job's.
     */
    CompactionResult fullCompaction(int threads) throws Exception {
        FileSummary input = files();
        long start = System.nanoTime();
        TableCompactor compactor = table.newCompactor();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<CompactResult>> futures = new ArrayList<>();
            for (CompactPlan plan : compactor.plan(CompactStrategy.FULL, EntryFilter.ALL)) {
                futures.add(pool.submit(
                        () -> REWRITE_CPU ? reportedRewrite(compactor, plan, start) : compactor.rewrite(plan)));
            }
            List<CompactResult> results = new ArrayList<>();
            for (Future<CompactResult> f : futures) {
                results.add(f.get());
            }
            long commitStart = System.nanoTime();
            compactor.commit(results, "bench-compactor", ++compactions);
            if (REWRITE_CPU) {
                System.out.printf(Locale.ROOT, "  commit: %d ms%n", (System.nanoTime() - commitStart) / 1_000_000);
            }
        } finally {
            pool.shutdownNow();
        }
        long nanos = System.nanoTime() - start;
        return new CompactionResult(input, files(), nanos);
    }

    /** {@code compactor.rewrite(plan)}, printing its wall time, CPU time and allocation (see {@link #REWRITE_CPU}). */
    private static CompactResult reportedRewrite(TableCompactor compactor, CompactPlan plan, long start) {
        ThreadMXBean mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long cpu = mx.getCurrentThreadCpuTime();
        long allocated = mx.getCurrentThreadAllocatedBytes();
        long t0 = System.nanoTime();
        CompactResult r = compactor.rewrite(plan);
        System.out.printf(
                Locale.ROOT,
                "  rewrite of bucket %d: %d ms wall, %d ms cpu, %d MB allocated, " + "ends at %d ms%n",
                plan.bucket(),
                (System.nanoTime() - t0) / 1_000_000,
                (mx.getCurrentThreadCpuTime() - cpu) / 1_000_000,
                (mx.getCurrentThreadAllocatedBytes() - allocated) / 1_000_000,
                (System.nanoTime() - start) / 1_000_000);
        return r;
    }

    /**
     * Scenario 5, the copy limit: reads every live file and writes the same rows to new files
     * (same format and codec, under {@code scratch}), with no merging: the floor for any
     * merge-based compaction of these files. Reads like a compaction does (STRING values as raw UTF-8,
     * see DataFileReader.Options#rawStrings()).
     */
    CompactionResult copyLimit(Path scratch) throws IOException {
        FileSummary input = files();
        FileIO io = table.fileIO();
        List<FilesTable.FileRow> rows = FilesTable.rows(table, null);
        long start = System.nanoTime();
        int n = 0;
        long outRows = 0;
        long outBytes = 0;
        for (FilesTable.FileRow f : rows) {
            org.apache.hadoop.fs.Path src = table.paths().dataFile("", f.bucket, f.file.fileName());
            org.apache.hadoop.fs.Path dst =
                    new org.apache.hadoop.fs.Path(scratch.toUri().toString(), "copy-" + (n++) + ".parquet");
            try (DataFileReader in = DataFileReader.of(io, table.formatConfig().conf(), src, table.schema())
                            .fileSize(f.file.fileSize())
                            .rawStrings()
                            .open();
                    DataFileWriter out = DataFileWriter.durableOnFinish(
                                    io,
                                    table.schema(),
                                    table.formatConfig(),
                                    table.context().clock())
                            .create(dst, 1, FileSource.COMPACT)) {
                while (in.hasNext()) {
                    out.write(in.next());
                }
                DataFileMeta meta = out.finish();
                outRows += meta.rowCount();
                outBytes += meta.fileSize();
            }
        }
        long nanos = System.nanoTime() - start;
        return new CompactionResult(input, new FileSummary(n, outRows, outBytes), nanos);
    }

    /**
     * The maintenance benchmark's history: write-only ingest, one commit per workload commit, and
     * a full compaction of every bucket (its own snapshot) after every {@code compactEvery}-th
     * commit, stopping once the table has {@code snapshots} snapshots. The writer stays open across
     * the compactions, as a write-only ingestion job's does beside a separate compaction job.
     */
    void ingestWithCompactions(StandardWorkload workload, int compactEvery, int snapshots) {
        FileStoreTable writer = table.copyWithOptions(Map.of("write-only", "true"));
        String user = "strata-bench-ingest";
        try (TableWrite write = writer.newWrite(user);
                TableCommit commit = writer.newCommit(user)) {
            int made = 0;
            for (int c = workload.nextCommit(); c < workload.commits(); c++) {
                workload.forEachRowOfCommit(c, write::write);
                commit.commit(c + 1, write.prepareCommit());
                made++;
                if ((c + 1) % compactEvery == 0 && made < snapshots) {
                    table.newCompactor().compact(CompactStrategy.FULL, "bench-compactor", ++compactions);
                    made++;
                }
            }
        }
    }

    /** The number of snapshots the table holds now. */
    int snapshotCount() {
        SnapshotManager sm = table.snapshotManager();
        OptionalLong earliest = sm.earliestId();
        OptionalLong latest = sm.latestId();
        return earliest.isEmpty() ? 0 : (int) (latest.getAsLong() - earliest.getAsLong() + 1);
    }

    /** The table's directory. */
    Path directory() {
        return Path.of(table.paths().root().toUri().getPath());
    }

    /**
     * Expires every snapshot but the latest {@code retain}, in one run (count bounds only: the time
     * bound and the per-run limit are set out of the way). Returns the files it deleted.
     */
    int expire(int retain, int limit) {
        FileStoreTable t = table.copyWithOptions(Map.of(
                ExpireOptions.NUM_RETAINED_MIN.key(), String.valueOf(retain),
                ExpireOptions.NUM_RETAINED_MAX.key(), String.valueOf(retain),
                ExpireOptions.TIME_RETAINED.key(), "1 ms",
                ExpireOptions.EXPIRE_LIMIT.key(), String.valueOf(limit)));
        ExpireResult r = t.newSnapshotExpiration().expire();
        return r.deleted().size();
    }

    /** Orphan cleanup of the files older than {@code olderThan}; returns the files it deleted. */
    int removeOrphans(Duration olderThan) {
        OrphanCleanResult r = table.newOrphanFilesClean(olderThan).clean();
        return r.deleted().size();
    }

    long changelogRows() {
        long n = 0;
        for (Snapshot s : SnapshotsTable.rows(table)) {
            n += s.changelogRecordCount() == null ? 0 : s.changelogRecordCount();
        }
        return n;
    }

    WorkloadCheck check() {
        return TableChecksum.of(table.newReadBuilder());
    }

    FileSummary files() {
        int n = 0;
        long rows = 0;
        long bytes = 0;
        for (FilesTable.FileRow f : FilesTable.rows(table, null)) {
            n++;
            rows += f.file.rowCount();
            bytes += f.file.fileSize();
        }
        return new FileSummary(n, rows, bytes);
    }
}
