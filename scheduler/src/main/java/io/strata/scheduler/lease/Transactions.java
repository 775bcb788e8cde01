package io.strata.scheduler.lease;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Runs a unit of work in one READ COMMITTED transaction, retrying it when the database gave up
 * waiting for a row lock or broke a deadlock (the work then saw nothing commit, so it may rerun).
 */
final class Transactions {
    private static final int ATTEMPTS = 5;

    @FunctionalInterface
    interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    private Transactions() {}

    static <T> T inTransaction(DataSource dataSource, Work<T> work) throws SQLException {
        SQLException last = null;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            try (Connection connection = dataSource.getConnection()) {
                connection.setAutoCommit(false);
                connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
                try {
                    T result = work.run(connection);
                    connection.commit();
                    return result;
                } catch (SQLException | RuntimeException e) {
                    connection.rollback();
                    throw e;
                } finally {
                    connection.setAutoCommit(true);
                }
            } catch (SQLException e) {
                if (!retryable(e)) {
                    throw e;
                }
                last = e;
            }
        }
        throw last;
    }

    /** Lock timeout (H2: HYT00), serialization failure or deadlock (40001, PostgreSQL 40P01). */
    static boolean retryable(SQLException e) {
        String state = e.getSQLState();
        return "HYT00".equals(state) || "40001".equals(state) || "40P01".equals(state);
    }

    /** A unique or primary key was violated (the same SQLSTATE on H2 and PostgreSQL). */
    static boolean duplicateKey(SQLException e) {
        return "23505".equals(e.getSQLState());
    }
}
