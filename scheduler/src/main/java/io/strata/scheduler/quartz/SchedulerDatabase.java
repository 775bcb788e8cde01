package io.strata.scheduler.quartz;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.strata.scheduler.config.SchedulerConfig.StoreConfig;
import io.strata.scheduler.history.PauseStore;
import io.strata.scheduler.history.RunHistory;
import io.strata.scheduler.lease.LeaseStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * The scheduler's database beside Quartz's tables (the same H2 file or JDBC URL): one HikariCP
 * pool, owned and closed by whoever opens it (the service, or a CLI command that reads it while
 * the service runs), with the lease store, the run history and the pauses on it.
 */
public final class SchedulerDatabase implements AutoCloseable {
    private final HikariDataSource pool;
    private final LeaseStore leases;
    private final RunHistory history;
    private final PauseStore pauses;

    private SchedulerDatabase(HikariDataSource pool, Clock clock) throws SQLException {
        this.pool = pool;
        this.leases = LeaseStore.open(pool, clock);
        this.history = RunHistory.open(pool, clock);
        this.pauses = PauseStore.open(pool, clock);
    }

    /** Opens the database of {@code store} with at most {@code maxConnections}, creating its tables. */
    public static SchedulerDatabase open(StoreConfig store, int maxConnections, Clock clock) throws SQLException {
        HikariConfig c = new HikariConfig();
        c.setJdbcUrl(store.jdbcUrl());
        c.setUsername(store.user());
        c.setPassword(store.password());
        c.setMaximumPoolSize(maxConnections);
        c.setMinimumIdle(1);
        c.setPoolName("strata-scheduler-state");
        HikariDataSource pool = new HikariDataSource(c);
        try {
            return new SchedulerDatabase(pool, clock);
        } catch (SQLException | RuntimeException e) {
            pool.close();
            throw e;
        }
    }

    public DataSource dataSource() {
        return pool;
    }

    public LeaseStore leases() {
        return leases;
    }

    public RunHistory history() {
        return history;
    }

    public PauseStore pauses() {
        return pauses;
    }

    /** The next fire of one stored trigger: of {@code operation} on {@code table}. */
    public record NextFire(String table, String operation, Instant at, String state) {}

    /**
     * The next fire times of the schedules in Quartz's job store, by table and operation, read from
     * its tables (so a second process sees them while the service runs); none before the service
     * first created the job store.
     */
    public List<NextFire> nextFires() throws SQLException {
        List<NextFire> fires = new ArrayList<>();
        try (Connection c = pool.getConnection()) {
            if (!JobStoreSchema.exists(c.getMetaData(), "QRTZ_TRIGGERS")) {
                return fires;
            }
            try (PreparedStatement select = c.prepareStatement("SELECT JOB_GROUP, JOB_NAME, NEXT_FIRE_TIME,"
                    + " TRIGGER_STATE FROM QRTZ_TRIGGERS WHERE SCHED_NAME = ? AND NEXT_FIRE_TIME IS NOT NULL"
                    + " ORDER BY JOB_GROUP, JOB_NAME, NEXT_FIRE_TIME")) {
                select.setString(1, QuartzScheduler.INSTANCE_NAME);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        long at = rows.getLong(3);
                        if (at > 0) {
                            fires.add(new NextFire(
                                    rows.getString(1), rows.getString(2), Instant.ofEpochMilli(at), rows.getString(4)));
                        }
                    }
                }
            }
        }
        return fires;
    }

    @Override
    public void close() {
        pool.close();
    }
}
