package io.strata.scheduler.quartz;

import io.strata.scheduler.config.SchedulerConfig.StoreConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates Quartz's tables in an empty job store from the DDL the Quartz jar ships
 * ({@code tables_h2.sql}, {@code tables_postgres.sql}); a store that has them is left as it is,
 * so schedules survive restarts. The scripts' {@code DROP} and {@code COMMIT} statements are not
 * run: the tables are created only where none exist, in one transaction. On PostgreSQL, whose DDL
 * is transactional, a creation that loses the race with another process (two clustered schedulers
 * starting on an empty database) rolls back and finds the winner's tables.
 */
public final class JobStoreSchema {
    private static final Logger LOG = LoggerFactory.getLogger(JobStoreSchema.class);
    private static final String DDL_DIR = "org/quartz/impl/jdbcjobstore/";

    private JobStoreSchema() {}

    /** Creates the tables unless {@code QRTZ_JOB_DETAILS} exists; returns whether it created them. */
    public static boolean ensure(DataSource ds, StoreConfig store) throws SQLException {
        try (Connection c = ds.getConnection()) {
            if (exists(c.getMetaData(), "QRTZ_JOB_DETAILS")) {
                return false;
            }
            String script = script(store);
            boolean auto = c.getAutoCommit();
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                for (String sql : statements(read(script))) {
                    s.execute(sql);
                }
                c.commit();
            } catch (SQLException e) {
                c.rollback();
                if (exists(c.getMetaData(), "QRTZ_JOB_DETAILS")) {
                    // another scheduler of the cluster, starting too, created them first
                    LOG.info("the Quartz job store tables in {} were created by another process", store.jdbcUrl());
                    return false;
                }
                throw new SQLException("cannot create the Quartz tables from " + script + " in " + store.jdbcUrl(), e);
            } finally {
                c.setAutoCommit(auto);
            }
            LOG.info("created the Quartz job store tables in {} from {}", store.jdbcUrl(), script);
            return true;
        }
    }

    /**
     * Makes every stored job of {@code jobClass} request recovery, as the jobs this version stores
     * do: a store written before jobs requested it is brought up to date at start. Returns how many
     * jobs it changed.
     */
    static int requestRecovery(DataSource ds, String schedulerName, Class<?> jobClass) throws SQLException {
        try (Connection c = ds.getConnection();
                PreparedStatement update = c.prepareStatement("UPDATE QRTZ_JOB_DETAILS SET REQUESTS_RECOVERY = ?"
                        + " WHERE SCHED_NAME = ? AND JOB_CLASS_NAME = ? AND REQUESTS_RECOVERY = ?")) {
            boolean auto = c.getAutoCommit();
            c.setAutoCommit(true);
            try {
                update.setBoolean(1, true);
                update.setString(2, schedulerName);
                update.setString(3, jobClass.getName());
                update.setBoolean(4, false);
                return update.executeUpdate();
            } finally {
                c.setAutoCommit(auto);
            }
        }
    }

    private static String script(StoreConfig store) {
        if (store.isH2()) {
            return DDL_DIR + "tables_h2.sql";
        }
        if (store.isPostgres()) {
            return DDL_DIR + "tables_postgres.sql";
        }
        throw new IllegalArgumentException("no Quartz DDL for job store " + store.jdbcUrl());
    }

    static boolean exists(DatabaseMetaData meta, String table) throws SQLException {
        for (String name : List.of(table, table.toLowerCase(Locale.ROOT))) {
            try (ResultSet rs = meta.getTables(null, null, name, new String[] {"TABLE"})) {
                if (rs.next()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The statements of {@code script}, without comments, {@code DROP} and {@code COMMIT}. */
    static List<String> statements(String script) {
        StringBuilder code = new StringBuilder();
        for (String line : script.split("\n")) {
            String t = line.strip();
            if (!t.startsWith("--") && !t.startsWith("#")) {
                code.append(line).append('\n');
            }
        }
        List<String> out = new ArrayList<>();
        for (String sql : code.toString().split(";")) {
            String t = sql.strip();
            String upper = t.toUpperCase(Locale.ROOT);
            if (!t.isEmpty() && !upper.startsWith("DROP ") && !upper.equals("COMMIT")) {
                out.add(t);
            }
        }
        return out;
    }

    private static String read(String resource) {
        try (InputStream in = JobStoreSchema.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the Quartz jar has no " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
