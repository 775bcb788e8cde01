package io.strata.bench;

import io.strata.cli.workload.ExpectedTable;
import io.strata.cli.workload.StandardWorkload;
import io.strata.cli.workload.TableChecksum;
import io.strata.cli.workload.WorkloadCheck;
import io.strata.compaction.CompactionJob;
import io.strata.compaction.JobSpec;
import io.strata.compaction.RestSubmitter;
import io.strata.storage.table.Catalog;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.api.common.JobID;
import org.apache.flink.client.program.rest.RestClusterClient;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;

/**
 * Issue 4's benchmark: full compaction of the standard workload (scenario 2 input) through the
 * compaction job with parallelism 1 and 2, against the engine called directly on one thread, and
 * Apache Paimon 1.3.1's full compaction (one thread) as the peer, in one JVM, alternating.
 *
 * <p>The job runs on a MiniCluster started once (start-up excluded); its time is the job's net
 * runtime as Flink reports it (submission accepted to finished: scheduling, deployment, planning,
 * rewriting, committing). Every table is verified against the workload after compaction.
 * Arguments as {@link WorkloadBenchmark}: {@code --dir --warmups --runs --commits --rows --keys --seed}.
 */
public final class JobBenchmark {
    private JobBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new LinkedHashMap<>();
        for (String a : args) {
            int eq = a.indexOf('=');
            if (!a.startsWith("--") || eq < 0) {
                throw new IllegalArgumentException("unknown argument " + a + " (expected --NAME=VALUE)");
            }
            opts.put(a.substring(2, eq), a.substring(eq + 1));
        }
        Path dir = Path.of(opts.getOrDefault("dir", System.getProperty("java.io.tmpdir")));
        int warmups = Integer.parseInt(opts.getOrDefault("warmups", "1"));
        int runs = Integer.parseInt(opts.getOrDefault("runs", "3"));
        StandardWorkload workload = new StandardWorkload(Integer.parseInt(opts.getOrDefault("commits", "10")),
                Integer.parseInt(opts.getOrDefault("rows", "200000")), Long.parseLong(opts.getOrDefault("keys", "1000000")),
                0.05, Long.parseLong(opts.getOrDefault("seed", "42")));
        WorkloadCheck expected = ExpectedTable.of(workload.restart());
        System.out.printf("%s; java %s, %d cpus%n", workload, System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors());

        Configuration conf = new Configuration();
        conf.set(RestOptions.BIND_PORT, "0");
        MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder().setConfiguration(conf)
                .setNumTaskManagers(1).setNumSlotsPerTaskManager(2).build());
        cluster.start();
        URI rest = cluster.getRestAddress().get();
        Configuration clientConf = new Configuration();
        clientConf.set(RestOptions.ADDRESS, rest.getHost());
        clientConf.set(RestOptions.PORT, rest.getPort());
        // 0 direct s, 1 job p1 s, 2 job p2 s, 3 paimon s
        double[][] m = new double[4][runs];
        long inputRows = 0;
        try (RestClusterClient<String> client = new RestClusterClient<>(clientConf, "bench")) {
            for (int i = -warmups; i < runs; i++) {
                String label = i < 0 ? "warm-up " + (i + warmups + 1) : "run " + (i + 1);
                double direct = directStrata(dir, workload, expected);
                double p1 = viaJob(client, dir, workload, expected, 1);
                double p2 = viaJob(client, dir, workload, expected, 2);
                Path pw = Files.createTempDirectory(Files.createDirectories(dir), "paimon-job-bench-");
                double paimon;
                try (PaimonPeer peer = PaimonPeer.createTable(pw, "workload")) {
                    peer.ingest(workload.restart());
                    CompactionResult r = peer.fullCompaction();
                    paimon = r.nanos() / 1e9;
                    inputRows = r.input().rows();
                } finally {
                    WorkloadBenchmark.deleteRecursively(pw);
                }
                System.out.printf(Locale.ROOT, "%s: full compaction, engine directly %.2f s | job p=1 %.2f s | job p=2 "
                        + "%.2f s | paimon %.2f s%n", label, direct, p1, p2, paimon);
                if (i >= 0) {
                    m[0][i] = direct;
                    m[1][i] = p1;
                    m[2][i] = p2;
                    m[3][i] = paimon;
                }
            }
        } finally {
            cluster.close();
        }
        double direct = WorkloadBenchmark.median(m[0]);
        double p1 = WorkloadBenchmark.median(m[1]);
        double p2 = WorkloadBenchmark.median(m[2]);
        double paimon = WorkloadBenchmark.median(m[3]);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("workload", workload.toString());
        json.put("runs", runs);
        json.put("input_rows", inputRows);
        json.put("direct_engine_seconds", r3(direct));
        json.put("job_p1_seconds", r3(p1));
        json.put("job_p2_seconds", r3(p2));
        json.put("paimon_seconds", r3(paimon));
        json.put("job_p1_overhead_over_direct", r3(p1 / direct - 1));
        json.put("job_p2_speedup_over_p1", r3(p1 / p2));
        json.put("job_p1_input_rows_per_s_over_paimon", r3(paimon / p1));
        json.put("job_p2_input_rows_per_s_over_paimon", r3(paimon / p2));
        System.out.println(json.entrySet().stream().map(e -> "\"" + e.getKey() + "\":" + (e.getValue() instanceof String
                ? "\"" + e.getValue() + "\"" : e.getValue())).collect(Collectors.joining(",", "{", "}")));
    }

    private static double directStrata(Path dir, StandardWorkload workload, WorkloadCheck expected) throws Exception {
        Path wh = Files.createTempDirectory(Files.createDirectories(dir), "strata-direct-");
        try {
            StrataPeer peer = StrataPeer.createTable(wh, "workload");
            peer.ingest(workload.restart());
            CompactionResult r = peer.fullCompaction();
            check("engine directly", peer.check(), expected);
            return r.nanos() / 1e9;
        } finally {
            WorkloadBenchmark.deleteRecursively(wh);
        }
    }

    private static double viaJob(RestClusterClient<String> client, Path dir, StandardWorkload workload,
                                 WorkloadCheck expected, int parallelism) throws Exception {
        Path wh = Files.createTempDirectory(Files.createDirectories(dir), "strata-job-");
        try {
            StrataPeer.createTable(wh, "workload").ingest(workload.restart());
            CompactionJob.Args a = new CompactionJob.Args();
            a.warehouse = wh.toString();
            a.tables = List.of("bench.workload");
            a.strategy = "full";
            a.mode = "batch";
            a.parallelism = parallelism;
            a.discoveryInterval = "10 s";
            a.checkpointInterval = "10 s";
            a.tableOptions = List.of();
            JobSpec spec = a.toSpec();
            JobID id = RestSubmitter.submit(client, spec, null);
            JobResult result = client.requestJobResult(id).get();
            if (!result.isSuccess()) {
                throw new IllegalStateException("job failed", result.getSerializedThrowable().get());
            }
            check("job p=" + parallelism, TableChecksum.of(Catalog.open(wh.toString()).getTable("bench.workload")
                    .newReadBuilder()), expected);
            return result.getNetRuntime() / 1e3;
        } finally {
            WorkloadBenchmark.deleteRecursively(wh);
        }
    }

    private static void check(String what, WorkloadCheck actual, WorkloadCheck expected) {
        if (!actual.equals(expected)) {
            throw new IllegalStateException(what + ": " + actual + " but the workload gives " + expected);
        }
    }

    private static double r3(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
