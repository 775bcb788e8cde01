package io.strata.scheduler.support;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

/**
 * A write-only primary-key table {@code db.<name>} partitioned by day: {@code dt STRING} holding ISO
 * dates (what partition expiration reads without a formatter), {@code k BIGINT}, {@code v STRING},
 * one bucket.
 */
public final class DailyPartitions {
    public static final int ROWS_PER_DAY = 5;

    private final FileStoreTable table;
    private long commits;

    public DailyPartitions(String warehouse, String name, Map<String, String> options) {
        this.table = Catalog.open(warehouse)
                .createTable(
                        "db",
                        name,
                        Schema.newBuilder()
                                .column("dt", "STRING NOT NULL")
                                .column("k", "BIGINT NOT NULL")
                                .column("v", "STRING")
                                .primaryKey("dt", "k")
                                .partitionKeys("dt")
                                .option("bucket", "1")
                                .option("write-only", "true")
                                .options(options)
                                .build());
    }

    /** Commits {@link #ROWS_PER_DAY} rows into the partition of each of {@code days}, in one snapshot. */
    public void write(List<LocalDate> days) {
        try (TableWrite w = table.newWrite("days");
                TableCommit c = table.newCommit("days")) {
            for (LocalDate day : days) {
                for (long k = 0; k < ROWS_PER_DAY; k++) {
                    w.write(GenericRow.insert(day.toString(), k, "v" + k));
                }
            }
            c.commit(++commits, w.prepareCommit());
        }
    }

    public FileStoreTable table() {
        return table;
    }
}
