package io.strata.bench;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Where the process's CPU went during one compaction: its total, and per thread name (numbers
 * dropped, so C2 compiler and GC worker threads add up; threads that ended meanwhile, such as a
 * thread pool's, are missing) from /proc on Linux. On two cores, whatever is not a rewrite
 * thread competes with the rewrites.
 */
final class ThreadCpu {
    private final long processNanos = processCpu();
    private final Map<String, Long> threadTicks = threadTicks();
    private final long gcMillis = gcMillis();

    static ThreadCpu start() {
        return new ThreadCpu();
    }

    String since() {
        StringBuilder b = new StringBuilder(String.format(
                Locale.ROOT, "process cpu %d ms; by thread name (ms):", (processCpu() - processNanos) / 1_000_000));
        for (Map.Entry<String, Long> e : threadTicks().entrySet()) {
            long d = e.getValue() - threadTicks.getOrDefault(e.getKey(), 0L);
            if (d > 0) {
                b.append(' ').append(e.getKey()).append('=').append(d * 10); // clock ticks of 10 ms
            }
        }
        return b.toString();
    }

    /** CPU milliseconds the JIT compiler threads (C1 and C2) used since {@link #start()}. */
    long compilerMillisSince() {
        long ticks = 0;
        for (Map.Entry<String, Long> e : threadTicks().entrySet()) {
            if (e.getKey().startsWith("C1_Compiler") || e.getKey().startsWith("C2_Compiler")) {
                ticks += e.getValue() - threadTicks.getOrDefault(e.getKey(), 0L);
            }
        }
        return ticks * 10;
    }

    /**
     * Milliseconds the garbage collectors reported since {@link #start()}: for G1 the young and
     * mixed pauses and the concurrent cycles' pauses (the JVM's collection time, not CPU).
     */
    long gcMillisSince() {
        return gcMillis() - gcMillis;
    }

    private static long gcMillis() {
        long total = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            total += Math.max(0, gc.getCollectionTime());
        }
        return total;
    }

    private static long processCpu() {
        return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static Map<String, Long> threadTicks() {
        Map<String, Long> m = new TreeMap<>();
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) {
            return m;
        }
        try (Stream<Path> ts = Files.list(tasks)) {
            for (Path t : (Iterable<Path>) ts::iterator) {
                String st;
                try {
                    st = Files.readString(t.resolve("stat"));
                } catch (IOException ended) {
                    continue;
                }
                String name = st.substring(st.indexOf('(') + 1, st.lastIndexOf(')'))
                        .replaceAll("[0-9]+$", "")
                        .replace(' ', '_');
                String[] f = st.substring(st.lastIndexOf(')') + 2).split(" ");
                m.merge(name, Long.parseLong(f[11]) + Long.parseLong(f[12]), Long::sum); // utime + stime
            }
        } catch (IOException e) {
            return m;
        }
        return m;
    }
}
