package io.strata.bench;

import io.strata.cli.workload.StandardWorkload;
import io.strata.cli.workload.TableChecksum;
import io.strata.cli.workload.WorkloadCheck;
import io.strata.cli.workload.WorkloadIngest;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.system.FilesTable;
import java.nio.file.Path;
import java.util.Map;

/** Strata's side of a benchmark: one workload table in a fresh local warehouse, driven through the public API. */
final class StrataPeer {
    private final FileStoreTable table;

    private StrataPeer(FileStoreTable table) {
        this.table = table;
    }

    static StrataPeer createTable(Path warehouse, String name) {
        Catalog catalog = Catalog.open(warehouse.toString());
        return new StrataPeer(catalog.createTable("bench", name, WorkloadIngest.schema(4, Map.of()), false));
    }

    /** Scenario 1: write-only ingest, one commit per workload commit. */
    IngestResult ingest(StandardWorkload workload) {
        FileStoreTable writeOnly = table.copyWithOptions(Map.of("write-only", "true"));
        long start = System.nanoTime();
        long rows = WorkloadIngest.write(writeOnly, workload, row -> { }, c -> { });
        long nanos = System.nanoTime() - start;
        return new IngestResult(rows, workload.commits(), nanos, files());
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
