package io.strata.scheduler.quartz;

import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.config.TableSettings.BacklogCompaction;
import io.strata.scheduler.metrics.SchedulerMetrics;
import io.strata.scheduler.ops.TableOperations;
import io.strata.scheduler.table.TableHealth;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last poll of every scheduled table ({@link TableHealth}, or why it failed), kept for the
 * status page and fed to the metrics. The backlog poll and the service's periodic poll both go
 * through {@link #poll}, so each poll reads the table once for backlog, metrics and status.
 */
public final class HealthPolls {
    private static final Logger LOG = LoggerFactory.getLogger(HealthPolls.class);

    /** The last poll of one table: its health, or the error of a poll that failed after it. */
    public record LastPoll(Optional<TableHealth> health, Optional<String> error) {}

    private final SchedulerConfig config;
    private final TableOperations ops;
    private final SchedulerMetrics metrics;
    private final Map<String, LastPoll> last = new ConcurrentHashMap<>();

    public HealthPolls(SchedulerConfig config, TableOperations ops, SchedulerMetrics metrics) {
        this.config = config;
        this.ops = ops;
        this.metrics = metrics;
    }

    /** The thresholds the table's backlog is checked against (the defaults without backlog compaction). */
    public BacklogCompaction thresholds(String table) {
        return config.settingsFor(table)
                .backlogCompaction()
                .orElse(new BacklogCompaction(
                        Duration.ZERO, BacklogCompaction.DEFAULT_THRESHOLD, BacklogCompaction.DEFAULT_THRESHOLD));
    }

    /** Polls {@code table} once; a failure is recorded (metrics, status) and rethrown. */
    public TableHealth poll(String table) {
        TableHealth h;
        try {
            h = ops.probe(table);
        } catch (RuntimeException e) {
            LastPoll before = last.get(table);
            last.put(
                    table,
                    new LastPoll(before == null ? Optional.empty() : before.health(), Optional.of(e.toString())));
            metrics.pollFailed(table);
            throw e;
        }
        BacklogCompaction t = thresholds(table);
        metrics.update(h, t.maxSortedRuns(), t.maxLevel0Files());
        last.put(table, new LastPoll(Optional.of(h), Optional.empty()));
        return h;
    }

    /**
     * Polls each of {@code tables} (a failure is logged, the others still polled) and forgets the
     * tables polled before that are no longer scheduled.
     */
    public void pollAll(Collection<String> tables) {
        Set<String> gone = new HashSet<>(last.keySet());
        gone.removeAll(tables);
        for (String t : gone) {
            last.remove(t);
            metrics.forget(t);
        }
        for (String t : tables) {
            try {
                poll(t);
            } catch (RuntimeException e) {
                LOG.warn("{}: health poll failed", t, e);
            }
        }
    }

    /** The last poll of {@code table}, if it was polled. */
    public Optional<LastPoll> last(String table) {
        return Optional.ofNullable(last.get(table));
    }
}
