package io.strata.bench;

import io.strata.cli.workload.ExpectedTable;
import io.strata.cli.workload.StandardWorkload;
import io.strata.cli.workload.WorkloadCheck;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Scenario 1 of WORKLOAD.md (write-only ingest) on Strata and on Apache Paimon 1.3.1, in one
 * process, on the identical generated rows: warm-up runs, then measured runs alternating the two
 * engines (Strata, Paimon, Strata, ...), each on a fresh table and verified against the workload
 * model (a wrong result aborts with exit code 1). Prints one line per run and, last, one JSON
 * line with the medians of both and the ratio.
 *
 * <p>Arguments, all optional: {@code --dir=PATH} (scratch; default the JVM temp directory),
 * {@code --warmups=2 --runs=5}, and the workload {@code --commits=10 --rows=200000
 * --keys=1000000 --delete-fraction=0.05 --seed=42}.
 */
public final class IngestBenchmark {
    private static final Set<String> OPTIONS =
            Set.of("dir", "warmups", "runs", "commits", "rows", "keys", "delete-fraction", "seed");

    private IngestBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = parse(args);
        Path dir = Path.of(opts.getOrDefault("dir", System.getProperty("java.io.tmpdir")));
        int warmups = Integer.parseInt(opts.getOrDefault("warmups", "2"));
        int runs = Integer.parseInt(opts.getOrDefault("runs", "5"));
        StandardWorkload workload = new StandardWorkload(
                Integer.parseInt(opts.getOrDefault("commits", "10")),
                Integer.parseInt(opts.getOrDefault("rows", "200000")),
                Long.parseLong(opts.getOrDefault("keys", "1000000")),
                Double.parseDouble(opts.getOrDefault("delete-fraction", "0.05")),
                Long.parseLong(opts.getOrDefault("seed", "42")));
        System.out.printf("%s; java %s, %d cpus, max heap %d MiB%n", workload, System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20);
        WorkloadCheck expected = ExpectedTable.of(workload.restart());

        double[] strata = new double[runs];
        double[] paimon = new double[runs];
        IngestResult lastStrata = null;
        IngestResult lastPaimon = null;
        for (int i = -warmups; i < runs; i++) {
            String label = i < 0 ? "warm-up " + (i + warmups + 1) : "run " + (i + 1);
            IngestResult s = runStrata(dir, workload.restart(), expected);
            IngestResult p = runPaimon(dir, workload.restart(), expected);
            System.out.printf(Locale.ROOT, "%s: strata %.3f M rows/s (%.2f s, %s) | paimon %.3f M rows/s (%.2f s, %s) | load %.2f%n",
                    label, s.rowsPerSecond() / 1e6, s.nanos() / 1e9, s.files(), p.rowsPerSecond() / 1e6,
                    p.nanos() / 1e9, p.files(), ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            if (i >= 0) {
                strata[i] = s.rowsPerSecond();
                paimon[i] = p.rowsPerSecond();
                lastStrata = s;
                lastPaimon = p;
            }
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("scenario", "1-ingest-write-only");
        json.put("workload", workload.toString());
        json.put("runs", runs);
        json.put("strata_rows_per_s_median", Math.round(median(strata)));
        json.put("paimon_rows_per_s_median", Math.round(median(paimon)));
        json.put("ratio_strata_over_paimon", Math.round(median(strata) / median(paimon) * 1000) / 1000.0);
        json.put("strata_files", lastStrata.files().files());
        json.put("strata_file_rows", lastStrata.files().rows());
        json.put("strata_bytes", lastStrata.files().bytes());
        json.put("paimon_files", lastPaimon.files().files());
        json.put("paimon_file_rows", lastPaimon.files().rows());
        json.put("paimon_bytes", lastPaimon.files().bytes());
        System.out.println(new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(json));
    }

    private static IngestResult runStrata(Path dir, StandardWorkload workload, WorkloadCheck expected) throws IOException {
        Path warehouse = Files.createTempDirectory(Files.createDirectories(dir), "strata-bench-");
        try {
            StrataPeer peer = StrataPeer.createTable(warehouse, "workload");
            IngestResult r = peer.ingest(workload);
            verify("Strata", peer.check(), expected);
            return r;
        } finally {
            deleteRecursively(warehouse);
        }
    }

    private static IngestResult runPaimon(Path dir, StandardWorkload workload, WorkloadCheck expected) throws Exception {
        Path warehouse = Files.createTempDirectory(Files.createDirectories(dir), "paimon-bench-");
        try (PaimonPeer peer = PaimonPeer.createTable(warehouse, "workload")) {
            IngestResult r = peer.ingest(workload);
            verify("Paimon", peer.check(), expected);
            return r;
        } finally {
            deleteRecursively(warehouse);
        }
    }

    private static void verify(String engine, WorkloadCheck actual, WorkloadCheck expected) {
        if (!actual.equals(expected)) {
            System.err.println(engine + " table after ingest: " + actual + ", expected " + expected);
            System.exit(1);
        }
    }

    static double median(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> m = new HashMap<>();
        for (String a : args) {
            int eq = a.indexOf('=');
            if (!a.startsWith("--") || eq < 0 || !OPTIONS.contains(a.substring(2, eq))) {
                throw new IllegalArgumentException("unknown argument " + a + " (known: --NAME=VALUE with NAME in " + OPTIONS + ")");
            }
            m.put(a.substring(2, eq), a.substring(eq + 1));
        }
        return m;
    }

    static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        }
    }
}
