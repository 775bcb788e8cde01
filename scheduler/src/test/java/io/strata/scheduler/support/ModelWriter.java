package io.strata.scheduler.support;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * A write-only primary-key table {@code db.<name>} (k BIGINT, v STRING, 2 buckets) and one writer
 * committing batches of upserts to it, with a model of every version it committed: the value
 * written to key {@code k} by commit {@code c} is {@code c<c>-<i>}, so the rows of any snapshot
 * name the last writer commit they hold ({@link #versionOf}: commit {@code c}'s rows are all still
 * visible in every snapshot that holds it and no later commit), and {@link #modelAt} says what they
 * must be. Compactions rewrite files, never values, so this holds for their snapshots too.
 */
public final class ModelWriter implements AutoCloseable {
    private final FileStoreTable table;
    private final TableWrite write;
    private final TableCommit commit;
    private final Random random;
    /** Key to (commit to the value it wrote). */
    private final Map<Long, TreeMap<Long, String>> history = new HashMap<>();

    private long commits;

    /** Creates the table in the warehouse at {@code warehouse} with {@code options} on top. */
    public ModelWriter(String warehouse, String name, Map<String, String> options, long seed) {
        this(Catalog.open(warehouse), name, options, seed);
    }

    /** Creates the table in {@code catalog} (its clock stamps the snapshots) with {@code options} on top. */
    public ModelWriter(Catalog catalog, String name, Map<String, String> options, long seed) {
        Schema.Builder b = Schema.newBuilder()
                .column("k", "BIGINT NOT NULL")
                .column("v", "STRING")
                .primaryKey("k")
                .option("bucket", "2")
                .option("write-only", "true")
                .options(options);
        this.table = catalog.createTable("db", name, b.build());
        this.write = table.newWrite("model-writer");
        this.commit = table.newCommit("model-writer");
        this.random = new Random(seed);
    }

    /** Commits one batch of {@code rows} upserts of keys below 1,000: each commit adds a level-0 file to every bucket it touches. */
    public void commitBatch(int rows) {
        commitBatch(rows, 1000);
    }

    /**
     * Commits one batch of {@code rows} upserts of keys below {@code keys}; the model takes it once
     * the commit returned.
     */
    public synchronized void commitBatch(int rows, int keys) {
        long c = commits + 1;
        Map<Long, String> batch = new TreeMap<>();
        for (int i = 0; i < rows; i++) {
            long k = random.nextInt(keys);
            String v = "c" + c + "-" + i;
            write.write(new GenericRow(RowKind.INSERT, k, v));
            batch.put(k, v);
        }
        commit.commit(c, write.prepareCommit());
        commits = c;
        batch.forEach((k, v) -> history.computeIfAbsent(k, x -> new TreeMap<>()).put(c, v));
    }

    public FileStoreTable table() {
        return table;
    }

    /** Commits that returned. */
    public synchronized long commits() {
        return commits;
    }

    /** What a scan of the latest snapshot must return once the writer stopped. */
    public synchronized Map<Long, String> model() {
        return modelAt(commits);
    }

    /** What a snapshot holding writer commits 1 to {@code c} holds. */
    public synchronized Map<Long, String> modelAt(long c) {
        if (c > commits) {
            throw new IllegalArgumentException("commit " + c + " has not returned yet (" + commits + " have)");
        }
        Map<Long, String> out = new TreeMap<>();
        history.forEach((k, byCommit) -> {
            Map.Entry<Long, String> e = byCommit.floorEntry(c);
            if (e != null) {
                out.put(k, e.getValue());
            }
        });
        return out;
    }

    /** The last writer commit that {@code rows} (a scan, key to value) hold; 0 for none. */
    public static long versionOf(Map<Long, String> rows) {
        long max = 0;
        for (String v : rows.values()) {
            max = Math.max(max, Long.parseLong(v.substring(1, v.indexOf('-'))));
        }
        return max;
    }

    @Override
    public synchronized void close() {
        write.close();
        commit.close();
    }
}
