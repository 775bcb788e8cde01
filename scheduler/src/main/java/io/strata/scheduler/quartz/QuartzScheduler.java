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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Quartz scheduler on a JDBC job store ({@code JobStoreTX}): an H2 file or PostgreSQL, through a
 * HikariCP pool, its tables created on first use. Created in standby; {@code start()} begins firing.
 *
 * <p>Its instance id is the config's {@code scheduler-id}. Every job requests recovery: a job whose
 * scheduler died while it ran is re-fired ({@link org.quartz.JobExecutionContext#isRecovering()})
 * under a trigger that names the dead instance, which {@link OperationJob} hands to the dispatcher
 * as the dead owner ({@link FireRecovery}).
 *
 * <ul>
 *   <li>Not clustered (the default): one scheduler process per store. A job it was running when it
 *       died is re-fired when it starts again.
 *   <li>Clustered ({@code store.clustered: true}, PostgreSQL only): any number of processes, each
 *       with its own {@code scheduler-id}, share the store. A trigger is acquired under Quartz's
 *       row lock ({@code acquireTriggersWithinLock}), so each fire runs on one node only; every
 *       node checks in every {@code cluster-checkin-interval}, and one that missed its check-in by
 *       that interval plus 7.5 s is counted failed by the next node to check in, which re-fires
 *       the jobs it was running. Every node must run with the same tables and schedules: each one
 *       brings the job store in line with its own config ({@link ScheduleSync}).
 * </ul>
 */
public final class QuartzScheduler {
    private static final Logger LOG = LoggerFactory.getLogger(QuartzScheduler.class);
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
            int upgraded = JobStoreSchema.requestRecovery(pool.dataSource(), INSTANCE_NAME, OperationJob.class);
            if (upgraded > 0) {
                LOG.info("{} stored jobs now request recovery", upgraded);
            }
        } catch (SQLException | RuntimeException e) {
            pool.shutdown();
            throw e;
        }
        String dataSource = "strata-store-" + UUID.randomUUID();
        DBConnectionManager.getInstance().addConnectionProvider(dataSource, pool);
        Properties p = new Properties();
        p.setProperty(StdSchedulerFactory.PROP_SCHED_INSTANCE_NAME, INSTANCE_NAME);
        p.setProperty(StdSchedulerFactory.PROP_SCHED_INSTANCE_ID, config.schedulerId());
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
            // select and update of an acquired trigger under the TRIGGER_ACCESS row lock: one node per fire
            p.setProperty("org.quartz.jobStore.acquireTriggersWithinLock", "true");
        }
        Scheduler s = new StdSchedulerFactory(p).getScheduler();
        s.getContext().put(OperationJob.DISPATCHER, dispatcher);
        dispatcher.attach(s);
        return s;
    }
}
