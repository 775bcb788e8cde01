package io.strata.storage.testutil;

import io.strata.storage.data.GenericRow;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.util.CloseableIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import io.strata.storage.read.ReadBuilder;

/** Helpers shared by tests: the model table schema and full scans. */
public final class TestTables {
    private TestTables() {
    }

    /** The schema of {@link TableModel} tables, optionally partitioned by p. */
    public static Schema modelSchema(boolean partitioned, int buckets, Map<String, String> options) {
        Schema.Builder b = Schema.newBuilder()
                .column("p", "INT NOT NULL").column("id", "INT NOT NULL").column("a", "BIGINT").column("b", "INT")
                .column("c", "STRING").column("d", "BIGINT").column("e", "DOUBLE").column("ts", "BIGINT")
                .primaryKey("p", "id").option("bucket", String.valueOf(buckets)).options(options);
        if (partitioned) {
            b.partitionKeys("p");
        }
        return b.build();
    }

    public static List<GenericRow> scan(ReadBuilder rb) {
        List<GenericRow> rows = new ArrayList<>();
        try (CloseableIterator<GenericRow> it = rb.readAll()) {
            it.forEachRemaining(rows::add);
        }
        return rows;
    }

    public static List<GenericRow> scan(FileStoreTable t) {
        return scan(t.newReadBuilder());
    }

    /** Counts how many times each test seed should repeat: {@code -Dstrata.test.iterations} (soak profile). */
    public static int iterations() {
        return Integer.getInteger("strata.test.iterations", 1);
    }
}
