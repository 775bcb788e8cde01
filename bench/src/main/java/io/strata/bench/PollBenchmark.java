package io.strata.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.strata.cli.workload.StandardWorkload;
import io.strata.scheduler.config.ConfigLoader;
import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.metrics.SchedulerMetrics;
import io.strata.scheduler.ops.TableOperations;
import io.strata.scheduler.quartz.HealthPolls;
import io.strata.scheduler.table.TableDiscovery;
import io.strata.scheduler.table.TableHealth;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.table.FileStoreTable;

/**
 * Issue 16's scale figure: one backlog poll round of the scheduler over many tables (default 1,000
 * workload tables of 4 buckets), and the scheduler's live heap over many rounds.
 *
 * <p>Strata's round is the scheduler's own: the tables its config selects ({@link TableDiscovery}),
 * each polled by {@link HealthPolls#pollAll} (the latest snapshot and its manifests through the
 * engine API, the metrics updated), then one {@code /metrics} scrape. Paimon's round reads, for
 * each table through its catalog (defaults, caching on), the latest and earliest snapshot ids and
 * the data files of the latest snapshot ({@code store().newScan().plan()}), and counts sorted runs
 * and level-0 files per bucket: what a poll of Paimon tables for backlog needs. Each round checks
 * every bucket of every table shows the expected sorted runs, so neither side can skip work.
 *
 * <p>Set-up (not timed): one template table per side from the standard workload, write-only (one
 * level-0 run per commit per bucket), copied to {@code --tables} tables. Arguments:
 * {@code --dir=/tmp/pollbench --tables=1000 --commits=4 --rows=200 --keys=1000 --rounds=1000
 * --paimon-rounds=20 --heap-every=100}. The last line printed is the JSON result.
 */
public final class PollBenchmark {
    private static final String DATABASE = "bench";

    private PollBenchmark() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> a = arguments(args);
        Path dir = Path.of(a.get("dir"));
        int tables = Integer.parseInt(a.get("tables"));
        int rounds = Integer.parseInt(a.get("rounds"));
        int paimonRounds = Integer.parseInt(a.get("paimon-rounds"));
        int heapEvery = Integer.parseInt(a.get("heap-every"));
        StandardWorkload workload = new StandardWorkload(
                Integer.parseInt(a.get("commits")),
                Integer.parseInt(a.get("rows")),
                Long.parseLong(a.get("keys")),
                0.05,
                42);
        int expectedRuns = workload.commits();

        Path strata = dir.resolve("strata");
        Path paimon = dir.resolve("paimon");
        if (Files.exists(dir)) {
            WorkloadBenchmark.deleteRecursively(dir);
        }
        Files.createDirectories(dir);
        long setup = System.nanoTime();
        StrataPeer.createTable(strata, "template").ingest(workload);
        try (PaimonPeer p = PaimonPeer.createTable(paimon, "template")) {
            p.ingest(workload.restart());
        }
        Path strataTemplate = strata.resolve(DATABASE + ".db").resolve("template");
        Path paimonTemplate = paimon.resolve(DATABASE + ".db").resolve("template");
        for (int i = 0; i < tables; i++) {
            CompactionProfile.copyTree(strataTemplate, strataTemplate.resolveSibling(tableName(i)));
            CompactionProfile.copyTree(paimonTemplate, paimonTemplate.resolveSibling(tableName(i)));
        }
        WorkloadBenchmark.deleteRecursively(strataTemplate);
        WorkloadBenchmark.deleteRecursively(paimonTemplate);
        System.err.printf(
                Locale.ROOT, "set-up: %d tables per side in %.1f s%n", tables, seconds(System.nanoTime() - setup));

