package io.strata.scheduler.history;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The scheduler's run history in its database (H2 or PostgreSQL): one row per run, written at
 * start and completed at the end, so a process that dies leaves its runs {@link RunOutcome#RUNNING}
 * until {@link #markInterrupted(String)} finds them at its next start, or another scheduler of its
 * cluster that re-fires its work marks them ({@link #markInterrupted(String, String, String,
 * String)}). {@link #prune} keeps the table bounded for a scheduler that runs for weeks.
 */
public final class RunHistory {
    /** Bound on the stored held-back and error texts, in characters; longer texts are cut. */
    public static final int MAX_TEXT_LENGTH = 4000;

    private static final String TRUNCATED = "... [truncated]";
    private static final String COLUMNS = "id, table_name, operation, fire_id, owner, started_at, ended_at, outcome,"
            + " snapshots_expired, files_deleted, bytes_freed, rows_compacted, held_back, error,"
            + " changelogs_expired, partitions_expired, tags_created";

    private final DataSource dataSource;
    private final Clock clock;

    private RunHistory(DataSource dataSource, Clock clock) {
        this.dataSource = dataSource;
        this.clock = clock;
    }

    /** Opens the history, creating or checking its tables (idempotent; see {@link HistorySchema}). */
    public static RunHistory open(DataSource dataSource, Clock clock) throws SQLException {
        HistorySchema.ensure(Objects.requireNonNull(dataSource, "dataSource"));
        return new RunHistory(dataSource, Objects.requireNonNull(clock, "clock"));
    }

    /** Records a run of {@code operation} on {@code table} starting now; returns its id. */
    public long start(String table, String operation, Optional<String> fireId, String owner) throws SQLException {
        return insert(table, operation, fireId, owner, RunOutcome.RUNNING, RunCounters.NONE, Optional.empty());
    }

    /** Records that a firing was skipped, and why (start and end now). */
    public long skipped(String table, String operation, Optional<String> fireId, String owner, String heldBack)
            throws SQLException {
        return insert(table, operation, fireId, owner, RunOutcome.SKIPPED, RunCounters.NONE, Optional.of(heldBack));
    }

    private long insert(
            String table,
            String operation,
            Optional<String> fireId,
            String owner,
            RunOutcome outcome,
            RunCounters counters,
            Optional<String> heldBack)
            throws SQLException {
        requireText("table", table, 1024);
        requireText("operation", operation, 64);
        requireText("owner", owner, 256);
        long now = clock.millis();
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO strata_run (table_name, operation, fire_id, owner, started_at, ended_at, outcome,"
                                + " snapshots_expired, files_deleted, bytes_freed, rows_compacted, held_back,"
                                + " changelogs_expired, partitions_expired, tags_created)"
                                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        Statement.RETURN_GENERATED_KEYS)) {
            connection.setAutoCommit(true);
            insert.setString(1, table);
            insert.setString(2, operation);
            insert.setString(3, fireId.map(id -> truncate(id, 256)).orElse(null));
            insert.setString(4, owner);
            insert.setLong(5, now);
            if (outcome == RunOutcome.RUNNING) {
                insert.setNull(6, Types.BIGINT);
            } else {
                insert.setLong(6, now);
            }
            insert.setString(7, outcome.name());
            insert.setLong(8, counters.snapshotsExpired());
            insert.setLong(9, counters.filesDeleted());
            insert.setLong(10, counters.bytesFreed());
            insert.setLong(11, counters.rowsCompacted());
            insert.setString(12, heldBack.map(RunHistory::truncate).orElse(null));
            insert.setLong(13, counters.changelogsExpired());
            insert.setLong(14, counters.partitionsExpired());
            insert.setLong(15, counters.tagsCreated());
            insert.executeUpdate();
            // The id is the first column (H2 returns the identity column, PostgreSQL every column).
            try (ResultSet keys = insert.getGeneratedKeys()) {
                if (!keys.next()) {
                    throw new SQLException(
                            "The database returned no id for the run of " + operation + " on table '" + table + "'");
                }
                return keys.getLong(1);
            }
        }
    }

    /**
     * Completes run {@code id} now with {@code result}. Throws if the run does not exist or is not
     * running (finished twice, or marked interrupted after its owner was presumed dead).
     */
    public void finish(long id, RunResult result) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement update =
                        connection.prepareStatement("UPDATE strata_run SET ended_at = ?, outcome = ?,"
                                + " snapshots_expired = ?, files_deleted = ?, bytes_freed = ?, rows_compacted = ?,"
                                + " held_back = ?, error = ?, changelogs_expired = ?, partitions_expired = ?,"
                                + " tags_created = ? WHERE id = ? AND outcome = ?")) {
            connection.setAutoCommit(true);
            RunCounters counters = result.counters();
            update.setLong(1, clock.millis());
            update.setString(2, result.outcome().name());
            update.setLong(3, counters.snapshotsExpired());
            update.setLong(4, counters.filesDeleted());
            update.setLong(5, counters.bytesFreed());
            update.setLong(6, counters.rowsCompacted());
            update.setString(7, result.heldBack().map(RunHistory::truncate).orElse(null));
            update.setString(8, result.error().map(RunHistory::truncate).orElse(null));
            update.setLong(9, counters.changelogsExpired());
            update.setLong(10, counters.partitionsExpired());
            update.setLong(11, counters.tagsCreated());
            update.setLong(12, id);
            update.setString(13, RunOutcome.RUNNING.name());
            if (update.executeUpdate() != 1) {
                throw new IllegalStateException("Run " + id + " cannot finish as " + result.outcome() + ": "
                        + find(id).map(run -> "it is " + run.outcome()).orElse("no such run"));
            }
        }
    }

    /** The run with {@code id}, if recorded and not pruned. */
    public Optional<Run> find(long id) throws SQLException {
        List<Run> runs = query("SELECT " + COLUMNS + " FROM strata_run WHERE id = ?", List.of(id));
        return runs.stream().findFirst();
    }

    /** The latest {@code limit} runs, newest first, of every table or of {@code table} only. */
    public List<Run> recent(Optional<String> table, int limit) throws SQLException {
        if (limit <= 0) {
            throw new IllegalArgumentException("A history limit must be positive, was " + limit);
        }
        if (table.isPresent()) {
            return query(
                    "SELECT " + COLUMNS + " FROM strata_run WHERE table_name = ? ORDER BY id DESC LIMIT ?",
                    List.of(table.get(), limit));
        }
        return query("SELECT " + COLUMNS + " FROM strata_run ORDER BY id DESC LIMIT ?", List.of(limit));
    }

    /** The latest successful run of {@code operation} on {@code table}. */
    public Optional<Run> lastSuccess(String table, String operation) throws SQLException {
        return query(
                        "SELECT " + COLUMNS + " FROM strata_run WHERE table_name = ? AND operation = ? AND outcome = ?"
                                + " ORDER BY id DESC LIMIT 1",
                        List.of(table, operation, RunOutcome.SUCCEEDED.name()))
                .stream()
                .findFirst();
    }

    /** The latest successful run of every (table, operation) that has one, by table and operation. */
    public List<Run> lastSuccesses() throws SQLException {
        return query(
                "SELECT " + COLUMNS + " FROM strata_run WHERE id IN (SELECT MAX(id) FROM strata_run WHERE outcome = ?"
                        + " GROUP BY table_name, operation) ORDER BY table_name, operation",
                List.of(RunOutcome.SUCCEEDED.name()));
    }

    /** The runs not finished yet, oldest first (including those of dead processes not yet marked). */
    public List<Run> running() throws SQLException {
        return query(
                "SELECT " + COLUMNS + " FROM strata_run WHERE outcome = ? ORDER BY id",
                List.of(RunOutcome.RUNNING.name()));
    }

    /**
     * Marks every run {@code owner} left running as {@link RunOutcome#INTERRUPTED}, ended now. A
     * scheduler calls this at start-up with its own owner name before it starts any run: runs still
     * running under that name belong to an earlier process that died. Returns how many it marked.
     */
    public int markInterrupted(String owner) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement update = connection.prepareStatement(
                        "UPDATE strata_run SET ended_at = ?, outcome = ?, error = ? WHERE owner = ? AND outcome = ?")) {
            connection.setAutoCommit(true);
            update.setLong(1, clock.millis());
            update.setString(2, RunOutcome.INTERRUPTED.name());
            update.setString(
                    3,
                    "Left running by an earlier process of owner '" + truncate(owner, 256)
                            + "' that stopped before the run ended");
            update.setString(4, owner);
            update.setString(5, RunOutcome.RUNNING.name());
            return update.executeUpdate();
        }
    }

    /**
     * Marks the runs of {@code operation} on {@code table} that {@code owner} left running as
     * {@link RunOutcome#INTERRUPTED}, ended now, with {@code reason} as their error. Another
     * scheduler calls this when it takes over the work of {@code owner}, dead, after the lease that
     * owner held for the run expired (so it can no longer finish the run). Returns how many it
     * marked.
     */
    public int markInterrupted(String owner, String table, String operation, String reason) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement update =
                        connection.prepareStatement("UPDATE strata_run SET ended_at = ?, outcome = ?,"
                                + " error = ? WHERE owner = ? AND table_name = ? AND operation = ? AND outcome = ?")) {
            connection.setAutoCommit(true);
            update.setLong(1, clock.millis());
            update.setString(2, RunOutcome.INTERRUPTED.name());
            update.setString(3, truncate(reason));
            update.setString(4, owner);
            update.setString(5, table);
            update.setString(6, operation);
            update.setString(7, RunOutcome.RUNNING.name());
            return update.executeUpdate();
        }
    }

    /** Deletes the finished runs that ended more than {@code retention} ago; returns how many. */
    public int prune(Duration retention) throws SQLException {
        if (retention.isNegative()) {
            throw new IllegalArgumentException("A history retention cannot be negative, was " + retention);
        }
        try (Connection connection = dataSource.getConnection();
                PreparedStatement delete = connection.prepareStatement(
                        "DELETE FROM strata_run WHERE ended_at IS NOT NULL AND ended_at < ?")) {
            connection.setAutoCommit(true);
            delete.setLong(1, clock.millis() - retention.toMillis());
            return delete.executeUpdate();
        }
    }

    private List<Run> query(String sql, List<Object> parameters) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.size(); i++) {
                Object parameter = parameters.get(i);
                if (parameter instanceof String text) {
                    select.setString(i + 1, text);
                } else {
                    select.setLong(i + 1, ((Number) parameter).longValue());
                }
            }
            List<Run> runs = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    runs.add(read(rows));
                }
            }
            return runs;
        }
    }

    private static Run read(ResultSet rows) throws SQLException {
        long endedAt = rows.getLong(7);
        Optional<Instant> end = rows.wasNull() ? Optional.empty() : Optional.of(Instant.ofEpochMilli(endedAt));
        return new Run(
                rows.getLong(1),
                rows.getString(2),
                rows.getString(3),
                Optional.ofNullable(rows.getString(4)),
                rows.getString(5),
                Instant.ofEpochMilli(rows.getLong(6)),
                end,
                RunOutcome.valueOf(rows.getString(8)),
                new RunCounters(
                        rows.getLong(9),
                        rows.getLong(10),
                        rows.getLong(11),
                        rows.getLong(12),
                        rows.getLong(15),
                        rows.getLong(16),
                        rows.getLong(17)),
                Optional.ofNullable(rows.getString(13)),
                Optional.ofNullable(rows.getString(14)));
    }

    static String truncate(String text) {
        return truncate(text, MAX_TEXT_LENGTH);
    }

    private static String truncate(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max - TRUNCATED.length()) + TRUNCATED;
    }

    private static void requireText(String what, String value, int maxLength) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("A run needs a non-blank " + what);
        }
        if (value.length() > maxLength) {
            throw new IllegalArgumentException(
                    "Run " + what + " is " + value.length() + " characters; at most " + maxLength);
        }
    }
}
