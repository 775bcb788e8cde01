package io.strata.scheduler.history;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Pauses per table and/or operation, persisted in the scheduler's database so they survive
 * restarts and are shared by clustered schedulers. The scheduler asks {@link #pausedBy} before it
 * fires an operation. In the table, {@value #ALL} in a key column stands for every table or every
 * operation; {@code *} is not a valid table or operation name.
 */
public final class PauseStore {
    static final String ALL = "*";

    private final DataSource dataSource;
    private final Clock clock;

    private PauseStore(DataSource dataSource, Clock clock) {
        this.dataSource = dataSource;
        this.clock = clock;
    }

    /** Opens the store, creating or checking its tables (shared with {@link RunHistory}). */
    public static PauseStore open(DataSource dataSource, Clock clock) throws SQLException {
        HistorySchema.ensure(Objects.requireNonNull(dataSource, "dataSource"));
        return new PauseStore(dataSource, Objects.requireNonNull(clock, "clock"));
    }

    /**
     * Pauses {@code operation} (every operation if empty) on {@code table} (every table if empty).
     * Pausing what is already paused keeps the first pause and returns false.
     */
    public boolean pause(Optional<String> table, Optional<String> operation, String pausedBy, Optional<String> reason)
            throws SQLException {
        String tableKey = key("table", table);
        String operationKey = key("operation", operation);
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement("INSERT INTO strata_pause"
                        + " (table_name, operation, paused_by, reason, paused_at) VALUES (?, ?, ?, ?, ?)")) {
            connection.setAutoCommit(true);
            insert.setString(1, tableKey);
            insert.setString(2, operationKey);
            insert.setString(3, pausedBy);
            insert.setString(4, reason.map(RunHistory::truncate).orElse(null));
            insert.setLong(5, clock.millis());
            insert.executeUpdate();
            return true;
        } catch (SQLException e) {
            if ("23505".equals(e.getSQLState())) {
                return false;
            }
            throw e;
        }
    }

    /** Removes exactly the pause of that scope; returns false if there was none. */
    public boolean resume(Optional<String> table, Optional<String> operation) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement delete = connection.prepareStatement(
                        "DELETE FROM strata_pause WHERE table_name = ? AND operation = ?")) {
            connection.setAutoCommit(true);
            delete.setString(1, key("table", table));
            delete.setString(2, key("operation", operation));
            return delete.executeUpdate() == 1;
        }
    }

    /** The pauses that hold back {@code operation} on {@code table}: exact, per table, per operation, global. */
    public List<Pause> pausedBy(String table, String operation) throws SQLException {
        List<Pause> covering = new ArrayList<>();
        for (Pause pause : pauses()) {
            if (pause.covers(table, operation)) {
                covering.add(pause);
            }
        }
        return covering;
    }

    /** Whether any pause holds back {@code operation} on {@code table}. */
    public boolean isPaused(String table, String operation) throws SQLException {
        return !pausedBy(table, operation).isEmpty();
    }

    /** Every pause, by table and operation. */
    public List<Pause> pauses() throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select =
                        connection.prepareStatement("SELECT table_name, operation, paused_by, reason,"
                                + " paused_at FROM strata_pause ORDER BY table_name, operation");
                ResultSet rows = select.executeQuery()) {
            List<Pause> pauses = new ArrayList<>();
            while (rows.next()) {
                pauses.add(new Pause(
                        scope(rows.getString(1)),
                        scope(rows.getString(2)),
                        rows.getString(3),
                        Optional.ofNullable(rows.getString(4)),
                        Instant.ofEpochMilli(rows.getLong(5))));
            }
            return pauses;
        }
    }

    private static Optional<String> scope(String key) {
        return ALL.equals(key) ? Optional.empty() : Optional.of(key);
    }

    private static String key(String what, Optional<String> name) {
        if (name.isEmpty()) {
            return ALL;
        }
        String value = name.get();
        if (value.isBlank() || ALL.equals(value)) {
            throw new IllegalArgumentException(
                    "A pause " + what + " must be a name, or omitted for every " + what + "; was '" + value + "'");
        }
        return value;
    }
}
