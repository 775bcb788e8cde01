package io.strata.scheduler.lease;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * A scheduler database for one test: an H2 file (in AUTO_SERVER mode, so a child JVM can open it
 * too) or a fresh database in a real PostgreSQL. {@link #reopen()} closes every connection (for H2
 * that closes the database file) and opens a new pool on the same database.
 */
public final class TestDatabase implements AutoCloseable {
    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static final AtomicInteger POSTGRES_DATABASES = new AtomicInteger();

    private final String jdbcUrl;
    private final String user;
    private final String password;
    private HikariDataSource pool;

    private TestDatabase(String jdbcUrl, String user, String password) {
        this.jdbcUrl = jdbcUrl;
        this.user = user;
        this.password = password;
        this.pool = newPool();
    }

    public static TestDatabase h2(Path directory) {
        return new TestDatabase(
                "jdbc:h2:file:" + directory.resolve("scheduler").toAbsolutePath() + ";AUTO_SERVER=TRUE", "sa", "");
    }

    /** A new, empty database in {@code postgres}. */
    public static TestDatabase postgres(EmbeddedPostgres postgres) {
        return createPostgres(postgres, "scheduler_" + POSTGRES_DATABASES.incrementAndGet());
    }

    /** A new, empty database {@code name} in {@code postgres}. */
    public static TestDatabase createPostgres(EmbeddedPostgres postgres, String name) {
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot create PostgreSQL database " + name, e);
        }
        return new TestDatabase(postgres.getJdbcUrl("postgres", name), "postgres", "postgres");
    }

    /** The database {@code name} created earlier, for instance before a server restart. */
    public static TestDatabase existingPostgres(EmbeddedPostgres postgres, String name) {
        return new TestDatabase(postgres.getJdbcUrl("postgres", name), "postgres", "postgres");
    }

    /** A PostgreSQL server for one test class; the caller closes it. */
    public static EmbeddedPostgres startPostgres() {
        try {
            return EmbeddedPostgres.builder().start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start the embedded PostgreSQL", e);
        }
    }

    private HikariDataSource newPool() {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(12);
        config.setPoolName("test-" + DATABASES.incrementAndGet());
        return new HikariDataSource(config);
    }

    public DataSource dataSource() {
        return pool;
    }

    public void reopen() {
        pool.close();
        pool = newPool();
    }

    public String jdbcUrl() {
        return jdbcUrl;
    }

    public String user() {
        return user;
    }

    public String password() {
        return password;
    }

    @Override
    public void close() {
        pool.close();
    }
}
