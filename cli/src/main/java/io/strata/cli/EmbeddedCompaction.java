package io.strata.cli;

import io.strata.compaction.EmbeddedJobRunner;
import io.strata.compaction.commit.CompactionEvent;
import io.strata.compaction.job.JobSpec;
import java.io.File;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs the compaction job on the embedded Flink for {@code strata compact} and {@code strata demo}:
 * progress on the terminal (buckets done / planned, rows, MB/s), then a summary per bucket. A
 * streaming job runs until Ctrl-C, which stops it with a final savepoint that commits what is done.
 */
final class EmbeddedCompaction {
    /** What the job did, from its events. */
    static final class Summary {
        final List<CompactionEvent> buckets = new ArrayList<>();
        final List<CompactionEvent> commits = new ArrayList<>();
        long rowsRead;
        long bytesRead;
        long bytesWritten;
        long changelogRows;
        int conflicts;
        double seconds;
    }

    private EmbeddedCompaction() {}

    /** Runs the job, then prints its summary to {@code out}. */
    static Summary run(JobSpec spec, int plannedBuckets, PrintWriter out, PrintWriter err) throws Exception {
        Summary s = new Summary();
        CountDownLatch printed = new CountDownLatch(1);
        long start = System.nanoTime();
        File savepoints = new File(System.getProperty("java.io.tmpdir"), "strata-savepoints");
        try (EmbeddedJobRunner runner =
                new EmbeddedJobRunner(spec, savepoints.toURI().toString())) {
            Thread stopper = new Thread(
                    () -> {
                        err.println();
                        err.println("strata: stopping: committing what is complete (final savepoint)...");
                        err.flush();
                        try {
                            runner.stop();
                            // the JVM exits when this hook returns: let the summary be printed first
                            printed.await(60, TimeUnit.SECONDS);
                        } catch (Exception e) {
                            err.println("strata: error: could not stop the job cleanly: " + e.getMessage());
                        }
                    },
                    "strata-stop");
            boolean streaming = spec.mode() == JobSpec.Mode.STREAMING;
            if (streaming) {
                Runtime.getRuntime().addShutdownHook(stopper);
                err.println("strata: streaming compaction running; Ctrl-C stops it and commits what is complete");
            }
            boolean tty = System.console() != null;
            runner.run(e -> {
                if (CompactionEvent.REWRITTEN.equals(e.kind)) {
                    s.buckets.add(e);
                    s.rowsRead += e.rowsRead;
                    s.bytesRead += e.bytesRead;
                    s.bytesWritten += e.bytesWritten;
                    s.changelogRows += e.changelogRows;
                    double secs = Math.max(1e-9, (System.nanoTime() - start) / 1e9);
                    String line = String.format(
                            "buckets %d%s  %,d rows  %.1f MB/s  %.1f s",
                            s.buckets.size(),
                            streaming ? "" : "/" + plannedBuckets,
                            s.rowsRead,
                            s.bytesRead / 1e6 / secs,
                            secs);
                    if (tty) {
                        err.print("\r" + line + "   ");
                    } else if (streaming) {
                        err.println(line);
                    }
                    err.flush();
                } else if (CompactionEvent.FAILED.equals(e.kind)) {
                    err.println((tty ? "\r" : "") + "strata: bucket failed: " + e.failure);
                    err.flush();
                } else {
                    s.commits.add(e);
                    if (CompactionEvent.CONFLICT.equals(e.kind)) {
                        s.conflicts++;
                    }
                    if (streaming) {
                        err.println((tty ? "\r" : "") + e);
                        err.flush();
                    }
                }
            });
            if (tty) {
                err.println();
            }
            if (streaming) {
                try {
                    Runtime.getRuntime().removeShutdownHook(stopper);
                } catch (IllegalStateException shuttingDown) {
                    // the hook is running: it stopped the job
                }
            }
        }
        s.seconds = (System.nanoTime() - start) / 1e9;
        printSummary(out, s);
        printed.countDown();
        return s;
    }

    private static void printSummary(PrintWriter out, Summary s) {
        TextTable t = new TextTable(
                "table",
                "partition",
                "bucket",
                "runs before",
                "runs after",
                "L0 before",
                "L0 after",
                "rows read",
                "rows written",
                "MB read",
                "MB written",
                "changelog rows");
        for (CompactionEvent e : s.buckets) {
            t.add(
                    e.table,
                    Values.partitionText(e.partition),
                    e.bucket,
                    e.sortedRunsBefore,
                    e.sortedRunsAfter,
                    e.level0FilesBefore,
                    e.level0FilesAfter,
                    e.rowsRead,
                    e.rowsWritten,
                    String.format("%.1f", e.bytesRead / 1e6),
                    String.format("%.1f", e.bytesWritten / 1e6),
                    e.changelogRows);
        }
        t.print(out);
        List<String> snapshots = new ArrayList<>();
        for (CompactionEvent c : s.commits) {
            if (CompactionEvent.COMMITTED.equals(c.kind) && c.snapshots != null && !c.snapshots.isEmpty()) {
                snapshots.add(c.table + "@" + c.snapshots);
            }
        }
        out.printf(
                "compacted %d buckets: %,d input rows, %.1f MB read, %.1f MB written, %,d changelog rows in %.1f s "
                        + "(%.1f MB/s); committed %s%s%n",
                s.buckets.size(),
                s.rowsRead,
                s.bytesRead / 1e6,
                s.bytesWritten / 1e6,
                s.changelogRows,
                s.seconds,
                s.bytesRead / 1e6 / Math.max(1e-9, s.seconds),
                snapshots.isEmpty() ? "nothing" : "snapshot(s) " + String.join(", ", snapshots),
                s.conflicts > 0 ? "; " + s.conflicts + " commits conflicted and were re-planned" : "");
        out.flush();
    }
}
