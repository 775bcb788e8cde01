package io.strata.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.strata.cli.workload.ExpectedTable;
import io.strata.cli.workload.StandardWorkload;
import io.strata.cli.workload.WorkloadCheck;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Issue 15's maintenance benchmarks on Strata and on Apache Paimon 1.3.1, in one process, on
 * tables built from the identical generated rows (WORKLOAD.md):
 *
 * <ul>
 *   <li><b>expire</b>: a table of {@code --snapshots} snapshots (write-only commits of the
 *       workload, and a full compaction of every bucket, its own snapshot, after every
 *       {@code --compact-every}-th commit), of which all but the latest {@code --retain} are
 *       expired in one run: Strata's {@code SnapshotExpiration.expire()} against Paimon's
 *       {@code ExpireSnapshots.expire()} with the same count bounds.
 *   <li><b>memory</b>: the same expiration of tables of {@code --memory-snapshots} snapshots
 *       (default 250, 500, 1000), one run per engine and size, with the live heap sampled: a full
 *       GC every {@code 20 ms} while it runs, the heap's size after it recorded; the figure is the
 *       highest, less the size before the run. Not timed (the GCs slow the runs down).
 *   <li><b>orphan</b>: a table of {@code --orphan-commits} write-only commits without compaction
 *       (every snapshot retained), with {@code --orphans} orphan files added to its bucket
 *       directories (copies of its data files under new data-file names) and every file of the
 *       table aged two days; orphan cleanup of files older than one day: Strata's
 *       {@code OrphanFilesClean.clean()} against Paimon's {@code LocalOrphanFilesClean.clean()}.
 * </ul>
 *
 * <p>Building a table is setup, done once per engine into a template warehouse; every run works on
 * a fresh copy ({@code cp -a}, keeping modification times), timed from the maintenance call to its
 * return. Warm-up runs first, then measured runs alternating the engines. Every run counts the
 * table's files before and after, and reads the table afterwards: a table that no longer matches
 * the workload model aborts with exit code 1, as does a run that leaves another snapshot count than
 * asked. Prints one line per run and, last, one JSON line with the medians and the ratios.
 *
 * <p>Arguments, all optional: {@code --dir=PATH} (scratch; default the JVM temp directory),
 * {@code --warmups=1 --runs=5}, {@code --scenarios=expire,orphan,memory}, {@code --snapshots=1000
 * --retain=10 --compact-every=3 --rows=500 --keys=20000}, {@code --memory-snapshots=250,500,1000},
 * {@code --orphan-commits=5500 --orphan-rows=200 --orphan-keys=20000 --orphans=5000},
 * {@code --delete-fraction=0.05 --seed=42}.
 */
public final class MaintenanceBenchmark {
    private static final Set<String> OPTIONS = Set.of(
            "dir",
            "warmups",
            "runs",
            "scenarios",
            "snapshots",
            "retain",
            "compact-every",
            "rows",
            "keys",
            "memory-expire",
            "orphan-commits",
            "orphan-rows",
            "orphan-keys",
            "orphans",
            "orphan-base",
            "delete-fraction",
            "seed",
            "templates");
    private static final String TABLE = "workload";
    private static final Duration ORPHAN_AGE = Duration.ofDays(2);
    private static final Duration ORPHAN_THRESHOLD = Duration.ofDays(1);

    private MaintenanceBenchmark() {}

    /** One maintenance call: its time, what it reported, and the table's files before and after. */
    record Timed(long nanos, long reported, int filesBefore, int filesAfter) {
        int removed() {
            return filesBefore - filesAfter;
        }
    }

    private record Params(
            int warmups,
            int runs,
            int retain,
            int compactEvery,
            int rows,
            long keys,
            double deleteFraction,
            long seed,
            Path templates) {}

