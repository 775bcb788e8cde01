package io.strata.scheduler.lease;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * The lease tables, created idempotently; the same SQL on H2 and PostgreSQL. Times are epoch
 * milliseconds in BIGINT columns (no time-zone or TIMESTAMP-precision differences between the two).
 *
 * <ul>
 *   <li>{@code strata_lease_schema(name, version)}: one row named {@code lease}, the schema version
 *       ({@link #VERSION}); a database of a newer version is refused, naming both.
 *   <li>{@code strata_lease_table(table_name, last_epoch)}: one row per table ever leased, never
 *       deleted. Every acquisition and renewal of a table's lease locks this row first, which
 *       serializes them per table, and takes its epoch from it.
 *   <li>{@code strata_lease(table_name, epoch, operation, owner, acquired_at, expires_at)}: the
 *       leases granted and not released; rows past their expiry are dead and deleted by the next
 *       acquisition on the table.
 * </ul>
 */
final class LeaseSchema {
    static final int VERSION = 1;

    private static final String[] TABLES = {
        "CREATE TABLE IF NOT EXISTS strata_lease_schema (name VARCHAR(32) NOT NULL PRIMARY KEY, version INT NOT NULL)",
        "CREATE TABLE IF NOT EXISTS strata_lease_table ("
                + "table_name VARCHAR(1024) NOT NULL PRIMARY KEY, last_epoch BIGINT NOT NULL)",
        "CREATE TABLE IF NOT EXISTS strata_lease ("
                + "table_name VARCHAR(1024) NOT NULL, epoch BIGINT NOT NULL, operation VARCHAR(64) NOT NULL,"
                + " owner VARCHAR(256) NOT NULL, acquired_at BIGINT NOT NULL, expires_at BIGINT NOT NULL,"
                + " PRIMARY KEY (table_name, epoch))"
    };

    private LeaseSchema() {}

    /**
     * Creates the tables if missing and checks the version. Two processes may run this at once: a
     * creation that loses the race (PostgreSQL reports a duplicate catalog entry, relation or type,
     * for any of the tables) is retried, and then finds the tables.
     */
    static void ensure(DataSource dataSource) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                create(dataSource);
                break;
            } catch (SQLException e) {
                if (attempt == TABLES.length + 1 || !lostCreationRace(e)) {
                    throw e;
                }
            }
        }
        try {
            Transactions.inTransaction(dataSource, LeaseSchema::checkVersion);
        } catch (SQLException e) {
            if (!Transactions.duplicateKey(e)) {
                throw e;
            }
            Transactions.inTransaction(dataSource, LeaseSchema::checkVersion);
        }
    }

    /** A duplicate key in the catalog (23505), a duplicate relation (42P07) or type (42710). */
    static boolean lostCreationRace(SQLException e) {
        String state = e.getSQLState();
        return Transactions.duplicateKey(e) || "42P07".equals(state) || "42710".equals(state);
    }

    private static void create(DataSource dataSource) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement()) {
            connection.setAutoCommit(true);
            for (String ddl : TABLES) {
                statement.execute(ddl);
            }
        }
    }

    private static Void checkVersion(Connection connection) throws SQLException {
        try (PreparedStatement select =
                        connection.prepareStatement("SELECT version FROM strata_lease_schema WHERE name = 'lease'");
                ResultSet rows = select.executeQuery()) {
            if (rows.next()) {
                int found = rows.getInt(1);
                if (found != VERSION) {
                    throw new SQLException("The scheduler database holds lease schema version " + found
                            + "; this scheduler reads version " + VERSION + " only");
                }
                return null;
            }
        }
        // A second process inserting at the same time fails on the key; the retry then reads the row.
        try (PreparedStatement insert =
                connection.prepareStatement("INSERT INTO strata_lease_schema (name, version) VALUES ('lease', ?)")) {
            insert.setInt(1, VERSION);
            insert.executeUpdate();
        }
        return null;
    }
}
