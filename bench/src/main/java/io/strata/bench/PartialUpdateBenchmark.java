package io.strata.bench;

import io.strata.cli.workload.StandardWorkload;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.GenericRow;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.StreamTableCommit;
import org.apache.paimon.table.sink.StreamTableWrite;
import org.apache.paimon.table.sink.StreamWriteBuilder;
import org.apache.paimon.types.DataTypes;

/**
 * Issue 17: a wide partial-update table fed by four streams that update disjoint column groups of
 * the same keys, Strata beside Apache Paimon 1.3.1 on the identical rows: write-only ingest (one
 * commit per workload commit) and a full compaction, per ordering mode.
 *
 * <p>Rows: the standard workload's upserts (deletes skipped), row {@code g} going to stream
 * {@code g % 4}, which sets {@code ts} and its own group {@code s<i>_ts, s<i>_c0..c4} (name, price,
 * qty, ts, the payload's first 8 characters); one row in ten is late: its ordering value is
 * {@code ts - qty * 37}. Table: {@code id} primary key, 4 buckets, zstd 1, 26 columns. Modes:
 * {@code plain} (partial-update in arrival order), {@code seqfield} ({@code sequence.field=ts}),
 * {@code groups} ({@code fields.s<i>_ts.sequence-group=s<i>_c0,...}).
 *
 * <p>Arguments: {@code --dir=PATH --commits=10 --rows=200000 --keys=1000000 --seed=42
 * --modes=plain,seqfield,groups --runs=1}. Prints one JSON line per mode and run.
 */
public final class PartialUpdateBenchmark {
    private static final int STREAMS = 4;
    private static final String[] SUFFIX = {"c0", "c1", "c2", "c3", "c4"};
    private static final String[] TYPES = {"STRING", "DOUBLE", "INT", "BIGINT", "STRING"};
    /** Positions: 0 id, 1 ts, then per stream 6 columns (s_ts, c0..c4). */
    private static final int WIDTH = 2 + STREAMS * 6;

