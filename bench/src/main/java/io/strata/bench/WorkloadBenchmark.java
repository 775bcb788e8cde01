package io.strata.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Scenarios 1 to 5 of WORKLOAD.md on Strata and on Apache Paimon 1.3.1, in one process, on the
 * identical generated rows: 1 (write-only ingest), 2 (full compaction of every bucket and its
 * commit, one compaction thread), 3 (ingest with changelog-producer lookup, compacting as the
 * triggers ask, end to end: {@code s3} waits for compactions only at the stop trigger and at the
 * last commit, the end of the input, so the changelog is complete when the clock stops;
 * {@code s3w} waits at every commit for the lookup compaction of its level-0 files, Paimon's
 * Flink {@code lookup-wait}; both engines are driven the same way in each), 4 (write-only ingest with changelog-producer full-compaction, then
 * the full compaction that writes the changelog) and 5 (the copy limit: Strata's reader and
 * writer copying the scenario-2 input files without merging); and, only when asked for, 6
 * ({@link RepeatedFullChangelog}: a full compaction with changelog after every commit, its
 * changelog row counts checked against the changes; a Strata count that differs aborts the run
 * like a wrong table). Warm-up runs first, then measured runs alternating
 * the engines, each on a fresh table and verified against the workload model after ingest and
 * after compaction (a wrong result aborts with exit code 1). Prints one line per run and, last,
 * one JSON line with the medians of both and the ratios.
 *
 * <p>Arguments, all optional: {@code --dir=PATH} (scratch; default the JVM temp directory),
 * {@code --warmups=2 --runs=5}, {@code --scenarios=1,2,3,4,5} (default; 6 also known), and the workload {@code --commits=10 --rows=200000
 * --keys=1000000 --delete-fraction=0.05 --seed=42}.
 */
public final class WorkloadBenchmark {
    private static final Set<String> OPTIONS =
            Set.of("dir", "warmups", "runs", "commits", "rows", "keys", "delete-fraction", "seed", "scenarios");

    private WorkloadBenchmark() {}

    /** One engine's figures of one run; scenarios not selected are null. */
    private record Run(
            IngestResult ingest,
            CompactionResult compaction,
            CompactionResult copy,
            Lookup lookup,
            Lookup lookupWait,
            CompactionResult fullChangelog,
            long fullChangelogRows,
            RepeatedFullChangelog.Result repeated) {}

    /** Scenario 3 in one mode: end-to-end ingest and the changelog rows it committed. */
    private record Lookup(IngestResult ingest, long changelogRows) {}

