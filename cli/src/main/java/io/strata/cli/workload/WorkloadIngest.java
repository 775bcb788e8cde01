package io.strata.cli.workload;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * Writes the standard workload into a Strata table: one commit (one snapshot) per workload
 * commit, through the public write and commit API like any ingestion job.
 */
public final class WorkloadIngest {
    private WorkloadIngest() {}

    /** The workload table's schema with {@code buckets} buckets and extra table options. */
    public static Schema schema(int buckets, Map<String, String> options) {
        Schema.Builder b = Schema.newBuilder();
        for (WorkloadSchema.Column c : WorkloadSchema.COLUMNS) {
            b.column(c.name(), c.typeText());
        }
        b.primaryKey(WorkloadSchema.PRIMARY_KEY)
                .options(WorkloadSchema.TABLE_OPTIONS)
                .option("bucket", String.valueOf(buckets))
                .options(options);
        return b.build();
    }

    /** Opens the table, creating it with the workload schema if it does not exist. */
    public static FileStoreTable openOrCreate(
            Catalog catalog, String database, String table, int buckets, Map<String, String> options) {
        if (catalog.tableExists(database, table)) {
            return catalog.getTable(database, table).copyWithOptions(options);
        }
        return catalog.createTable(database, table, schema(buckets, options));
    }

    /**
     * Writes every remaining commit of {@code workload}; {@code observer} sees every row written
     * and {@code afterCommit} the index of each commit once it is published. Returns the rows written.
     * The last commit waits for the writer's inline compactions (end of input), so a table that
     * compacts inline ends with its compactions, and their changelog, committed.
     */
    public static long write(
            FileStoreTable table, StandardWorkload workload, Consumer<GenericRow> observer, IntConsumer afterCommit) {
        String user = "strata-gen-" + UUID.randomUUID();
        long rows = 0;
        try (TableWrite write = table.newWrite(user);
                TableCommit commit = table.newCommit(user)) {
            for (int c = workload.nextCommit(); c < workload.commits(); c++) {
                workload.forEachRowOfCommit(c, row -> {
                    write.write(row);
                    observer.accept(row);
                });
                commit.commit(c + 1, c == workload.commits() - 1 ? write.prepareLastCommit() : write.prepareCommit());
                rows += workload.rowsPerCommit();
                afterCommit.accept(c);
            }
        }
        return rows;
    }
}