    private PartialUpdateBenchmark() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new LinkedHashMap<>(Map.of(
                "dir", System.getProperty("java.io.tmpdir"),
                "commits", "10",
                "rows", "200000",
                "keys", "1000000",
                "seed", "42",
                "modes", "plain,seqfield,groups",
                "runs", "1"));
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (!arg.startsWith("--") || eq < 0 || !a.containsKey(arg.substring(2, eq))) {
                throw new IllegalArgumentException("unknown argument " + arg + " (known: " + a.keySet() + ")");
            }
            a.put(arg.substring(2, eq), arg.substring(eq + 1));
        }
        Path dir = Files.createDirectories(Path.of(a.get("dir")));
        int runs = Integer.parseInt(a.get("runs"));
        for (String mode : a.get("modes").split(",")) {
            for (int run = 0; run < runs; run++) {
                StandardWorkload w = workload(a);
                Path base = Files.createTempDirectory(dir, "pu-" + mode + "-");
                double[] strata = strata(base.resolve("strata"), mode, w);
                double[] paimon = paimon(base.resolve("paimon"), mode, workload(a));
                System.out.printf(
                        Locale.ROOT,
                        "{\"mode\":\"%s\",\"rows\":%d,\"ingest_rows_per_s_strata\":%.0f,\"ingest_rows_per_s_paimon\":%.0f,"
                                + "\"ingest_ratio\":%.2f,\"compaction_input_rows_per_s_strata\":%.0f,"
                                + "\"compaction_input_rows_per_s_paimon\":%.0f,\"compaction_ratio\":%.2f,"
                                + "\"bytes_after_ingest_strata\":%.0f,\"bytes_after_compaction_strata\":%.0f}%n",
                        mode,
                        (long) strata[4],
                        strata[0],
                        paimon[0],
                        strata[0] / paimon[0],
                        strata[1],
                        paimon[1],
                        strata[1] / paimon[1],
                        strata[2],
                        strata[3]);
            }
        }
    }

    private static StandardWorkload workload(Map<String, String> a) {
        return new StandardWorkload(
                Integer.parseInt(a.get("commits")),
                Integer.parseInt(a.get("rows")),
                Long.parseLong(a.get("keys")),
                0.05,
                Long.parseLong(a.get("seed")));
    }

    private static String column(int stream, int c) {
        return "s" + stream + "_" + (c < 0 ? "ts" : SUFFIX[c]);
    }

    static Map<String, String> options(String mode) {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("bucket", "4");
        o.put("merge-engine", "partial-update");
        o.put("ignore-delete", "true");
        switch (mode) {
            case "plain":
                break;
            case "seqfield":
                o.put("sequence.field", "ts");
                break;
            case "groups":
                for (int s = 0; s < STREAMS; s++) {
                    StringBuilder members = new StringBuilder();
                    for (int c = 0; c < SUFFIX.length; c++) {
                        members.append(c == 0 ? "" : ",").append(column(s, c));
                    }
                    o.put("fields." + column(s, -1) + ".sequence-group", members.toString());
                }
                break;
            default:
                throw new IllegalArgumentException("unknown mode " + mode + " (known: plain, seqfield, groups)");
        }
        return o;
    }

    /** The wide rows of the workload, in order: upserts only, each to its stream's columns. */
    private static void forEachWideRow(StandardWorkload w, int commit, Consumer<Object[]> sink) {
        long[] g = {(long) commit * w.rowsPerCommit()};
        w.forEachRowOfCommit(commit, row -> {
            long n = g[0]++;
            if (row.kind().isRetract()) {
                return;
            }
            int s = (int) (n % STREAMS);
            int qty = (Integer) row.get(3);
            long ts = (Long) row.get(4);
            long ordering = qty < 100 ? ts - qty * 37L : ts;
            Object[] v = new Object[WIDTH];
            v[0] = row.get(0);
            v[1] = ordering;
            int base = 2 + s * 6;
            v[base] = ordering;
            v[base + 1] = row.get(1);
            v[base + 2] = row.get(2);
            v[base + 3] = qty;
            v[base + 4] = ts;
            v[base + 5] = ((String) row.get(5)).substring(0, 8);
            sink.accept(v);
        });
    }

    /** {ingest rows/s, compaction input rows/s, bytes after ingest, bytes after compaction, rows}. */
    private static double[] strata(Path warehouse, String mode, StandardWorkload w) {
        Schema.Builder b = Schema.newBuilder().column("id", "BIGINT NOT NULL").column("ts", "BIGINT");
        for (int s = 0; s < STREAMS; s++) {
            b.column(column(s, -1), "BIGINT");
            for (int c = 0; c < SUFFIX.length; c++) {
                b.column(column(s, c), TYPES[c]);
            }
        }
        b.primaryKey("id").options(options(mode)).option("write-only", "true");
        FileStoreTable t = Catalog.open(warehouse.toString()).createTable("bench", "wide", b.build());
        long rows = 0;
        long start = System.nanoTime();
        try (TableWrite write = t.newWrite("ingest");
                TableCommit commit = t.newCommit("ingest")) {
            long[] n = {0};
            for (int c = 0; c < w.commits(); c++) {
                forEachWideRow(w, c, v -> {
                    write.write(GenericRow.insert(v));
                    n[0]++;
                });
                commit.commit(c + 1, write.prepareCommit());
            }
            rows = n[0];
        }
        double ingest = rows / ((System.nanoTime() - start) / 1e9);
        FileSummary before = strataFiles(t);
        start = System.nanoTime();
        t.newCompactor().compact(CompactStrategy.FULL, "compactor", 1);
        double compaction = before.rows() / ((System.nanoTime() - start) / 1e9);
        FileSummary after = strataFiles(t);
        return new double[] {ingest, compaction, before.bytes(), after.bytes(), rows};
    }

    private static FileSummary strataFiles(FileStoreTable t) {
        long files = 0;
        long rows = 0;
        long bytes = 0;
        for (io.strata.storage.table.system.FilesTable.FileRow r :
                io.strata.storage.table.system.FilesTable.rows(t, null)) {
            files++;
            rows += r.file.rowCount();
            bytes += r.file.fileSize();
        }
        return new FileSummary((int) files, rows, bytes);
    }

    private static double[] paimon(Path warehouse, String mode, StandardWorkload w) throws Exception {
        Files.createDirectories(warehouse);
        Path tmp = Files.createDirectories(warehouse.resolve(".io-tmp"));
        try (org.apache.paimon.catalog.Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(
                        new org.apache.paimon.fs.Path(warehouse.toAbsolutePath().toString())));
                IOManager io = IOManager.create(tmp.toString())) {
            Identifier id = Identifier.create("bench", "wide");
            catalog.createDatabase("bench", true);
            org.apache.paimon.schema.Schema.Builder b = org.apache.paimon.schema.Schema.newBuilder()
                    .column("id", DataTypes.BIGINT().notNull())
                    .column("ts", DataTypes.BIGINT());
            for (int s = 0; s < STREAMS; s++) {
                b.column(column(s, -1), DataTypes.BIGINT());
                for (int c = 0; c < SUFFIX.length; c++) {
                    b.column(column(s, c), PaimonSchema.type(TYPES[c]));
                }
            }
            options(mode).forEach(b::option);
            b.option("file.format", "parquet")
                    .option("file.compression", "zstd")
                    .option("file.compression.zstd-level", "1");
            catalog.createTable(id, b.primaryKey("id").build(), false);
            Table table = catalog.getTable(id).copy(Map.of("write-only", "true"));
            StreamWriteBuilder builder = table.newStreamWriteBuilder().withCommitUser("ingest");
            long[] n = {0};
            long start = System.nanoTime();
            try (StreamTableWrite write = builder.newWrite();
                    StreamTableCommit commit = builder.newCommit()) {
                write.withIOManager(io);
                for (int c = 0; c < w.commits(); c++) {
                    forEachWideRow(w, c, v -> {
                        org.apache.paimon.data.GenericRow r = new org.apache.paimon.data.GenericRow(v.length);
                        for (int i = 0; i < v.length; i++) {
                            r.setField(i, v[i] instanceof String ? BinaryString.fromString((String) v[i]) : v[i]);
                        }
                        try {
                            write.write(r);
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                        n[0]++;
                    });
                    commit.commit(c, write.prepareCommit(false, c));
                }
            }
            double ingest = n[0] / ((System.nanoTime() - start) / 1e9);
            long inputRows = paimonRows(catalog.getTable(id));
            Table compactTable = catalog.getTable(id);
            StreamWriteBuilder cb = compactTable.newStreamWriteBuilder().withCommitUser("compact");
            start = System.nanoTime();
            try (StreamTableWrite write = cb.newWrite();
                    StreamTableCommit commit = cb.newCommit()) {
                write.withIOManager(io);
                for (int bucket = 0; bucket < 4; bucket++) {
                    write.compact(BinaryRow.EMPTY_ROW, bucket, true);
                }
                commit.commit(0, write.prepareCommit(true, 0));
            }
            double compaction = inputRows / ((System.nanoTime() - start) / 1e9);
            return new double[] {ingest, compaction, 0, 0, n[0]};
        }
    }

    private static long paimonRows(Table t) {
        List<org.apache.paimon.table.source.Split> splits =
                t.newReadBuilder().newScan().plan().splits();
        long rows = 0;
        for (org.apache.paimon.table.source.Split s : splits) {
            for (org.apache.paimon.io.DataFileMeta f : ((org.apache.paimon.table.source.DataSplit) s).dataFiles()) {
                rows += f.rowCount();
            }
        }
        return rows;
    }
}
