package io.strata.bench;

import io.strata.cli.workload.StandardWorkload;
import io.strata.cli.workload.WorkloadSchema.Column;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.GenericRow;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.util.CloseableIterator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.StreamTableCommit;
import org.apache.paimon.table.sink.StreamTableWrite;
import org.apache.paimon.table.sink.StreamWriteBuilder;
import org.apache.paimon.table.source.ReadBuilder;

/**
 * Issue 17's partial-update benchmark on {@link WideStreams}: write-only ingest of the four
 * streams (stream rows/s, generation included, as in WORKLOAD.md's scenario 1) and then a full
 * compaction of every bucket and its commit (input rows/s), on Strata and on Apache Paimon 1.3.1
 * with the same table options, on the same rows, in one JVM, alternating the engines. After each
 * run both tables are read back and compared with the model: a Strata table that differs aborts
 * the run; a Paimon table that differs is reported (Paimon orders a pre-merged partial-update row
 * by its highest ordering value, so under {@code sequence.field} its answer may depend on how rows
 * met in its write buffer), and its figures still print. The last line is one JSON object with
 * the medians and ratios.
 *
 * <p>Arguments, all optional: {@code --ordering=groups|sequence-field} (default groups),
 * {@code --dir=PATH}, {@code --warmups=1 --runs=3}, and the workload {@code --commits=10
 * --rows=200000 --keys=1000000 --seed=42} (deletes are drawn with f = 0.05 and left out).
 */
public final class PartialUpdateBenchmark {
    private static final Set<String> OPTIONS =
            Set.of("ordering", "dir", "warmups", "runs", "commits", "rows", "keys", "seed", "sort-spill-threshold");
    private static final String[] KEY = {"id"};

    private PartialUpdateBenchmark() {}

