package io.strata.scheduler.ops;

import io.strata.compaction.EmbeddedJobRunner;
import io.strata.compaction.JobFailures;
import io.strata.compaction.commit.CompactionEvent;
import io.strata.compaction.job.JobSpec;
import io.strata.scheduler.config.TableSettings.Compaction;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.table.Catalog;
import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs the compaction job on an embedded Flink (a local MiniCluster started for the run, in this
 * JVM), as {@code strata compact} does. An interrupt of the calling thread (shutdown past its
 * timeout) cancels the job; nothing it has not committed becomes visible.
 */
public final class EmbeddedCompactionRunner implements CompactionRunner {
    private final String warehouse;
    private final File savepoints;

    public EmbeddedCompactionRunner(String warehouse, File scratchDir) {
        this.warehouse = warehouse;
        this.savepoints = new File(scratchDir, "strata-savepoints");
    }

    @Override
    public CompactionReport compact(String table, CompactStrategy strategy, Compaction placement) throws Exception {
        String[] id = Catalog.splitIdentifier(table);
        JobSpec spec = JobSpec.builder(warehouse, id[0])
                .tables(List.of(id[1]))
                .strategy(strategy)
                .mode(JobSpec.Mode.BATCH)
                .parallelism(placement.parallelism())
                .build();
        List<CompactionEvent> rewritten = new ArrayList<>();
        List<String> committed = new ArrayList<>();
        int[] conflicts = {0};
        ExecutorService worker = Executors.newSingleThreadExecutor(r -> new Thread(r, "strata-compaction-" + table));
        try (EmbeddedJobRunner runner =
                new EmbeddedJobRunner(spec, savepoints.toURI().toString())) {
            Future<?> job = worker.submit(() -> {
                runner.run(e -> {
                    synchronized (rewritten) {
                        if (CompactionEvent.REWRITTEN.equals(e.kind)) {
                            rewritten.add(e);
                        } else if (CompactionEvent.COMMITTED.equals(e.kind)
                                && e.snapshots != null
                                && !e.snapshots.isEmpty()) {
                            committed.add(e.snapshots);
                        } else if (CompactionEvent.CONFLICT.equals(e.kind)) {
                            conflicts[0]++;
                        }
                    }
                });
                return null;
            });
            try {
                job.get();
            } catch (InterruptedException e) {
                // the runner's close cancels the job
                Thread.currentThread().interrupt();
                throw e;
            } catch (ExecutionException e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                throw new EmbeddedJobException(table + ": " + JobFailures.describe(cause), cause);
            }
        } finally {
            worker.shutdownNow();
        }
        synchronized (rewritten) {
            // a bucket re-planned beside a writer is rewritten more than once: its first shape and its last
            Map<String, int[]> byBucket = new LinkedHashMap<>();
            for (CompactionEvent e : rewritten) {
                int[] runs =
                        byBucket.computeIfAbsent(e.partition + "/" + e.bucket, k -> new int[] {e.sortedRunsBefore, 0});
                runs[1] = e.sortedRunsAfter;
            }
            int before = byBucket.values().stream().mapToInt(r -> r[0]).sum();
            int after = byBucket.values().stream().mapToInt(r -> r[1]).sum();
            long rows = rewritten.stream().mapToLong(e -> e.rowsRead).sum();
            return new CompactionReport(
                    table, strategy, byBucket.size(), before, after, rows, List.copyOf(committed), conflicts[0]);
        }
    }
}
