package io.strata.scheduler.quartz;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.strata.scheduler.config.SchedulerConfig.StoreConfig;
import io.strata.scheduler.history.PauseStore;
import io.strata.scheduler.history.RunHistory;
import io.strata.scheduler.lease.LeaseStore;
import java.sql.SQLException;
import java.time.Clock;
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

    @Override
    public void close() {
        pool.close();
    }
}