    /** One engine's figures of one run. */
    record Run(
            long streamRows,
            long ingestNanos,
            long compactionInputRows,
            long compactionNanos,
            WideStreams.Verdict verdict) {
        double ingestRowsPerSecond() {
            return streamRows * 1e9 / ingestNanos;
        }

        double compactionRowsPerSecond() {
            return compactionInputRows * 1e9 / compactionNanos;
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = WorkloadBenchmark.parse(args, OPTIONS);
        Path dir = Path.of(opts.getOrDefault("dir", System.getProperty("java.io.tmpdir")));
        int warmups = Integer.parseInt(opts.getOrDefault("warmups", "1"));
        int runs = Integer.parseInt(opts.getOrDefault("runs", "3"));
        StandardWorkload workload = WorkloadBenchmark.workload(opts);
        WideStreams streams =
                new WideStreams(workload, WideStreams.Ordering.parse(opts.getOrDefault("ordering", "groups")));
        WideStreams.Model expected = streams.expected();
        System.out.printf(
                Locale.ROOT,
                "%s as 4 lagged partial-update streams, ordering %s; expected %d rows; java %s, %d cpus, max heap %d MiB%n",
                workload,
                streams.ordering(),
                expected.rows(),
                System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20);
        // an ablation: Strata's most runs merged at once in its full compaction (its default bounds
        // memory; Paimon's default never spills)
        Map<String, String> strataCompaction = opts.containsKey("sort-spill-threshold")
                ? Map.of("sort-spill-threshold", opts.get("sort-spill-threshold"))
                : Map.of();
        double[][] m = new double[4][runs];
        boolean paimonCorrect = true;
        for (int i = -warmups; i < runs; i++) {
            String label = i < 0 ? "warm-up " + (i + warmups + 1) : "run " + (i + 1);
            Path warehouse = Files.createTempDirectory(dir, "strata-pu-bench-");
            try {
                Run s = strata(warehouse.resolve("strata"), streams, expected, strataCompaction);
                Run p = paimon(warehouse.resolve("paimon"), streams, expected);
                paimonCorrect &= p.verdict().correct();
                System.out.printf(
                        Locale.ROOT,
                        "%s: ingest strata %.3f | paimon %.3f M stream rows/s; full compaction strata %.3f | paimon "
                                + "%.3f M input rows/s (%d | %d input rows); paimon table %s%n",
                        label,
                        s.ingestRowsPerSecond() / 1e6,
                        p.ingestRowsPerSecond() / 1e6,
                        s.compactionRowsPerSecond() / 1e6,
                        p.compactionRowsPerSecond() / 1e6,
                        s.compactionInputRows(),
                        p.compactionInputRows(),
                        p.verdict());
                if (i >= 0) {
                    m[0][i] = s.ingestRowsPerSecond();
                    m[1][i] = p.ingestRowsPerSecond();
                    m[2][i] = s.compactionRowsPerSecond();
                    m[3][i] = p.compactionRowsPerSecond();
                }
            } finally {
                WorkloadBenchmark.deleteRecursively(warehouse);
            }
        }
        double si = WorkloadBenchmark.median(m[0]);
        double pi = WorkloadBenchmark.median(m[1]);
        double sc = WorkloadBenchmark.median(m[2]);
        double pc = WorkloadBenchmark.median(m[3]);
        System.out.printf(
                Locale.ROOT,
                "{\"ordering\":\"%s\",\"strata_ingest_rows_per_s\":%.0f,\"paimon_ingest_rows_per_s\":%.0f,"
                        + "\"ingest_ratio\":%.2f,\"strata_compaction_rows_per_s\":%.0f,"
                        + "\"paimon_compaction_rows_per_s\":%.0f,\"compaction_ratio\":%.2f,\"paimon_correct\":%s}%n",
                opts.getOrDefault("ordering", "groups"),
                si,
                pi,
                si / pi,
                sc,
                pc,
                sc / pc,
                paimonCorrect);
    }

    static Run strata(
            Path warehouse, WideStreams streams, WideStreams.Model expected, Map<String, String> compactionOptions) {
        Schema.Builder b = Schema.newBuilder();
        for (Column c : streams.columns()) {
            b.column(c.name(), c.typeText());
        }
        Schema schema = b.primaryKey(KEY).options(streams.options()).build();
        FileStoreTable table = Catalog.open(warehouse.toString()).createTable("bench", "wide", schema);
        FileStoreTable writer = table.copyWithOptions(Map.of("write-only", "true"));
        long[] rows = {0};
        long start = System.nanoTime();
        try (TableWrite write = writer.newWrite("bench-ingest");
                TableCommit commit = writer.newCommit("bench-ingest")) {
            int[] t = {0};
            streams.forEachCommit(commitRows -> {
                for (GenericRow r : commitRows) {
                    write.write(r);
                }
                rows[0] += commitRows.size();
                t[0]++;
                commit.commit(t[0], t[0] == streams.commits() ? write.prepareLastCommit() : write.prepareCommit());
            });
        }
        long ingestNanos = System.nanoTime() - start;
        long inputRows = StrataPeer.open(warehouse, "wide").files().rows();
        start = System.nanoTime();
        table.copyWithOptions(compactionOptions).newCompactor().compact(CompactStrategy.FULL, "bench-compactor", 1);
        long compactionNanos = System.nanoTime() - start;
        WideStreams.Model.Comparison check = expected.compare();
        try (CloseableIterator<GenericRow> it = table.newReadBuilder().readAll()) {
            while (it.hasNext()) {
                streams.addTo(check, it.next().fields());
            }
        }
        WideStreams.Verdict verdict = check.result();
        if (!verdict.correct()) {
            throw new IllegalStateException("Strata's partial-update table " + verdict);
        }
        return new Run(rows[0], ingestNanos, inputRows, compactionNanos, verdict);
    }

    static Run paimon(Path warehouse, WideStreams streams, WideStreams.Model expected) throws Exception {
        Files.createDirectories(warehouse);
        List<Column> columns = streams.columns();
        boolean[] isString = new boolean[columns.size()];
        for (int i = 0; i < isString.length; i++) {
            isString[i] = columns.get(i).type().equals("STRING");
        }
        try (org.apache.paimon.catalog.Catalog catalog = CatalogFactory.createCatalog(
                        CatalogContext.create(new org.apache.paimon.fs.Path(warehouse.toString())));
                IOManager io = IOManager.create(
                        Files.createDirectories(warehouse.resolve(".io-tmp")).toString())) {
            Identifier id = Identifier.create("bench", "wide");
            catalog.createDatabase("bench", true);
            catalog.createTable(id, PaimonSchema.table(columns, KEY[0], streams.options()), false);
            Table table = catalog.getTable(id).copy(Map.of("write-only", "true"));
            StreamWriteBuilder builder = table.newStreamWriteBuilder().withCommitUser("bench-ingest");
            long[] rows = {0};
            long start = System.nanoTime();
            try (StreamTableWrite write = builder.newWrite();
                    StreamTableCommit commit = builder.newCommit()) {
                write.withIOManager(io);
                long[] t = {0};
                streams.forEachCommit(commitRows -> {
                    try {
                        for (GenericRow r : commitRows) {
                            write.write(toPaimon(r, isString));
                        }
                        commit.commit(t[0], write.prepareCommit(false, t[0]));
                    } catch (Exception e) {
                        throw new IllegalStateException("Paimon ingest failed at commit " + t[0], e);
                    }
                    rows[0] += commitRows.size();
                    t[0]++;
                });
            }
            long ingestNanos = System.nanoTime() - start;
            Table compactTable = catalog.getTable(id);
            long inputRows;
            try (PaimonPeer peer = PaimonPeer.open(warehouse, "wide")) {
                inputRows = peer.files().rows();
            }
            StreamWriteBuilder cb = compactTable.newStreamWriteBuilder().withCommitUser("bench-compactor");
            start = System.nanoTime();
            try (StreamTableWrite write = cb.newWrite();
                    StreamTableCommit commit = cb.newCommit()) {
                write.withIOManager(io);
                int buckets = Integer.parseInt(compactTable.options().get("bucket"));
                for (int bucket = 0; bucket < buckets; bucket++) {
                    write.compact(BinaryRow.EMPTY_ROW, bucket, true);
                }
                commit.commit(0, write.prepareCommit(true, 0));
            }
            long compactionNanos = System.nanoTime() - start;
            WideStreams.Model.Comparison check = expected.compare();
            ReadBuilder rb = catalog.getTable(id).newReadBuilder();
            try (RecordReader<InternalRow> reader =
                    rb.newRead().createReader(rb.newScan().plan())) {
                reader.forEachRemaining(r -> streams.addTo(check, fromPaimon(r, columns)));
            }
            return new Run(rows[0], ingestNanos, inputRows, compactionNanos, check.result());
        }
    }

    private static org.apache.paimon.data.GenericRow toPaimon(GenericRow row, boolean[] isString) {
        org.apache.paimon.data.GenericRow out =
                new org.apache.paimon.data.GenericRow(PaimonRows.kind(row.kind()), isString.length);
        for (int i = 0; i < isString.length; i++) {
            Object v = row.get(i);
            out.setField(i, isString[i] && v != null ? BinaryString.fromString((String) v) : v);
        }
        return out;
    }

    private static Object[] fromPaimon(InternalRow r, List<Column> columns) {
        Object[] out = new Object[columns.size()];
        for (int i = 0; i < out.length; i++) {
            if (r.isNullAt(i)) {
                continue;
            }
            switch (columns.get(i).type()) {
                case "BIGINT":
                    out[i] = r.getLong(i);
                    break;
                case "INT":
                    out[i] = r.getInt(i);
                    break;
                case "DOUBLE":
                    out[i] = r.getDouble(i);
                    break;
                case "STRING":
                    out[i] = r.getString(i).toString();
                    break;
                default:
                    throw new IllegalArgumentException(
                            "no reading of type " + columns.get(i).type());
            }
        }
        return out;
    }
}
