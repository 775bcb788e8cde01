package io.strata.scheduler;

import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.metrics.SchedulerMetrics;
import io.strata.scheduler.ops.CompactionRunner;
import io.strata.scheduler.ops.OperationKind;
import io.strata.scheduler.ops.Outcome;
import io.strata.scheduler.ops.PlacedCompactions;
import io.strata.scheduler.ops.TableOperations;
import io.strata.scheduler.quartz.Admission;
import io.strata.scheduler.quartz.HealthPolls;
import io.strata.scheduler.quartz.OperationDispatcher;
import io.strata.scheduler.quartz.OperationGuard;
import io.strata.scheduler.quartz.SchedulerDatabase;
import io.strata.storage.table.Catalog;
import java.io.File;
import java.time.Clock;
import java.util.Optional;

/**
 * One operation run now, in this process, through the dispatcher path the service's fires take:
 * pause, lease, run history. It runs under its own owner ({@code <scheduler-id>-manual}), so a
 * running service's lease on the table holds it back and the service's restart does not mark it
 * interrupted. Nothing is scheduled or deferred.
 */
public final class ManualRun {
    private ManualRun() {}

    /** The owner a manual run of {@code config}'s scheduler holds its lease and history rows under. */
    public static String owner(SchedulerConfig config) {
        return config.schedulerId() + "-manual";
    }

    /** Runs {@code kind} on {@code table}, a compaction where the table's placement says. */
    public static Optional<Outcome> run(SchedulerConfig config, String table, OperationKind kind) throws Exception {
        File scratch = new File(System.getProperty("java.io.tmpdir"));
        try (CompactionRunner compactions = PlacedCompactions.of(config.warehouse(), scratch)) {
            return run(config, compactions, Clock.systemUTC(), table, kind);
        }
    }

    /** Runs {@code kind} on {@code table} now; empty when the config does not schedule it for the table. */
    public static Optional<Outcome> run(
            SchedulerConfig config, CompactionRunner compactions, Clock clock, String table, OperationKind kind)
            throws Exception {
        TableOperations ops = new TableOperations(Catalog.open(config.warehouse()), compactions, clock);
        // the service's metrics are its own; this run's series would be thrown away with the process
        SchedulerMetrics metrics = new SchedulerMetrics(0);
        try (SchedulerDatabase db = SchedulerDatabase.open(config.store(), 2, clock)) {
            OperationGuard guard = new OperationGuard(
                    db.leases(), db.history(), db.pauses(), metrics, owner(config), config.leaseTtl(), clock);
            // a single run: nothing else in this process takes a slot
            Admission admission =
                    new Admission(config.maxConcurrentCompactions(), config.maxConcurrentMaintenance(), n -> {});
            OperationDispatcher dispatcher = new OperationDispatcher(
                    config, ops, guard, new HealthPolls(config, ops, metrics), admission, o -> {});
            return dispatcher.run(table, kind, clock.instant());
        }
    }
}