    public static void main(String[] args) throws Exception {
        Map<String, String> o = parse(args);
        Path dir = Path.of(o.getOrDefault("dir", System.getProperty("java.io.tmpdir")));
        Params p = new Params(
                Integer.parseInt(o.getOrDefault("warmups", "1")),
                Integer.parseInt(o.getOrDefault("runs", "5")),
                Integer.parseInt(o.getOrDefault("retain", "10")),
                Integer.parseInt(o.getOrDefault("compact-every", "3")),
                Integer.parseInt(o.getOrDefault("rows", "500")),
                Long.parseLong(o.getOrDefault("keys", "20000")),
                Double.parseDouble(o.getOrDefault("delete-fraction", "0.05")),
                Long.parseLong(o.getOrDefault("seed", "42")),
                o.containsKey("templates") ? Files.createDirectories(Path.of(o.get("templates"))) : null);
        Set<String> scenarios =
                Set.of(o.getOrDefault("scenarios", "expire,orphan,memory").split(","));
        for (String s : scenarios) {
            if (!Set.of("expire", "orphan", "memory").contains(s)) {
                throw new IllegalArgumentException(
                        "--scenarios: unknown scenario '" + s + "' (known: expire,orphan,memory)");
            }
        }
        int snapshots = Integer.parseInt(o.getOrDefault("snapshots", "1000"));
        System.out.printf(
                "java %s, %d cpus, max heap %d MiB, load %.2f%n",
                System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        Map<String, Object> json = new LinkedHashMap<>();
        Path root = Files.createTempDirectory(Files.createDirectories(dir), "strata-maintenance-bench-");
        try {
            Templates expireTables = scenarios.contains("expire")
                            || scenarios.contains("memory")
                            || o.getOrDefault("orphan-base", "ingest").equals("expire")
                    ? buildExpireTables(root, p, snapshots)
                    : null;
            if (scenarios.contains("expire")) {
                expireScenario(root, p, expireTables, snapshots, json);
            }
            if (scenarios.contains("memory") && p.runs() > 0) {
                List<Integer> counts = new ArrayList<>();
                for (String s : o.getOrDefault("memory-expire", "250,500,990").split(",")) {
                    counts.add(Integer.parseInt(s.trim()));
                }
                memoryScenario(root, expireTables, snapshots, counts, json);
            }
            if (scenarios.contains("orphan")) {
                int orphans = Integer.parseInt(o.getOrDefault("orphans", "5000"));
                String base = o.getOrDefault("orphan-base", "ingest");
                if (base.equals("expire")) {
                    Templates t = expireTables != null ? expireTables : buildExpireTables(root, p, snapshots);
                    orphanScenario(root, p, null, t, orphans, json);
                } else if (base.equals("ingest")) {
                    StandardWorkload w = new StandardWorkload(
                            Integer.parseInt(o.getOrDefault("orphan-commits", "5500")),
                            Integer.parseInt(o.getOrDefault("orphan-rows", "200")),
                            Long.parseLong(o.getOrDefault("orphan-keys", "20000")),
                            p.deleteFraction(),
                            p.seed());
                    orphanScenario(root, p, w, null, orphans, json);
                } else {
                    throw new IllegalArgumentException("--orphan-base: 'expire' or 'ingest', got '" + base + "'");
                }
            }
        } finally {
            WorkloadBenchmark.deleteRecursively(root);
        }
        System.out.println(new ObjectMapper().writeValueAsString(json));
    }

    // ---- expiration ---------------------------------------------------------------------------

    /** The template warehouses of one table size, and the workload model they must read as. */
    private record Templates(Path strata, Path paimon, StandardWorkload workload, WorkloadCheck expected) {}

    /** Workload commits that, with a compaction after every {@code compactEvery}-th, make {@code snapshots}. */
    static int ingestCommitsFor(int snapshots, int compactEvery) {
        int made = 0;
        int commits = 0;
        while (made < snapshots) {
            made++;
            commits++;
            if (commits % compactEvery == 0 && made < snapshots) {
                made++;
            }
        }
        return commits;
    }

    private static Templates buildExpireTables(Path root, Params p, int snapshots) {
        try {
            StandardWorkload w = new StandardWorkload(
                    ingestCommitsFor(snapshots, p.compactEvery()), p.rows(), p.keys(), p.deleteFraction(), p.seed());
            WorkloadCheck expected = ExpectedTable.of(w.restart());
            String name = "expire-" + snapshots + "-every" + p.compactEvery() + "-" + workloadName(w);
            Path s = template(root, p, name + "-strata", dir -> {
                StrataPeer strata = StrataPeer.createTable(dir, TABLE);
                strata.ingestWithCompactions(w.restart(), p.compactEvery(), snapshots);
                WorkloadBenchmark.verify("Strata expiration table", strata.check(), expected);
                requireSnapshots("Strata expiration table", strata.snapshotCount(), snapshots);
            });
            Path pa = template(root, p, name + "-paimon", dir -> {
                try (PaimonPeer paimon = PaimonPeer.createTable(dir, TABLE)) {
                    paimon.ingestWithCompactions(w.restart(), p.compactEvery(), snapshots);
                    WorkloadBenchmark.verify("Paimon expiration table", paimon.check(), expected);
                    requireSnapshots("Paimon expiration table", paimon.snapshotCount(), snapshots);
                }
            });
            System.out.printf(
                    Locale.ROOT,
                    "expiration table: %s, a full compaction after every %d commits, %d snapshots; files strata %d | "
                            + "paimon %d%n",
                    w,
                    p.compactEvery(),
                    snapshots,
                    countFiles(s),
                    countFiles(pa));
            return new Templates(s, pa, w, expected);
        } catch (Exception e) {
            throw new IllegalStateException("cannot build the expiration tables of " + snapshots + " snapshots", e);
        }
    }

    /** Builds a template warehouse into an empty directory. */
    private interface Build {
        void into(Path warehouse) throws Exception;
    }

    /**
     * The template warehouse {@code name}: with {@code --templates=DIR}, one a complete earlier
     * build left there (marked by {@code DIR/<name>.complete}, written last) is reused; otherwise
     * {@code build} makes it, under DIR or the scratch directory.
     */
    private static Path template(Path root, Params p, String name, Build build) throws Exception {
        Path base = p.templates() != null ? p.templates() : root;
        Path dir = base.resolve(name);
        Path done = base.resolve(name + ".complete");
        if (Files.exists(done)) {
            System.out.println("reusing the template " + dir);
            return dir;
        }
        if (Files.exists(dir)) {
            WorkloadBenchmark.deleteRecursively(dir);
        }
        Files.createDirectories(dir);
        long t0 = System.nanoTime();
        build.into(dir);
        System.out.printf(
                Locale.ROOT,
                "built the template %s in %.1f s (setup, not timed)%n",
                dir,
                (System.nanoTime() - t0) / 1e9);
        Files.createFile(done);
        return dir;
    }

    private static String workloadName(StandardWorkload w) {
        return "C" + w.commits() + "-R" + w.rowsPerCommit() + "-K" + w.keySpace() + "-f" + w.deleteFraction() + "-s"
                + w.seed();
    }

    private static void expireScenario(Path root, Params p, Templates t, int snapshots, Map<String, Object> json)
            throws Exception {
        if (p.runs() == 0) {
            return;
        }
        double[] strata = new double[p.runs()];
        double[] paimon = new double[p.runs()];
        Timed lastStrata = null;
        Timed lastPaimon = null;
        for (int i = -p.warmups(); i < p.runs(); i++) {
            String label = i < 0 ? "warm-up " + (i + p.warmups() + 1) : "run " + (i + 1);
            Timed s = strataExpire(root, p.retain(), t, snapshots, null);
            Timed pa = paimonExpire(root, p.retain(), t, snapshots, null);
            System.out.printf(
                    Locale.ROOT,
                    "%s: expire %d of %d snapshots: strata %.3f s (%d files removed, %d reported) | paimon %.3f s "
                            + "(%d files removed, %d snapshots reported) | load %.2f%n",
                    label,
                    snapshots - p.retain(),
                    snapshots,
                    s.nanos() / 1e9,
                    s.removed(),
                    s.reported(),
                    pa.nanos() / 1e9,
                    pa.removed(),
                    pa.reported(),
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            if (i >= 0) {
                strata[i] = s.nanos() / 1e9;
                paimon[i] = pa.nanos() / 1e9;
                lastStrata = s;
                lastPaimon = pa;
            }
        }
        json.put(
                "expire_workload",
                t.workload().toString() + ", full compaction every " + p.compactEvery() + " commits, " + snapshots
                        + " snapshots, " + p.retain() + " retained");
        json.put("expire_runs", p.runs());
        json.put("expire_seconds_strata", round3(WorkloadBenchmark.median(strata)));
        json.put("expire_seconds_paimon", round3(WorkloadBenchmark.median(paimon)));
        json.put(
                "expire_speedup_strata_over_paimon",
                round3(WorkloadBenchmark.median(paimon) / WorkloadBenchmark.median(strata)));
        json.put("expire_files_before_strata", lastStrata.filesBefore());
        json.put("expire_files_removed_strata", lastStrata.removed());
        json.put("expire_files_before_paimon", lastPaimon.filesBefore());
        json.put("expire_files_removed_paimon", lastPaimon.removed());
    }

    private static Timed strataExpire(Path root, int retain, Templates t, int snapshots, LiveHeap heap)
            throws Exception {
        Path run = copy(t.strata(), root.resolve("run-strata"));
        try {
            StrataPeer peer = StrataPeer.open(run, TABLE);
            int before = countFiles(peer.directory());
            System.gc();
            if (heap != null) {
                heap.start();
            }
            long t0 = System.nanoTime();
            int deleted = peer.expire(retain, snapshots);
            long nanos = System.nanoTime() - t0;
            if (heap != null) {
                heap.stop();
            }
            int after = countFiles(peer.directory());
            StrataPeer reopened = StrataPeer.open(run, TABLE);
            WorkloadBenchmark.verify("Strata after expiration", reopened.check(), t.expected());
            requireSnapshots("Strata after expiration", reopened.snapshotCount(), retain);
            return new Timed(nanos, deleted, before, after);
        } finally {
            WorkloadBenchmark.deleteRecursively(run);
        }
    }

    private static Timed paimonExpire(Path root, int retain, Templates t, int snapshots, LiveHeap heap)
            throws Exception {
        Path run = copy(t.paimon(), root.resolve("run-paimon"));
        try (PaimonPeer peer = PaimonPeer.open(run, TABLE)) {
            int before = countFiles(peer.directory());
            System.gc();
            if (heap != null) {
                heap.start();
            }
            long t0 = System.nanoTime();
            int expired = peer.expire(retain, snapshots);
            long nanos = System.nanoTime() - t0;
            if (heap != null) {
                heap.stop();
            }
            int after = countFiles(peer.directory());
            WorkloadBenchmark.verify("Paimon after expiration", peer.check(), t.expected());
            requireSnapshots("Paimon after expiration", peer.snapshotCount(), retain);
            return new Timed(nanos, expired, before, after);
        } finally {
            WorkloadBenchmark.deleteRecursively(run);
        }
    }

    // ---- memory -------------------------------------------------------------------------------

    /**
     * Expires {@code counts} snapshots (each a separate run on a fresh copy of the expiration table
     * of {@code snapshots}) with the live heap sampled: how memory grows with the snapshots one run
     * expires.
     */
    private static void memoryScenario(
            Path root, Templates t, int snapshots, List<Integer> counts, Map<String, Object> json) throws Exception {
        Map<String, Object> strata = new LinkedHashMap<>();
        Map<String, Object> paimon = new LinkedHashMap<>();
        for (int n : counts) {
            int retain = snapshots - n;
            // one unsampled run each first: the sampled run then measures the expiration, not class loading
            strataExpire(root, retain, t, snapshots, null);
            paimonExpire(root, retain, t, snapshots, null);
            LiveHeap sh = new LiveHeap();
            Timed s = strataExpire(root, retain, t, snapshots, sh);
            LiveHeap ph = new LiveHeap();
            Timed pa = paimonExpire(root, retain, t, snapshots, ph);
            System.out.printf(
                    Locale.ROOT,
                    "memory, expire %d of %d snapshots: live heap above the start, highest of %d | %d samples: strata "
                            + "%.1f MiB (%d files removed) | paimon %.1f MiB (%d files removed)%n",
                    n,
                    snapshots,
                    sh.samples(),
                    ph.samples(),
                    sh.peakAboveStart() / 1048576.0,
                    s.removed(),
                    ph.peakAboveStart() / 1048576.0,
                    pa.removed());
            strata.put(String.valueOf(n), round3(sh.peakAboveStart() / 1048576.0));
            paimon.put(String.valueOf(n), round3(ph.peakAboveStart() / 1048576.0));
        }
        json.put("memory_live_heap_mib_above_start_by_snapshots_expired_strata", strata);
        json.put("memory_live_heap_mib_above_start_by_snapshots_expired_paimon", paimon);
    }

    /**
     * Samples the live heap while a call runs: a daemon thread runs a full GC ({@link System#gc()},
     * not disabled here), reads the heap's size after it, waits 20 ms and starts over.
     */
    static final class LiveHeap {
        private volatile boolean running;
        private Thread thread;
        private long start;
        private long peak;
        private int samples;

        void start() {
            start = liveHeap();
            peak = start;
            running = true;
            thread = new Thread(
                    () -> {
                        while (running) {
                            long v = liveHeap();
                            synchronized (this) {
                                peak = Math.max(peak, v);
                                samples++;
                            }
                            try {
                                Thread.sleep(20);
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                    },
                    "live-heap-sampler");
            thread.setDaemon(true);
            thread.start();
        }

        void stop() throws InterruptedException {
            running = false;
            thread.interrupt();
            thread.join();
        }

        synchronized long peakAboveStart() {
            return peak - start;
        }

        synchronized int samples() {
            return samples;
        }

        private static long liveHeap() {
            System.gc();
            return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        }
    }

    // ---- orphan files -------------------------------------------------------------------------

    /**
     * With {@code w}, the orphan tables are built from it (write-only commits); with {@code base},
     * they are copies of the expiration tables (every snapshot retained). Then the orphans are added.
     */
    private static void orphanScenario(
            Path root, Params p, StandardWorkload w, Templates base, int orphans, Map<String, Object> json)
            throws Exception {
        WorkloadCheck expected = base != null ? base.expected() : ExpectedTable.of(w.restart());
        String name = base != null
                ? "orphan-on-" + base.strata().getFileName().toString().replaceFirst("-strata$", "") + "-n" + orphans
                : "orphan-" + workloadName(w) + "-n" + orphans;
        Path s = template(root, p, name + "-strata", dir -> {
            if (base != null) {
                WorkloadBenchmark.deleteRecursively(dir);
                copy(base.strata(), dir);
            } else {
                StrataPeer strata = StrataPeer.createTable(dir, TABLE);
                strata.ingest(w.restart());
                WorkloadBenchmark.verify("Strata orphan table", strata.check(), expected);
            }
            addOrphans(StrataPeer.open(dir, TABLE).directory(), orphans, p.seed());
        });
        Path pa = template(root, p, name + "-paimon", dir -> {
            if (base != null) {
                WorkloadBenchmark.deleteRecursively(dir);
                copy(base.paimon(), dir);
            } else {
                try (PaimonPeer paimon = PaimonPeer.createTable(dir, TABLE)) {
                    paimon.ingest(w.restart());
                    WorkloadBenchmark.verify("Paimon orphan table", paimon.check(), expected);
                }
            }
            try (PaimonPeer paimon = PaimonPeer.open(dir, TABLE)) {
                addOrphans(paimon.directory(), orphans, p.seed());
            }
        });
        String what = base != null
                ? "the expiration table (" + base.workload() + ", full compaction every " + p.compactEvery()
                        + " commits, every snapshot retained)"
                : w + " write-only, no compaction";
        System.out.printf(
                Locale.ROOT,
                "orphan table: %s, %d orphans added; files strata %d | paimon %d%n",
                what,
                orphans,
                countFiles(s),
                countFiles(pa));
        if (p.runs() == 0) {
            return;
        }
        double[] st = new double[p.runs()];
        double[] pt = new double[p.runs()];
        Timed lastStrata = null;
        Timed lastPaimon = null;
        for (int i = -p.warmups(); i < p.runs(); i++) {
            String label = i < 0 ? "warm-up " + (i + p.warmups() + 1) : "run " + (i + 1);
            Timed sr = strataOrphans(root, s, expected);
            Timed pr = paimonOrphans(root, pa, expected);
            System.out.printf(
                    Locale.ROOT,
                    "%s: orphan cleanup: strata %.3f s (%d of %d files removed, %d reported) | paimon %.3f s (%d of "
                            + "%d removed, %d reported) | load %.2f%n",
                    label,
                    sr.nanos() / 1e9,
                    sr.removed(),
                    sr.filesBefore(),
                    sr.reported(),
                    pr.nanos() / 1e9,
                    pr.removed(),
                    pr.filesBefore(),
                    pr.reported(),
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            if (i >= 0) {
                st[i] = sr.nanos() / 1e9;
                pt[i] = pr.nanos() / 1e9;
                lastStrata = sr;
                lastPaimon = pr;
            }
        }
        json.put("orphan_workload", what + ", " + orphans + " orphans");
        json.put("orphan_runs", p.runs());
        json.put("orphan_seconds_strata", round3(WorkloadBenchmark.median(st)));
        json.put("orphan_seconds_paimon", round3(WorkloadBenchmark.median(pt)));
        json.put(
                "orphan_speedup_strata_over_paimon",
                round3(WorkloadBenchmark.median(pt) / WorkloadBenchmark.median(st)));
        json.put("orphan_files_before_strata", lastStrata.filesBefore());
        json.put("orphan_files_removed_strata", lastStrata.removed());
        json.put("orphan_files_before_paimon", lastPaimon.filesBefore());
        json.put("orphan_files_removed_paimon", lastPaimon.removed());
    }

    private static Timed strataOrphans(Path root, Path template, WorkloadCheck expected) throws Exception {
        Path run = copy(template, root.resolve("run-strata"));
        try {
            StrataPeer peer = StrataPeer.open(run, TABLE);
            int before = countFiles(peer.directory());
            System.gc();
            long t0 = System.nanoTime();
            int deleted = peer.removeOrphans(ORPHAN_THRESHOLD);
            long nanos = System.nanoTime() - t0;
            int after = countFiles(peer.directory());
            WorkloadBenchmark.verify(
                    "Strata after orphan cleanup", StrataPeer.open(run, TABLE).check(), expected);
            return new Timed(nanos, deleted, before, after);
        } finally {
            WorkloadBenchmark.deleteRecursively(run);
        }
    }

    private static Timed paimonOrphans(Path root, Path template, WorkloadCheck expected) throws Exception {
        Path run = copy(template, root.resolve("run-paimon"));
        try (PaimonPeer peer = PaimonPeer.open(run, TABLE)) {
            int before = countFiles(peer.directory());
            System.gc();
            long t0 = System.nanoTime();
            long deleted = peer.removeOrphans(ORPHAN_THRESHOLD);
            long nanos = System.nanoTime() - t0;
            int after = countFiles(peer.directory());
            WorkloadBenchmark.verify("Paimon after orphan cleanup", peer.check(), expected);
            return new Timed(nanos, deleted, before, after);
        } finally {
            WorkloadBenchmark.deleteRecursively(run);
        }
    }

    /**
     * Adds {@code n} orphans to the bucket directories of {@code table}, round robin: copies of the
     * bucket's data files under new data-file names ({@code data-<uuid>-0.parquet}, the UUIDs drawn
     * from {@code seed}, so both engines' tables get the same names). Then ages every file of the
     * table by {@link #ORPHAN_AGE}, so that every file is a candidate for the cleanup's threshold.
     */
    static void addOrphans(Path table, int n, long seed) throws IOException {
        List<Path> buckets;
        try (Stream<Path> s = Files.list(table)) {
            buckets = s.filter(d ->
                            Files.isDirectory(d) && d.getFileName().toString().startsWith("bucket-"))
                    .sorted()
                    .collect(Collectors.toList());
        }
        if (buckets.isEmpty()) {
            throw new IllegalStateException("no bucket directory in " + table);
        }
        List<List<Path>> files = new ArrayList<>();
        for (Path b : buckets) {
            try (Stream<Path> s = Files.list(b)) {
                files.add(s.filter(f -> f.getFileName().toString().endsWith(".parquet"))
                        .sorted()
                        .collect(Collectors.toList()));
            }
        }
        Random random = new Random(seed);
        Set<String> names = new HashSet<>();
        for (int i = 0; i < n; i++) {
            int b = i % buckets.size();
            List<Path> in = files.get(b);
            String name = "data-" + new UUID(random.nextLong(), random.nextLong()) + "-0.parquet";
            if (!names.add(name)) {
                throw new IllegalStateException("orphan name drawn twice: " + name);
            }
            Files.copy(in.get((i / buckets.size()) % in.size()), buckets.get(b).resolve(name));
        }
        FileTime old = FileTime.fromMillis(System.currentTimeMillis() - ORPHAN_AGE.toMillis());
        try (Stream<Path> s = Files.walk(table)) {
            for (Path f : (Iterable<Path>) s.filter(Files::isRegularFile)::iterator) {
                Files.setLastModifiedTime(f, old);
            }
        }
    }

    // ---- helpers ------------------------------------------------------------------------------

    private static void requireSnapshots(String what, int actual, int expected) {
        if (actual != expected) {
            throw new IllegalStateException(what + ": " + actual + " snapshots, expected " + expected);
        }
    }

    /** Regular files under {@code dir}. */
    static int countFiles(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return (int) s.filter(Files::isRegularFile).count();
        }
    }

    /** {@code cp -a from to}: a copy that keeps modification times; {@code to} must not exist. */
    static Path copy(Path from, Path to) throws IOException, InterruptedException {
        if (Files.exists(to)) {
            throw new IllegalStateException(to + " exists");
        }
        Process cp = new ProcessBuilder("cp", "-a", from.toString(), to.toString())
                .inheritIO()
                .start();
        if (cp.waitFor() != 0) {
            throw new IOException("cp -a " + from + " " + to + " failed with exit code " + cp.exitValue());
        }
        return to;
    }

    private static double round3(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> m = new HashMap<>();
        for (String a : args) {
            int eq = a.indexOf('=');
            if (!a.startsWith("--") || eq < 0 || !OPTIONS.contains(a.substring(2, eq))) {
                throw new IllegalArgumentException(
                        "unknown argument " + a + " (known: --NAME=VALUE with NAME in " + OPTIONS + ")");
            }
            m.put(a.substring(2, eq), a.substring(eq + 1));
        }
        return m;
    }
}
