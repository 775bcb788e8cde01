package io.strata.scheduler.metrics;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.strata.scheduler.table.TableHealth;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The scheduler's metrics, in a registry of its own (never the JVM-wide default one, so two
 * schedulers in one JVM and a test never share series), written in the Prometheus text format.
 *
 * <p>Series are bounded by the tables, not by time: a table's series are replaced at every poll,
 * at most {@code maxBucketSeries} of its buckets (those with the most sorted runs) get a series of
 * their own, and {@link #forget} removes a table that left the configuration. A scheduler running
 * for weeks keeps as many series as it has tables and operations.
 */
public final class SchedulerMetrics {
    /** The label of the backlog thresholds a bucket may be over. */
    public static final String SORTED_RUNS = "sorted-runs";

    public static final String LEVEL0_FILES = "level0-files";

    private final int maxBucketSeries;
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Gauge snapshots = gauge("strata_table_snapshots_retained", "Snapshots retained, earliest to latest.");
    private final Gauge latestSnapshot = gauge("strata_table_latest_snapshot", "Id of the latest snapshot.");
    private final Gauge changelogs =
            gauge("strata_table_changelogs_retained", "Changelogs kept beyond their expired snapshots.");
    private final Gauge files = gauge("strata_table_live_files", "Data files of the latest snapshot.");
    private final Gauge bytes = gauge("strata_table_live_bytes", "Bytes of the data files of the latest snapshot.");
    private final Gauge buckets = gauge("strata_table_buckets", "Buckets of the latest snapshot.");
    private final Gauge sortedRunsMax =
            gauge("strata_table_sorted_runs_max", "Sorted runs of the table's worst bucket.");
    private final Gauge sortedRunsTotal = gauge("strata_table_sorted_runs_total", "Sorted runs of all buckets.");
    private final Gauge level0Files = gauge("strata_table_level0_files", "Level-0 files of all buckets.");
    private final Gauge overThreshold = Gauge.builder()
            .name("strata_table_buckets_over_threshold")
            .help("Buckets over a backlog threshold (sorted-runs: max-sorted-runs; level0-files: max-level0-files).")
            .labelNames("table", "threshold")
            .register(registry);
    private final Gauge bucketSortedRuns = Gauge.builder()
            .name("strata_bucket_sorted_runs")
            .help("Sorted runs of one bucket, for the buckets with the most (at most max-bucket-series"
                    + " per table).")
            .labelNames("table", "partition", "bucket")
            .register(registry);
    private final Gauge bucketLevel0 = Gauge.builder()
            .name("strata_bucket_level0_files")
            .help("Level-0 files of one bucket, for the same buckets as strata_bucket_sorted_runs.")
            .labelNames("table", "partition", "bucket")
            .register(registry);
    private final Gauge lastSuccess = Gauge.builder()
            .name("strata_operation_last_success_timestamp_seconds")
            .help("When the operation last succeeded on the table (Unix time).")
            .labelNames("table", "operation")
            .register(registry);
    private final Gauge lastDuration = Gauge.builder()
            .name("strata_operation_last_duration_seconds")
            .help("How long the operation's last run on the table took, whatever its outcome.")
            .labelNames("table", "operation")
            .register(registry);
    private final Counter runs = Counter.builder()
            .name("strata_operation_runs")
            .help("Runs of an operation on a table, by outcome.")
            .labelNames("table", "operation", "outcome")
            .register(registry);
    private final Gauge leases = Gauge.builder()
            .name("strata_lease_held")
            .help("1 for each lease held: which owner holds which operation of which table.")
            .labelNames("table", "operation", "owner")
            .register(registry);
    private final Gauge queue = Gauge.builder()
            .name("strata_scheduler_queue_length")
            .help("Operations waiting for a free slot (a cap on concurrent compactions or maintenance).")
            .register(registry);
    private final Gauge running = Gauge.builder()
            .name("strata_scheduler_running_operations")
            .help("Operations running now.")
            .register(registry);
    private final Gauge pollFailures = Gauge.builder()
            .name("strata_table_poll_failed")
            .help("1 when the table's last poll failed (its other series are then from the poll before).")
            .labelNames("table")
            .register(registry);

    /** Per table, the label values of its per-bucket series now set, to replace them at the next poll. */
    private final Map<String, List<String[]>> bucketSeries = new HashMap<>();

    private final Set<String> operationTables = new HashSet<>();

    /** @param maxBucketSeries buckets per table that get series of their own (0: none) */
    public SchedulerMetrics(int maxBucketSeries) {
        if (maxBucketSeries < 0) {
            throw new IllegalArgumentException("max-bucket-series must be 0 or more, got " + maxBucketSeries);
        }
        this.maxBucketSeries = maxBucketSeries;
    }

    private Gauge gauge(String name, String help) {
        return Gauge.builder().name(name).help(help).labelNames("table").register(registry);
    }

    /** Sets the table's series from a poll, checked against the backlog thresholds. */
    public synchronized void update(TableHealth h, int maxSortedRuns, int maxLevel0Files) {
        String t = h.table();
        snapshots.labelValues(t).set(h.snapshotsRetained());
        latestSnapshot.labelValues(t).set(h.latestSnapshot());
        changelogs.labelValues(t).set(h.changelogsRetained());
        files.labelValues(t).set(h.liveFiles());
        bytes.labelValues(t).set(h.liveBytes());
        buckets.labelValues(t).set(h.buckets().size());
        sortedRunsMax.labelValues(t).set(h.maxSortedRuns());
        sortedRunsTotal.labelValues(t).set(h.totalSortedRuns());
        level0Files.labelValues(t).set(h.level0Files());
        overThreshold.labelValues(t, SORTED_RUNS).set(h.bucketsOverSortedRuns(maxSortedRuns));
        overThreshold.labelValues(t, LEVEL0_FILES).set(h.bucketsOverLevel0Files(maxLevel0Files));
        pollFailures.labelValues(t).set(0);

        removeBucketSeries(t);
        List<TableHealth.Bucket> worst = new ArrayList<>(h.buckets());
        worst.sort(Comparator.comparingInt(TableHealth.Bucket::sortedRuns)
                .thenComparingInt(TableHealth.Bucket::level0Files)
                .reversed());
        List<String[]> set = new ArrayList<>();
        for (TableHealth.Bucket b : worst.subList(0, Math.min(maxBucketSeries, worst.size()))) {
            String[] labels = {t, b.partition(), Integer.toString(b.bucket())};
            bucketSortedRuns.labelValues(labels).set(b.sortedRuns());
            bucketLevel0.labelValues(labels).set(b.level0Files());
            set.add(labels);
        }
        bucketSeries.put(t, set);
    }

    /** Marks the table's last poll as failed; its other series keep the values of the poll before. */
    public synchronized void pollFailed(String table) {
        pollFailures.labelValues(table).set(1);
    }

    /**
     * Records one finished run.
     *
     * @param outcome as the run history names it (e.g. {@code succeeded}, {@code failed}, {@code interrupted})
     */
    public synchronized void recordRun(
            String table, String operation, String outcome, Duration took, Instant finished, boolean succeeded) {
        runs.labelValues(table, operation, outcome).inc();
        lastDuration.labelValues(table, operation).set(took.toNanos() / 1e9);
        if (succeeded) {
            lastSuccess.labelValues(table, operation).set(finished.toEpochMilli() / 1e3);
        }
        operationTables.add(table);
    }

    /** One held lease, as {@link #setLeases} takes them. */
    public record HeldLease(String table, String operation, String owner) {}

    /** Replaces the lease series with the leases held now. */
    public synchronized void setLeases(Collection<HeldLease> held) {
        leases.clear();
        for (HeldLease l : held) {
            leases.labelValues(l.table(), l.operation(), l.owner()).set(1);
        }
    }

    public synchronized void setQueue(int waiting, int runningNow) {
        queue.set(waiting);
        running.set(runningNow);
    }

    /** Removes every series of a table that is no longer scheduled. */
    public synchronized void forget(String table) {
        for (Gauge g : List.of(
                snapshots,
                latestSnapshot,
                changelogs,
                files,
                bytes,
                buckets,
                sortedRunsMax,
                sortedRunsTotal,
                level0Files,
                pollFailures)) {
            g.remove(table);
        }
        overThreshold.remove(table, SORTED_RUNS);
        overThreshold.remove(table, LEVEL0_FILES);
        removeBucketSeries(table);
        bucketSeries.remove(table);
        if (operationTables.remove(table)) {
            lastSuccess.removeIf(labels -> labels.get(0).equals(table));
            lastDuration.removeIf(labels -> labels.get(0).equals(table));
            runs.removeIf(labels -> labels.get(0).equals(table));
        }
    }

    private void removeBucketSeries(String table) {
        for (String[] labels : bucketSeries.getOrDefault(table, List.of())) {
            bucketSortedRuns.remove(labels);
            bucketLevel0.remove(labels);
        }
    }

    /** Writes every series in the Prometheus text format (version 0.0.4). */
    public void write(OutputStream out) throws IOException {
        PrometheusTextFormatWriter.create().write(out, registry.scrape(), EscapingScheme.ALLOW_UTF8);
    }

    /** The content type of {@link #write}'s output, for an HTTP response. */
    public static String contentType() {
        return PrometheusTextFormatWriter.CONTENT_TYPE;
    }

    /** The number of series now set: what stays flat while the set of tables does. */
    public synchronized int seriesCount() {
        return registry.scrape().stream()
                .mapToInt(s -> s.getDataPoints().size())
                .sum();
    }
}
