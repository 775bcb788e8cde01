package io.strata.scheduler.quartz;

import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.config.SchedulerConfig.StoreConfig;
import java.sql.SQLException;
import java.util.Properties;
import java.util.UUID;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.impl.StdSchedulerFactory;
import org.quartz.utils.DBConnectionManager;

/**
 * A Quartz scheduler on a JDBC job store ({@code JobStoreTX}): an H2 file or PostgreSQL, through a
 * HikariCP pool, its tables created on first use. With {@code store.clustered} (PostgreSQL only)
 * the schedulers sharing the store form one Quartz cluster: each trigger fires on one of them, the
 * instance id is the {@code scheduler-id} (unique per process), and a fire whose scheduler stops
 * checking in is recovered by another ({@code requestRecovery} on every job; the recovered fire
 * waits for the dead holder's lease, {@link OperationGuard#awaitRecovery}). Created in standby;
 * {@code start()} begins firing.
 */
public final class QuartzScheduler {
    /** Quartz keys its rows by this name: it must stay the same across restarts. */
    static final String INSTANCE_NAME = "strata-scheduler";

    private QuartzScheduler() {}

    public static Scheduler create(SchedulerConfig config, OperationDispatcher dispatcher)
            throws SchedulerException, SQLException {
        StoreConfig store = config.store();
        // Quartz's own threads plus the misfire handler and the schema check
        HikariConnectionProvider pool = new HikariConnectionProvider(store, config.maxConcurrentOperations() + 3);
        try {
            JobStoreSchema.ensure(pool.dataSource(), store);
        } catch (SQLException | RuntimeException e) {
            pool.shutdown();
            throw e;
        }
        String dataSource = "strata-store-" + UUID.randomUUID();
        DBConnectionManager.getInstance().addConnectionProvider(dataSource, pool);
        Properties p = new Properties();
        p.setProperty(StdSchedulerFactory.PROP_SCHED_INSTANCE_NAME, INSTANCE_NAME);
        p.setProperty(StdSchedulerFactory.PROP_SCHED_INSTANCE_ID, store.clustered() ? config.schedulerId() : "local");
        p.setProperty("org.quartz.scheduler.skipUpdateCheck", "true");
        p.setProperty("org.quartz.threadPool.class", "org.quartz.simpl.SimpleThreadPool");
        p.setProperty("org.quartz.threadPool.threadCount", String.valueOf(config.maxConcurrentOperations()));
        p.setProperty("org.quartz.threadPool.threadNamePrefix", "strata-operation");
        p.setProperty("org.quartz.jobStore.class", "org.quartz.impl.jdbcjobstore.JobStoreTX");
        p.setProperty(
                "org.quartz.jobStore.driverDelegateClass",
                store.isPostgres()
                        ? "org.quartz.impl.jdbcjobstore.PostgreSQLDelegate"
                        : "org.quartz.impl.jdbcjobstore.StdJDBCDelegate");
        p.setProperty("org.quartz.jobStore.dataSource", dataSource);
        p.setProperty("org.quartz.jobStore.useProperties", "true");
        p.setProperty("org.quartz.jobStore.misfireThreshold", "60000");
        p.setProperty("org.quartz.jobStore.isClustered", String.valueOf(store.clustered()));
        if (store.clustered()) {
            p.setProperty(
                    "org.quartz.jobStore.clusterCheckinInterval",
                    String.valueOf(store.clusterCheckinInterval().toMillis()));
            // one acquisition at a time across the cluster: no trigger is acquired twice
            p.setProperty("org.quartz.jobStore.acquireTriggersWithinLock", "true");
        }
        Scheduler s = new StdSchedulerFactory(p).getScheduler();
        s.getContext().put(OperationJob.DISPATCHER, dispatcher);
        dispatcher.attach(s);
        return s;
    }
}