    /** Which scenarios run: {@code --scenarios=1,2,3,4,5,6} (2 and 5 need 1; 3 measures both lookup modes). */
    private record Scenarios(boolean writeOnly, boolean lookup, boolean fullChangelog, boolean repeatedFull) {
        static Scenarios parse(String s) {
            Set<String> set = new HashSet<>();
            for (String x : s.split(",")) {
                set.add(x.trim());
            }
            for (String x : set) {
                if (!Set.of("1", "2", "3", "4", "5", "6").contains(x)) {
                    throw new IllegalArgumentException(
                            "--scenarios: unknown scenario '" + x + "' (known: 1,2,3,4,5,6)");
                }
            }
            return new Scenarios(
                    set.contains("1") || set.contains("2") || set.contains("5"),
                    set.contains("3"),
                    set.contains("4"),
                    set.contains("6"));
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = parse(args, OPTIONS);
        Path dir = Path.of(opts.getOrDefault("dir", System.getProperty("java.io.tmpdir")));
        int warmups = Integer.parseInt(opts.getOrDefault("warmups", "2"));
        int runs = Integer.parseInt(opts.getOrDefault("runs", "5"));
        StandardWorkload workload = workload(opts);
        System.out.printf(
                "%s; java %s, %d cpus, max heap %d MiB%n",
                workload,
                System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20);
        WorkloadCheck expected = ExpectedTable.of(workload.restart());
        Scenarios sc = Scenarios.parse(opts.getOrDefault("scenarios", "1,2,3,4,5"));

        // 0 strata ingest, 1 paimon ingest, 2 strata compact, 3 paimon compact, 4 copy rows/s,
        // 5 strata compact s / copy s, 6 strata lookup s, 7 paimon lookup s, 8 strata full-changelog s, 9 paimon,
        // 10 strata lookup (wait every commit) s, 11 paimon, 12 strata repeated full compactions s, 13 paimon
        double[][] m = new double[14][runs];
        Run lastStrata = null;
        Run lastPaimon = null;
        for (int i = -warmups; i < runs; i++) {
            String label = i < 0 ? "warm-up " + (i + warmups + 1) : "run " + (i + 1);
            Run s = runStrata(dir, workload.restart(), expected, sc);
            Run p = runPaimon(dir, workload.restart(), expected, sc);
            if (sc.writeOnly()) {
                System.out.printf(
                        Locale.ROOT,
                        "%s: ingest strata %.3f | paimon %.3f M rows/s; full compaction strata %.3f "
                                + "(%.2f s, out %s) | paimon %.3f M input rows/s (%.2f s, out %s); copy limit %.3f M rows/s "
                                + "(%.2f s) | load %.2f%n",
                        label,
                        s.ingest.rowsPerSecond() / 1e6,
                        p.ingest.rowsPerSecond() / 1e6,
                        s.compaction.inputRowsPerSecond() / 1e6,
                        s.compaction.nanos() / 1e9,
                        s.compaction.output(),
                        p.compaction.inputRowsPerSecond() / 1e6,
                        p.compaction.nanos() / 1e9,
                        p.compaction.output(),
                        s.copy.inputRowsPerSecond() / 1e6,
                        s.copy.nanos() / 1e9,
                        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            }
            if (sc.lookup()) {
                System.out.printf(
                        Locale.ROOT,
                        "%s: lookup changelog ingest strata %.2f s (%d changelog rows) | paimon "
                                + "%.2f s (%d); with lookup-wait strata %.2f s (%d) | paimon %.2f s (%d) | load %.2f%n",
                        label,
                        s.lookup.ingest().nanos() / 1e9,
                        s.lookup.changelogRows(),
                        p.lookup.ingest().nanos() / 1e9,
                        p.lookup.changelogRows(),
                        s.lookupWait.ingest().nanos() / 1e9,
                        s.lookupWait.changelogRows(),
                        p.lookupWait.ingest().nanos() / 1e9,
                        p.lookupWait.changelogRows(),
                        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            }
            if (sc.fullChangelog()) {
                System.out.printf(
                        Locale.ROOT,
                        "%s: full-compaction changelog strata %.2f s (%d) | paimon %.2f s (%d)%n",
                        label,
                        s.fullChangelog.nanos() / 1e9,
                        s.fullChangelogRows,
                        p.fullChangelog.nanos() / 1e9,
                        p.fullChangelogRows);
            }
            if (sc.repeatedFull()) {
                System.out.printf(
                        Locale.ROOT,
                        "%s: repeated full-compaction changelog, %d compactions: strata %.2f s "
                                + "(%d changelog rows, %d mismatched) | paimon %.2f s (%d, %d mismatched); the "
                                + "changes call for %d%n",
                        label,
                        s.repeated.rows().length,
                        s.repeated.nanos() / 1e9,
                        s.repeated.totalRows(),
                        s.repeated.mismatches(),
                        p.repeated.nanos() / 1e9,
                        p.repeated.totalRows(),
                        p.repeated.mismatches(),
                        s.repeated.totalExpected());
                if (s.repeated.mismatches() > 0) {
                    System.err.println("Strata repeated full-compaction changelog: rows per compaction "
                            + Arrays.toString(s.repeated.rows()) + ", expected "
                            + Arrays.toString(s.repeated.expected()));
                    System.exit(1);
                }
            }
            if (i >= 0) {
                if (sc.repeatedFull()) {
                    m[12][i] = s.repeated.nanos() / 1e9;
                    m[13][i] = p.repeated.nanos() / 1e9;
                }
                if (sc.writeOnly()) {
                    m[0][i] = s.ingest.rowsPerSecond();
                    m[1][i] = p.ingest.rowsPerSecond();
                    m[2][i] = s.compaction.inputRowsPerSecond();
                    m[3][i] = p.compaction.inputRowsPerSecond();
                    m[4][i] = s.copy.inputRowsPerSecond();
                    m[5][i] = (double) s.compaction.nanos() / s.copy.nanos();
                }
                if (sc.lookup()) {
                    m[6][i] = s.lookup.ingest().nanos() / 1e9;
                    m[7][i] = p.lookup.ingest().nanos() / 1e9;
                    m[10][i] = s.lookupWait.ingest().nanos() / 1e9;
                    m[11][i] = p.lookupWait.ingest().nanos() / 1e9;
                }
                if (sc.fullChangelog()) {
                    m[8][i] = s.fullChangelog.nanos() / 1e9;
                    m[9][i] = p.fullChangelog.nanos() / 1e9;
                }
                lastStrata = s;
                lastPaimon = p;
            }
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("workload", workload.toString());
        json.put("runs", runs);
        if (sc.writeOnly()) {
            json.put("s1_ingest_rows_per_s_strata", Math.round(median(m[0])));
            json.put("s1_ingest_rows_per_s_paimon", Math.round(median(m[1])));
            json.put("s1_ratio", round3(median(m[0]) / median(m[1])));
            json.put("s2_full_compaction_input_rows_per_s_strata", Math.round(median(m[2])));
            json.put("s2_full_compaction_input_rows_per_s_paimon", Math.round(median(m[3])));
            json.put("s2_ratio", round3(median(m[2]) / median(m[3])));
            json.put("s2_input_rows_strata", lastStrata.compaction.input().rows());
            json.put("s2_input_rows_paimon", lastPaimon.compaction.input().rows());
            json.put("s2_output_files_strata", lastStrata.compaction.output().files());
            json.put("s2_output_bytes_strata", lastStrata.compaction.output().bytes());
            json.put("s2_output_files_paimon", lastPaimon.compaction.output().files());
            json.put("s2_output_bytes_paimon", lastPaimon.compaction.output().bytes());
            json.put("s5_copy_limit_rows_per_s", Math.round(median(m[4])));
            json.put("s2_strata_time_over_copy_limit", round3(median(m[5])));
        }
        if (sc.lookup()) {
            json.put("s3_lookup_changelog_seconds_strata", round3(median(m[6])));
            json.put("s3_lookup_changelog_seconds_paimon", round3(median(m[7])));
            json.put("s3_speedup_strata_over_paimon", round3(median(m[7]) / median(m[6])));
            json.put("s3_changelog_rows_strata", lastStrata.lookup.changelogRows());
            json.put("s3_changelog_rows_paimon", lastPaimon.lookup.changelogRows());
            json.put("s3w_lookup_wait_seconds_strata", round3(median(m[10])));
            json.put("s3w_lookup_wait_seconds_paimon", round3(median(m[11])));
            json.put("s3w_speedup_strata_over_paimon", round3(median(m[11]) / median(m[10])));
            json.put("s3w_changelog_rows_strata", lastStrata.lookupWait.changelogRows());
            json.put("s3w_changelog_rows_paimon", lastPaimon.lookupWait.changelogRows());
        }
        if (sc.fullChangelog()) {
            json.put("s4_full_compaction_changelog_seconds_strata", round3(median(m[8])));
            json.put("s4_full_compaction_changelog_seconds_paimon", round3(median(m[9])));
            json.put("s4_speedup_strata_over_paimon", round3(median(m[9]) / median(m[8])));
            json.put("s4_changelog_rows_strata", lastStrata.fullChangelogRows);
            json.put("s4_changelog_rows_paimon", lastPaimon.fullChangelogRows);
        }
        if (sc.repeatedFull()) {
            json.put("s6_repeated_full_changelog_seconds_strata", round3(median(m[12])));
            json.put("s6_repeated_full_changelog_seconds_paimon", round3(median(m[13])));
            json.put("s6_speedup_strata_over_paimon", round3(median(m[13]) / median(m[12])));
            json.put("s6_compactions", lastStrata.repeated.rows().length);
            json.put("s6_changelog_rows_expected", lastStrata.repeated.totalExpected());
            json.put("s6_changelog_rows_strata", lastStrata.repeated.totalRows());
            json.put("s6_changelog_rows_paimon", lastPaimon.repeated.totalRows());
            json.put("s6_mismatched_compactions_paimon", lastPaimon.repeated.mismatches());
        }
        System.out.println(new ObjectMapper().writeValueAsString(json));
    }

    private static double round3(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    private static Map<String, String> lookupOptions(boolean waitEveryCommit) {
        return Map.of(
                "changelog-producer", "lookup", "changelog-producer.lookup-wait", String.valueOf(waitEveryCommit));
    }

    private static Run runStrata(Path dir, StandardWorkload workload, WorkloadCheck expected, Scenarios sc)
            throws IOException {
        Path warehouse = Files.createTempDirectory(Files.createDirectories(dir), "strata-bench-");
        try {
            IngestResult ingest = null;
            CompactionResult copy = null;
            CompactionResult compaction = null;
            if (sc.writeOnly()) {
                StrataPeer peer = StrataPeer.createTable(warehouse, "workload");
                ingest = peer.ingest(workload);
                verify("Strata after ingest", peer.check(), expected);
                Path scratch = Files.createDirectories(warehouse.resolve("copy"));
                copy = peer.copyLimit(scratch);
                compaction = peer.fullCompaction();
                verify("Strata after full compaction", peer.check(), expected);
            }
            Lookup lookup = null;
            Lookup lookupWait = null;
            if (sc.lookup()) {
                lookup = strataLookup(warehouse, "lookup", workload, expected, false);
                lookupWait = strataLookup(warehouse, "lookup_wait", workload, expected, true);
            }
            CompactionResult fullCompaction = null;
            long fullRows = 0;
            if (sc.fullChangelog()) {
                StrataPeer full =
                        StrataPeer.createTable(warehouse, "full", Map.of("changelog-producer", "full-compaction"));
                full.ingest(workload.restart(), true);
                fullCompaction = full.fullCompaction();
                verify("Strata full-compaction-changelog table", full.check(), expected);
                fullRows = full.changelogRows();
            }
            RepeatedFullChangelog.Result repeated =
                    sc.repeatedFull() ? RepeatedFullChangelog.strata(warehouse, workload.restart(), expected) : null;
            return new Run(ingest, compaction, copy, lookup, lookupWait, fullCompaction, fullRows, repeated);
        } finally {
            deleteRecursively(warehouse);
        }
    }

    private static Lookup strataLookup(
            Path warehouse, String name, StandardWorkload workload, WorkloadCheck expected, boolean waitEveryCommit) {
        StrataPeer lookup = StrataPeer.createTable(warehouse, name, lookupOptions(waitEveryCommit));
        IngestResult ingest = lookup.ingest(workload.restart(), false);
        verify("Strata lookup-changelog table (lookup-wait " + waitEveryCommit + ")", lookup.check(), expected);
        return new Lookup(ingest, lookup.changelogRows());
    }

    private static Run runPaimon(Path dir, StandardWorkload workload, WorkloadCheck expected, Scenarios sc)
            throws Exception {
        Path warehouse = Files.createTempDirectory(Files.createDirectories(dir), "paimon-bench-");
        try {
            IngestResult ingest = null;
            CompactionResult compaction = null;
            if (sc.writeOnly()) {
                try (PaimonPeer peer = PaimonPeer.createTable(warehouse, "workload")) {
                    ingest = peer.ingest(workload);
                    verify("Paimon after ingest", peer.check(), expected);
                    compaction = peer.fullCompaction();
                    verify("Paimon after full compaction", peer.check(), expected);
                }
            }
            Lookup lookup = null;
            Lookup lookupWait = null;
            if (sc.lookup()) {
                lookup = paimonLookup(warehouse, "lookup", workload, expected, false);
                lookupWait = paimonLookup(warehouse, "lookup_wait", workload, expected, true);
            }
            CompactionResult fullCompaction = null;
            long fullRows = 0;
            if (sc.fullChangelog()) {
                try (PaimonPeer full =
                        PaimonPeer.createTable(warehouse, "full", Map.of("changelog-producer", "full-compaction"))) {
                    full.ingest(workload.restart(), true);
                    fullCompaction = full.fullCompaction();
                    verify("Paimon full-compaction-changelog table", full.check(), expected);
                    fullRows = full.changelogRows();
                }
            }
            RepeatedFullChangelog.Result repeated =
                    sc.repeatedFull() ? RepeatedFullChangelog.paimon(warehouse, workload.restart(), expected) : null;
            return new Run(ingest, compaction, null, lookup, lookupWait, fullCompaction, fullRows, repeated);
        } finally {
            deleteRecursively(warehouse);
        }
    }

    private static Lookup paimonLookup(
            Path warehouse, String name, StandardWorkload workload, WorkloadCheck expected, boolean waitEveryCommit)
            throws Exception {
        try (PaimonPeer lookup = PaimonPeer.createTable(warehouse, name, lookupOptions(waitEveryCommit))) {
            IngestResult ingest = lookup.ingest(workload.restart(), false, waitEveryCommit);
            verify(
                    "Paimon lookup-changelog table (wait every commit " + waitEveryCommit + ")",
                    lookup.check(),
                    expected);
            return new Lookup(ingest, lookup.changelogRows());
        }
    }

    static void verify(String what, WorkloadCheck actual, WorkloadCheck expected) {
        if (!actual.equals(expected)) {
            System.err.println(what + ": " + actual + ", expected " + expected);
            System.exit(1);
        }
    }

    static double median(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    /**
     * The workload the arguments give ({@code --commits --rows --keys --delete-fraction --seed}),
     * each defaulting to WORKLOAD.md's first workload.
     */
    static StandardWorkload workload(Map<String, String> opts) {
        return new StandardWorkload(
                Integer.parseInt(opts.getOrDefault("commits", "10")),
                Integer.parseInt(opts.getOrDefault("rows", "200000")),
                Long.parseLong(opts.getOrDefault("keys", "1000000")),
                Double.parseDouble(opts.getOrDefault("delete-fraction", "0.05")),
                Long.parseLong(opts.getOrDefault("seed", "42")));
    }

    /** {@code --NAME=VALUE} arguments by name; a name not in {@code known} is an error that lists them. */
    static Map<String, String> parse(String[] args, Set<String> known) {
        Map<String, String> m = new HashMap<>();
        for (String a : args) {
            int eq = a.indexOf('=');
            if (!a.startsWith("--") || eq < 0 || !known.contains(a.substring(2, eq))) {
                throw new IllegalArgumentException(
                        "unknown argument " + a + " (known: --NAME=VALUE with NAME in " + known + ")");
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