        // warm both sides up on a few rounds before anything counts
        StrataPoll strataPoll = new StrataPoll(strata, tables, expectedRuns);
        try (PaimonPoll paimonPoll = new PaimonPoll(paimon, tables, expectedRuns)) {
            for (int i = 0; i < 3; i++) {
                strataPoll.round();
                paimonPoll.round();
            }
            // the ratio: alternating rounds, Paimon's count of them
            List<Double> strataSeconds = new ArrayList<>();
            List<Double> paimonSeconds = new ArrayList<>();
            for (int i = 0; i < paimonRounds; i++) {
                strataSeconds.add(timed(strataPoll::round));
                paimonSeconds.add(timed(paimonPoll::round));
            }
            double strataMedian = median(strataSeconds);
            double paimonMedian = median(paimonSeconds);
            System.err.printf(
                    Locale.ROOT,
                    "round over %d tables: Strata %.3f s, Paimon %.3f s (medians of %d), ratio %.2f%n",
                    tables,
                    strataMedian,
                    paimonMedian,
                    paimonRounds,
                    paimonMedian / strataMedian);
            Map<Integer, Double> paimonHeap =
                    heapOver(paimonPoll::round, Math.min(rounds, paimonRounds * 5), heapEvery);

            // flat memory: Strata's live heap after many rounds
            Map<Integer, Double> strataHeap = heapOver(strataPoll::round, rounds, heapEvery);
            double maxRound = strataPoll.slowest;

            Map<String, Object> result = new LinkedHashMap<>();
            result.put(
                    "poll_workload",
                    "StandardWorkload{C=" + workload.commits() + ", R=" + workload.rowsPerCommit()
                            + ", K=" + workload.keySpace() + ", f=0.05, seed=42} write-only, copied to " + tables
                            + " tables of 4 buckets");
            result.put("poll_rounds_timed", paimonRounds);
            result.put("poll_round_seconds_strata", round3(strataMedian));
            result.put("poll_round_seconds_paimon", round3(paimonMedian));
            result.put("poll_speedup_strata_over_paimon", round3(paimonMedian / strataMedian));
            result.put("poll_round_seconds_strata_slowest", round3(maxRound));
            result.put("poll_rounds_strata_total", strataPoll.rounds);
            result.put("memory_live_heap_mib_by_round_strata", strataHeap);
            result.put("memory_live_heap_mib_by_round_paimon", paimonHeap);
            System.out.println(new ObjectMapper().writeValueAsString(result));
        }
    }

    private static String tableName(int i) {
        return String.format(Locale.ROOT, "t%04d", i);
    }

    /** Live heap (after a full GC, in MiB) at round 1 and every {@code every} rounds up to {@code rounds}. */
    private static Map<Integer, Double> heapOver(ThrowingRunnable round, int rounds, int every) throws Exception {
        Map<Integer, Double> heap = new TreeMap<>();
        for (int i = 1; i <= rounds; i++) {
            round.run();
            if (i == 1 || i % every == 0 || i == rounds) {
                heap.put(i, round3(liveHeapMib()));
                System.err.printf(Locale.ROOT, "  round %d: live heap %.1f MiB%n", i, heap.get(i));
            }
        }
        return heap;
    }

    private static double liveHeapMib() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / (1024.0 * 1024.0);
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    /** Seconds {@code round} took. */
    private static double timed(ThrowingRunnable round) throws Exception {
        long start = System.nanoTime();
        round.run();
        return seconds(System.nanoTime() - start);
    }

    /** The scheduler's poll round: discovery, a poll of each table, a scrape. */
    private static final class StrataPoll {
        private final TableDiscovery discovery;
        private final HealthPolls polls;
        private final SchedulerMetrics metrics;
        private final int tables;
        private final int expectedRuns;
        private int rounds;
        private double slowest;

        StrataPoll(Path warehouse, int tables, int expectedRuns) throws Exception {
            Path config = Files.writeString(
                    warehouse.resolve("scheduler.yaml"),
                    "warehouse: " + warehouse.toAbsolutePath() + "\n"
                            + "tables:\n  databases:\n    - name: " + DATABASE + "\n"
                            + "defaults:\n  backlog-compaction:\n    poll-interval: 1m\n    max-sorted-runs: 10\n");
            SchedulerConfig c = ConfigLoader.load(config);
            io.strata.storage.table.Catalog catalog = io.strata.storage.table.Catalog.open(c.warehouse());
            this.discovery = new TableDiscovery(catalog, c.tables());
            this.metrics = new SchedulerMetrics(c.maxBucketSeries());
            TableOperations ops = new TableOperations(
                    catalog,
                    (table, strategy, placement) -> {
                        throw new IllegalStateException("the poll benchmark compacts nothing");
                    },
                    Clock.systemUTC());
            this.polls = new HealthPolls(c, ops, metrics);
            this.tables = tables;
            this.expectedRuns = expectedRuns;
        }

        void round() throws Exception {
            long start = System.nanoTime();
            List<String> names = discovery.discover();
            if (names.size() != tables) {
                throw new IllegalStateException("discovered " + names.size() + " tables, expected " + tables);
            }
            polls.pollAll(names);
            metrics.write(OutputStream.nullOutputStream());
            for (String t : names) {
                TableHealth h = polls.last(t)
                        .flatMap(HealthPolls.LastPoll::health)
                        .orElseThrow(() -> new IllegalStateException(t + " was not polled"));
                check(t, h.buckets().size(), h.buckets().stream().allMatch(b -> b.sortedRuns() == expectedRuns));
            }
            rounds++;
            slowest = Math.max(slowest, seconds(System.nanoTime() - start));
        }
    }

    /** The same poll of Paimon tables through Paimon's public Java API. */
    private static final class PaimonPoll implements AutoCloseable {
        private final Catalog catalog;
        private final int tables;
        private final int expectedRuns;

        PaimonPoll(Path warehouse, int tables, int expectedRuns) {
            this.catalog = CatalogFactory.createCatalog(CatalogContext.create(
                    new org.apache.paimon.fs.Path(warehouse.toAbsolutePath().toString())));
            this.tables = tables;
            this.expectedRuns = expectedRuns;
        }

        void round() throws Exception {
            List<String> names = catalog.listTables(DATABASE);
            if (names.size() != tables) {
                throw new IllegalStateException("listed " + names.size() + " Paimon tables, expected " + tables);
            }
            for (String name : names) {
                FileStoreTable t = (FileStoreTable) catalog.getTable(Identifier.create(DATABASE, name));
                Long latest = t.snapshotManager().latestSnapshotId();
                Long earliest = t.snapshotManager().earliestSnapshotId();
                if (latest == null || earliest == null) {
                    throw new IllegalStateException(name + " has no snapshot");
                }
                Map<Integer, int[]> level0 = new HashMap<>();
                Map<Integer, Set<Integer>> levels = new HashMap<>();
                for (ManifestEntry e : t.store().newScan().plan().files()) {
                    if (e.file().level() == 0) {
                        level0.computeIfAbsent(e.bucket(), b -> new int[1])[0]++;
                    } else {
                        levels.computeIfAbsent(e.bucket(), b -> new HashSet<>())
                                .add(e.file().level());
                    }
                }
                boolean expected = level0.entrySet().stream()
                        .allMatch(b -> b.getValue()[0]
                                        + levels.getOrDefault(b.getKey(), Set.of())
                                                .size()
                                == expectedRuns);
                check(name, level0.size(), expected);
            }
        }

        @Override
        public void close() throws Exception {
            catalog.close();
        }
    }

    private static void check(String table, int buckets, boolean runsAsExpected) {
        if (buckets != 4 || !runsAsExpected) {
            throw new IllegalStateException(table + ": expected 4 buckets with one sorted run per commit, found "
                    + buckets + " buckets" + (runsAsExpected ? "" : " with other sorted-run counts"));
        }
    }

    private static Map<String, String> arguments(String[] args) {
        Map<String, String> a = new LinkedHashMap<>();
        a.put("dir", "/tmp/pollbench");
        a.put("tables", "1000");
        a.put("commits", "4");
        a.put("rows", "200");
        a.put("keys", "1000");
        a.put("rounds", "1000");
        a.put("paimon-rounds", "20");
        a.put("heap-every", "100");
        for (String arg : args) {
            int eq = arg.indexOf('=');
            String key = arg.startsWith("--") && eq > 2 ? arg.substring(2, eq) : null;
            if (key == null || !a.containsKey(key)) {
                throw new IllegalArgumentException("unknown argument " + arg + " (known: "
                        + Arrays.toString(
                                a.keySet().stream().map(k -> "--" + k + "=").toArray()) + ")");
            }
            a.put(key, arg.substring(eq + 1));
        }
        return a;
    }

    private static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(null);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    private static double round3(double x) {
        return Math.round(x * 1000) / 1000.0;
    }
}
