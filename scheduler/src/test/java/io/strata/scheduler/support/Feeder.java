package io.strata.scheduler.support;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * A write-only primary-key table {@code db.<name>} (k BIGINT, v STRING, 2 buckets) and a writer
 * that commits batches of upserts to it, keeping the model of what a scan must return. Each
 * commit adds a level-0 file to every bucket it touches.
 */
public final class Feeder implements AutoCloseable {
    private final FileStoreTable table;
    private final TableWrite write;
    private final TableCommit commit;
    private final Random random;
    private final Map<Long, String> model = new TreeMap<>();
    private long commits;

    public Feeder(String warehouse, String name, Map<String, String> options, long seed) {
        Schema.Builder b = Schema.newBuilder()
                .column("k", "BIGINT NOT NULL")
                .column("v", "STRING")
                .primaryKey("k")
                .option("bucket", "2")
                .option("write-only", "true")
                .options(options);
        this.table = Catalog.open(warehouse).createTable("db", name, b.build());
        this.write = table.newWrite("feeder");
        this.commit = table.newCommit("feeder");
        this.random = new Random(seed);
    }

    /** Commits one batch of {@code rows} upserts of keys below 1,000; the model takes it once committed. */
    public synchronized void commitBatch(int rows) {
        Map<Long, String> batch = new TreeMap<>();
        for (int i = 0; i < rows; i++) {
            long k = random.nextInt(1000);
            String v = "v" + commits + "-" + i;
            write.write(new GenericRow(RowKind.INSERT, k, v));
            batch.put(k, v);
        }
        commit.commit(++commits, write.prepareCommit());
        model.putAll(batch);
    }

    public FileStoreTable table() {
        return table;
    }

    public synchronized Map<Long, String> model() {
        return new TreeMap<>(model);
    }

    @Override
    public synchronized void close() {
        write.close();
        commit.close();
    }
}
