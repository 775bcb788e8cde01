package io.strata.scheduler.quartz;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.strata.scheduler.config.SchedulerConfig.StoreConfig;
import java.sql.Connection;
import java.sql.SQLException;
import org.quartz.utils.ConnectionProvider;

/** Quartz's connections from a HikariCP pool of the job store; shut down with the scheduler. */
public final class HikariConnectionProvider implements ConnectionProvider {
    private final HikariDataSource pool;

    public HikariConnectionProvider(StoreConfig store, int maxConnections) {
        HikariConfig c = new HikariConfig();
        c.setJdbcUrl(store.jdbcUrl());
        c.setUsername(store.user());
        c.setPassword(store.password());
        c.setMaximumPoolSize(maxConnections);
        c.setPoolName("strata-scheduler-store");
        c.setAutoCommit(false);
        this.pool = new HikariDataSource(c);
    }

    public HikariDataSource dataSource() {
        return pool;
    }

    @Override
    public Connection getConnection() throws SQLException {
        return pool.getConnection();
    }

    @Override
    public void shutdown() {
        pool.close();
    }

    @Override
    public void initialize() {}
}
