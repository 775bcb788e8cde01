package io.strata.scheduler;

import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.http.StatusView;
import io.strata.scheduler.metrics.SchedulerMetrics;
import io.strata.scheduler.ops.CompactionRunner;
import io.strata.scheduler.ops.Outcome;
import io.strata.scheduler.ops.PlacedCompactions;
import io.strata.scheduler.ops.TableOperations;
import io.strata.scheduler.quartz.Admission;
import io.strata.scheduler.quartz.ClusterMembership;
import io.strata.scheduler.quartz.HealthPolls;
import io.strata.scheduler.quartz.OperationDispatcher;
import io.strata.scheduler.quartz.OperationGuard;
import io.strata.scheduler.quartz.QuartzScheduler;
import io.strata.scheduler.quartz.Schedule;
import io.strata.scheduler.quartz.ScheduleSync;
import io.strata.scheduler.quartz.SchedulerDatabase;
import io.strata.scheduler.table.SelectionCheck;
import io.strata.scheduler.table.TableDiscovery;
import io.strata.storage.table.Catalog;
import java.io.File;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.TriggerKey;
import org.quartz.impl.matchers.GroupMatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler service: discovers the configured tables (again every discovery interval, so new
 * tables are picked up), keeps their schedules in the Quartz job store and runs the operations
 * they fire, each through the {@link OperationGuard} (pause, fenced lease, run history, metrics)
 * on the scheduler's database it opens beside the job store. Each discovery round also polls every
 * table's health for the metrics and the status page. Compactions run where each table's
 * {@code compaction} placement says, through the {@link CompactionRunner} the service is given and
 * owns. {@link #close} is the graceful shutdown: no new operation starts, running ones get the
 * configured shutdown timeout to finish and are then interrupted (an embedded compaction job is
 * cancelled, committing nothing; a cluster's job is cancelled if its {@code cancel-on-shutdown}
 * says so), Quartz shuts down, and the runner is closed.
 *
 * <p>At start the runs an earlier process of this {@code scheduler-id} left running are marked
 * interrupted; a clustered scheduler first waits until no live process of the cluster uses its id
 * ({@link ClusterMembership}), and leaves the cluster's instances when it stops. Quartz re-fires
 * the jobs a dead process was running, on this node or another; those fires take over from it
 * ({@link io.strata.scheduler.quartz.OperationGuard#takeOver}).
 */
public final class SchedulerService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SchedulerService.class);
    /** How long interrupted operations get to end before Quartz shuts down without them. */
    private static final Duration INTERRUPT_GRACE = Duration.ofSeconds(5);

    /** Where the service is in its life. */
    public enum State {
        RUNNING,
        STOPPING,
        STOPPED
    }

    private final SchedulerConfig config;
    private final Clock clock;
    private final TableDiscovery discovery;
    private final TableOperations ops;
    private final CompactionRunner compactions;
    private final SchedulerMetrics metrics;
    private final SchedulerDatabase database;
    private final OperationGuard guard;
    private final HealthPolls polls;
    private final Admission admission;
    private final OperationDispatcher dispatcher;
    private final Scheduler scheduler;
    private final ScheduledExecutorService discoveryLoop;
    private volatile List<Schedule> schedules = List.of();
    private volatile List<String> tables = List.of();
    /** Triggers due but not fired at the last discovery: they wait for a free operation thread. */
    private volatile int dueUnfired;

    private volatile State state = State.RUNNING;
    /** Whether Quartz started: only then does this process check in to a cluster under its id. */
    private volatile boolean quartzStarted;

    private SchedulerService(
            SchedulerConfig config, Catalog catalog, CompactionRunner compactions, Clock clock, Consumer<Outcome> l)
            throws Exception {
        this.config = config;
        this.clock = clock;
        SelectionCheck.check(config, catalog);
        this.discovery = new TableDiscovery(catalog, config.tables());
        this.ops = new TableOperations(catalog, compactions, clock);
        this.compactions = compactions;
        this.metrics = new SchedulerMetrics(config.maxBucketSeries());
        // every operation thread, the discovery loop and the HTTP handlers at once
        this.database = SchedulerDatabase.open(config.store(), config.maxConcurrentOperations() + 3, clock);
        try {
            this.guard = new OperationGuard(
                    database.leases(),
                    database.history(),
                    database.pauses(),
                    metrics,
                    config.schedulerId(),
                    config.leaseTtl(),
                    clock);
            this.polls = new HealthPolls(config, ops, metrics);
            this.admission = new Admission(
                    config.maxConcurrentCompactions(), config.maxConcurrentMaintenance(), n -> publishQueue(), clock);
            this.dispatcher = new OperationDispatcher(config, ops, guard, polls, admission, l);
            this.scheduler = QuartzScheduler.create(config, dispatcher);
        } catch (Exception e) {
            database.close();
            throw e;
        }
        this.discoveryLoop = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "strata-discovery"));
    }

    /** Starts the service with compactions where each table's placement says (embedded, or a Flink cluster). */
    public static SchedulerService start(SchedulerConfig config) throws Exception {
        File scratch = new File(System.getProperty("java.io.tmpdir"));
        return start(config, PlacedCompactions.of(config.warehouse(), scratch), Clock.systemUTC(), o -> {});
    }

    /**
     * Starts the service; every outcome of an operation goes to {@code listener}. The service owns
     * {@code compactions} from here on: it closes it when it stops, or when it fails to start.
     */
    public static SchedulerService start(
            SchedulerConfig config, CompactionRunner compactions, Clock clock, Consumer<Outcome> listener)
            throws Exception {
        return start(config, Catalog.open(config.warehouse()), compactions, clock, listener);
    }

    /**
     * Starts the service with discovery, health polls, expiration and orphan cleanup on {@code
     * catalog}, which must be opened on the config's warehouse (the same string): tests give one
     * over a fault-injecting FileIO or with another clock ({@link Catalog#withClock}). Compactions
     * run in {@code compactions}, which opens the warehouse itself. Every outcome of an operation
     * goes to {@code listener}.
     *
     * @throws IllegalArgumentException naming both when the catalog is of another warehouse
     */
    public static SchedulerService start(
            SchedulerConfig config,
            Catalog catalog,
            CompactionRunner compactions,
            Clock clock,
            Consumer<Outcome> listener)
            throws Exception {
        if (!catalog.warehouse().equals(config.warehouse())) {
            throw new IllegalArgumentException("the catalog of warehouse " + catalog.warehouse()
                    + " is not of the config's warehouse " + config.warehouse() + " (" + config.source() + ")");
        }
        SchedulerService s;
        try {
            s = new SchedulerService(config, catalog, compactions, clock, listener);
        } catch (Exception e) {
            compactions.close();
            throw e;
        }
        try {
            if (config.store().clustered()) {
                // before anything is marked: a live process under this id must not lose its runs
                ClusterMembership.awaitIdFree(s.database.dataSource(), config.schedulerId(), config.source());
            }
            int interrupted = s.database.history().markInterrupted(config.schedulerId());
            if (interrupted > 0) {
                LOG.warn(
                        "{} runs left running by an earlier process of {} marked interrupted",
                        interrupted,
                        config.schedulerId());
            }
            s.pruneHistory();
            s.discoverNow();
            s.scheduler.start();
            s.quartzStarted = true;
            long every = config.discoveryInterval().toMillis();
            s.discoveryLoop.scheduleWithFixedDelay(s::discoverLogged, every, every, TimeUnit.MILLISECONDS);
            long day = Duration.ofDays(1).toMillis();
            s.discoveryLoop.scheduleWithFixedDelay(s::pruneLogged, day, day, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            s.close();
            throw e;
        }
        LOG.info(
                "scheduler {} started on warehouse {} with job store {}{}: {} schedules",
                config.schedulerId(),
                config.warehouse(),
                config.store().jdbcUrl(),
                config.store().clustered() ? ", clustered" : "",
                s.schedules.size());
        return s;
    }

    /**
     * Lists the warehouse and brings the schedules in line with the tables found; then polls the
     * health of every table found (the tables gone are forgotten by the metrics) and refreshes the
     * lease and queue series.
     */
    public synchronized List<Schedule> discoverNow() throws SchedulerException {
        List<String> tables = List.copyOf(discovery.discover());
        schedules = ScheduleSync.sync(scheduler, config, tables);
        this.tables = tables;
        polls.pollAll(tables);
        guard.publishLeases();
        dueUnfired = waiting();
        publishQueue();
        return schedules;
    }

    /** The queue series: fires waiting for a thread (as of the last discovery) or for a slot (now). */
    private void publishQueue() {
        metrics.setQueue(dueUnfired + admission.waiting(), guard.running());
    }

    /** Triggers due already that wait for a free operation thread. */
    private int waiting() throws SchedulerException {
        Date now = Date.from(clock.instant());
        int due = 0;
        for (String group : scheduler.getTriggerGroupNames()) {
            for (TriggerKey k : scheduler.getTriggerKeys(GroupMatcher.triggerGroupEquals(group))) {
                Trigger t = scheduler.getTrigger(k);
                if (t != null
                        && t.getNextFireTime() != null
                        && t.getNextFireTime().before(now)) {
                    due++;
                }
            }
        }
        return due;
    }

    private void pruneHistory() throws SQLException {
        int pruned = database.history().prune(config.historyRetention());
        if (pruned > 0) {
            LOG.info("pruned {} runs older than {} from the run history", pruned, config.historyRetention());
        }
    }

    private void pruneLogged() {
        try {
            pruneHistory();
        } catch (Exception e) {
            LOG.warn("pruning the run history failed; trying again in a day", e);
        }
    }

    private void discoverLogged() {
        try {
            discoverNow();
        } catch (Exception e) {
            LOG.warn(
                    "table discovery in {} failed; trying again in {}",
                    config.warehouse(),
                    config.discoveryInterval(),
                    e);
        }
    }

    public SchedulerConfig config() {
        return config;
    }

    public List<Schedule> schedules() {
        return schedules;
    }

    public Scheduler quartz() {
        return scheduler;
    }

    public TableOperations operations() {
        return ops;
    }

    /** The tables the last discovery found. */
    public List<String> tables() {
        return tables;
    }

    public SchedulerMetrics metrics() {
        return metrics;
    }

    public SchedulerDatabase database() {
        return database;
    }

    public OperationGuard guard() {
        return guard;
    }

    public HealthPolls polls() {
        return polls;
    }

    /** The slots of the capped classes (compactions, maintenance) and the fires waiting for them. */
    public Admission admission() {
        return admission;
    }

    public OperationDispatcher dispatcher() {
        return dispatcher;
    }

    /** What the status page shows now, read from Quartz, the polls and the scheduler's database. */
    public StatusView statusView() {
        try {
            return StatusViews.build(this, clock.instant());
        } catch (SQLException | SchedulerException e) {
            throw new IllegalStateException("cannot read the scheduler's state: " + e.getMessage(), e);
        }
    }

    public State state() {
        return state;
    }

    /** The operations still running after {@code timeout}, or none once all ended. */
    private List<JobExecutionContext> awaitRunning(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<JobExecutionContext> running = scheduler.getCurrentlyExecutingJobs();
        while (!running.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
            running = scheduler.getCurrentlyExecutingJobs();
        }
        return running;
    }

    private void leaveCluster() {
        try {
            if (!ClusterMembership.leave(database.dataSource(), config.schedulerId())) {
                LOG.warn(
                        "{} left fires in flight: the other schedulers of the cluster will re-fire them",
                        config.schedulerId());
            }
        } catch (SQLException e) {
            LOG.warn(
                    "cannot remove {} from the cluster's instances; the others will count it failed",
                    config.schedulerId(),
                    e);
        }
    }

    /** The graceful shutdown; safe to call more than once and from a shutdown hook. */
    @Override
    public synchronized void close() throws Exception {
        if (state == State.STOPPED) {
            return;
        }
        state = State.STOPPING;
        // not interrupted: a poll or prune writing to an H2 file must not have its channel closed
        discoveryLoop.shutdown();
        if (!discoveryLoop.awaitTermination(10, TimeUnit.SECONDS)) {
            discoveryLoop.shutdownNow();
        }
        dispatcher.stopAccepting();
        scheduler.standby();
        Duration timeout = config.shutdownTimeout();
        List<JobExecutionContext> running = scheduler.getCurrentlyExecutingJobs();
        if (!running.isEmpty()) {
            LOG.info("shutting down: waiting up to {} for {} running operations", timeout, running.size());
        }
        running = awaitRunning(timeout);
        for (JobExecutionContext c : running) {
            LOG.warn(
                    "{} {}: still running after the shutdown timeout of {}; interrupted",
                    c.getJobDetail().getKey().getGroup(),
                    c.getJobDetail().getKey().getName(),
                    timeout);
            scheduler.interrupt(c.getFireInstanceId());
        }
        if (!running.isEmpty()) {
            running = awaitRunning(INTERRUPT_GRACE);
        }
        // waiting for jobs lets Quartz record their completion before its store closes
        scheduler.shutdown(running.isEmpty());
        if (config.store().clustered() && quartzStarted) {
            leaveCluster();
        }
        try {
            database.close();
        } finally {
            // after Quartz: no operation uses a cluster's client any more
            compactions.close();
            state = State.STOPPED;
        }
        LOG.info("scheduler stopped");
    }
}
