package io.strata.bench;

import io.strata.cli.workload.ExpectedTable;
import io.strata.cli.workload.StandardWorkload;
import io.strata.cli.workload.WorkloadCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Strata only, for profiling a full compaction (scenario 2, or 4 with
 * {@code --producer=full-compaction}) without re-ingesting: the write-only table is ingested
 * once into {@code DIR/template-PRODUCER}, then each iteration copies it and compacts the copy,
 * printing the seconds and input rows/s and verifying the result. Attach JFR to the JVM to profile.
 *
 * <p>{@code java -cp bench/target/strata-bench.jar io.strata.bench.CompactionProfile --dir=/tmp/prof
 * --iterations=5 [--producer=none|full-compaction] [--threads=1]}: {@code --threads=N} rewrites the
 * buckets on N plain threads (the cpu printed is then the calling thread's only).
 */
public final class CompactionProfile {
    private CompactionProfile() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = new HashMap<>();
        for (String a : args) {
            int eq = a.indexOf('=');
            o.put(a.substring(2, eq), a.substring(eq + 1));
        }
        Path dir = Path.of(o.getOrDefault("dir", "/tmp/strata-profile"));
        int iterations = Integer.parseInt(o.getOrDefault("iterations", "5"));
        String producer = o.getOrDefault("producer", "none");
        int threads = Integer.parseInt(o.getOrDefault("threads", "1"));
        StandardWorkload workload = new StandardWorkload(10, 200000, 1000000, 0.05, 42);
        WorkloadCheck expected = ExpectedTable.of(workload.restart());
        if (producer.equals("lookup")) {
            lookupIngest(dir, iterations, workload, expected);
            return;
        }
        Path template = dir.resolve("template-" + producer);
        if (!Files.exists(template.resolve("done"))) {
            if (Files.exists(template)) {
                WorkloadBenchmark.deleteRecursively(template);
            }
            Files.createDirectories(template);
            StrataPeer peer = StrataPeer.createTable(template, "t", producer.equals("none") ? Map.of() : Map.of("changelog-producer", producer));
            peer.ingest(workload.restart(), true);
            Files.createFile(template.resolve("done"));
        }
        for (int i = 0; i < iterations; i++) {
            Path copy = dir.resolve("iter-" + i);
            if (Files.exists(copy)) {
                WorkloadBenchmark.deleteRecursively(copy);
            }
            copyTree(template, copy);
            StrataPeer peer = StrataPeer.open(copy, "t");
            long cpu = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            CpuSplit split = CpuSplit.start();
            CompactionResult r = threads == 1 ? peer.fullCompaction() : peer.fullCompaction(threads);
            System.out.println("  " + split.since());
            cpu = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu;
            System.out.printf(Locale.ROOT, "iteration %d: %.3f s (cpu %.3f s), %.3f M input rows/s, out %s, changelog rows %d%n",
                    i, r.nanos() / 1e9, cpu / 1e9, r.inputRowsPerSecond() / 1e6, r.output(), peer.changelogRows());
            System.out.println("  " + io.strata.storage.format.BufferPool.shared());
            WorkloadCheck actual = peer.check();
            if (!actual.equals(expected)) {
                throw new IllegalStateException("wrong result " + actual + ", expected " + expected);
            }
            WorkloadBenchmark.deleteRecursively(copy);
        }
    }

    /** Scenario 3: ingest with the lookup changelog producer, compacting inline as the triggers ask. */
    private static void lookupIngest(Path dir, int iterations, StandardWorkload workload, WorkloadCheck expected)
            throws Exception {
        for (int i = 0; i < iterations; i++) {
            Path warehouse = dir.resolve("lookup-" + i);
            if (Files.exists(warehouse)) {
                WorkloadBenchmark.deleteRecursively(warehouse);
            }
            StrataPeer peer = StrataPeer.createTable(warehouse, "t", Map.of("changelog-producer", "lookup"));
            long cpu = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            IngestResult r = peer.ingest(workload.restart(), false);
            cpu = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu;
            System.out.printf(Locale.ROOT, "iteration %d: lookup ingest %.3f s (cpu of the writer thread %.3f s), "
                    + "changelog rows %d, files %s%n", i, r.nanos() / 1e9, cpu / 1e9, peer.changelogRows(), r.files());
            WorkloadCheck actual = peer.check();
            if (!actual.equals(expected)) {
                throw new IllegalStateException("wrong result " + actual + ", expected " + expected);
            }
            WorkloadBenchmark.deleteRecursively(warehouse);
        }
    }

    /**
     * Where the process's CPU went during one compaction: its total, and per thread name (numbers
     * dropped, so C2 compiler and GC worker threads add up; threads that ended meanwhile, such as a
     * thread pool's, are missing) from /proc on Linux. On two cores, whatever is not a rewrite
     * thread competes with the rewrites.
     */
    private static final class CpuSplit {
        private final long processNanos = processCpu();
        private final Map<String, Long> threadTicks = threadTicks();

        static CpuSplit start() {
            return new CpuSplit();
        }

        String since() {
            StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "process cpu %d ms; other threads (ms):",
                    (processCpu() - processNanos) / 1_000_000));
            for (Map.Entry<String, Long> e : threadTicks().entrySet()) {
                long d = e.getValue() - threadTicks.getOrDefault(e.getKey(), 0L);
                if (d > 0) {
                    b.append(' ').append(e.getKey()).append('=').append(d * 10); // clock ticks of 10 ms
                }
            }
            return b.toString();
        }

        private static long processCpu() {
            return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                    .getOperatingSystemMXBean()).getProcessCpuTime();
        }

        private static Map<String, Long> threadTicks() {
            Map<String, Long> m = new java.util.TreeMap<>();
            Path tasks = Path.of("/proc/self/task");
            if (!Files.isDirectory(tasks)) {
                return m;
            }
            try (Stream<Path> ts = Files.list(tasks)) {
                for (Path t : (Iterable<Path>) ts::iterator) {
                    String st;
                    try {
                        st = Files.readString(t.resolve("stat"));
                    } catch (java.io.IOException ended) {
                        continue;
                    }
                    String name = st.substring(st.indexOf('(') + 1, st.lastIndexOf(')')).replaceAll("[0-9]+$", "")
                            .replace(' ', '_');
                    String[] f = st.substring(st.lastIndexOf(')') + 2).split(" ");
                    m.merge(name, Long.parseLong(f[11]) + Long.parseLong(f[12]), Long::sum); // utime + stime
                }
            } catch (java.io.IOException e) {
                return m;
            }
            return m;
        }
    }

    private static void copyTree(Path from, Path to) throws Exception {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path p : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }
}
