package io.strata.bench;

import io.strata.cli.workload.ExpectedTable;
import io.strata.cli.workload.StandardWorkload;
import io.strata.cli.workload.WorkloadCheck;
import io.strata.storage.format.BufferPool;
import java.lang.management.ManagementFactory;
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
    private CompactionProfile() {}

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
            StrataPeer peer = StrataPeer.createTable(
                    template, "t", producer.equals("none") ? Map.of() : Map.of("changelog-producer", producer));
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
            long cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            ThreadCpu split = ThreadCpu.start();
            CompactionResult r = threads == 1 ? peer.fullCompaction() : peer.fullCompaction(threads);
            System.out.println("  " + split.since());
            cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu;
            System.out.printf(
                    Locale.ROOT,
                    "iteration %d: %.3f s (cpu %.3f s), %.3f M input rows/s, out %s, changelog rows %d%n",
                    i,
                    r.nanos() / 1e9,
                    cpu / 1e9,
                    r.inputRowsPerSecond() / 1e6,
                    r.output(),
                    peer.changelogRows());
            System.out.println("  " + BufferPool.shared());
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
            long cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            IngestResult r = peer.ingest(workload.restart(), false);
            cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu;
            System.out.printf(
                    Locale.ROOT,
                    "iteration %d: lookup ingest %.3f s (cpu of the writer thread %.3f s), "
                            + "changelog rows %d, files %s%n",
                    i,
                    r.nanos() / 1e9,
                    cpu / 1e9,
                    peer.changelogRows(),
                    r.files());
            WorkloadCheck actual = peer.check();
            if (!actual.equals(expected)) {
                throw new IllegalStateException("wrong result " + actual + ", expected " + expected);
            }
            WorkloadBenchmark.deleteRecursively(warehouse);
        }
    }

    static void copyTree(Path from, Path to) throws Exception {
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
