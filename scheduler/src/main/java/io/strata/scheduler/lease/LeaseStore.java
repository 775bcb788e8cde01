package io.strata.scheduler.lease;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Per-table leases in the scheduler's database (H2 or PostgreSQL), safe across processes.
 *
 * <p>Atomicity: acquisition and renewal of a table's lease run in one READ COMMITTED transaction
 * that first locks the table's row in {@code strata_lease_table} ({@code SELECT ... FOR UPDATE}).
 * So they are serialized per table on both databases, and each statement after the lock reads
 * every lease committed before it; the check for a conflicting live lease and the insert of the new
 * one cannot interleave with another acquisition's.
 *
 * <p>Fencing: the epoch of a granted lease is the table's {@code last_epoch} plus one, written in
 * the same transaction; that row is never deleted, so epochs of a table only grow, across
 * operations, releases and restarts.
 *
 * <p>Time: expiry is decided with the injected {@link Clock} of the calling process (a lease is
 * live while {@code now < expires_at}). Another process's clock may differ by a skew {@code s};
 * then its holder's lease may look expired to this process up to {@code s} early. A holder that
 * renews every {@code r} with renewal latency {@code l} keeps its lease as long as {@code r + l + s
 * < ttl}; {@link LeaseKeeper} renews at a fraction of the TTL to leave that margin. Beyond it,
 * the cost is wasted work only: correctness never depends on the lease, as two compactions that
 * meet are resolved by the table's commit protocol.
 *
 * <p>A lease is not reentrant: an owner asking again for a conflicting operation on a table it
 * holds is held back by its own lease.
 */
public final class LeaseStore {
    static final int MAX_TABLE_LENGTH = 1024;
    static final int MAX_OWNER_LENGTH = 256;

    private static final String COLUMNS = "table_name, epoch, operation, owner, acquired_at, expires_at";

    private final DataSource dataSource;
    private final Clock clock;

    private LeaseStore(DataSource dataSource, Clock clock) {
        this.dataSource = dataSource;
        this.clock = clock;
    }

    /** Opens the store, creating or checking its tables (idempotent; see {@link LeaseSchema}). */
    public static LeaseStore open(DataSource dataSource, Clock clock) throws SQLException {
        LeaseSchema.ensure(Objects.requireNonNull(dataSource, "dataSource"));
        return new LeaseStore(dataSource, Objects.requireNonNull(clock, "clock"));
    }

    public Clock clock() {
        return clock;
    }

    /**
     * Grants {@code owner} a lease on {@code table} for {@code operation} until now plus {@code ttl},
     * unless a live lease on the table conflicts ({@link LeaseOperation#conflictsWith}); then returns
     * the conflicting leases. Expired leases of the table are deleted on the way.
     */
    public LeaseAcquisition acquire(String table, LeaseOperation operation, String owner, Duration ttl)
            throws SQLException {
        checkName("table", table, MAX_TABLE_LENGTH);
        checkName("owner", owner, MAX_OWNER_LENGTH);
        Objects.requireNonNull(operation, "operation");
        checkTtl(ttl);
        ensureTableRow(table);
        return Transactions.inTransaction(dataSource, connection -> {
            long lastEpoch = lockTable(connection, table);
            long now = clock.millis();
            List<Lease> blockers = new ArrayList<>();
            for (Lease lease : live(connection, table, now)) {
                if (lease.blocks(operation)) {
                    blockers.add(lease);
                }
            }
            if (!blockers.isEmpty()) {
                return LeaseAcquisition.blocked(blockers);
            }
            deleteExpired(connection, table, now);
            Lease lease = new Lease(
                    table,
                    operation.id(),
                    owner,
                    lastEpoch + 1,
                    Instant.ofEpochMilli(now),
                    Instant.ofEpochMilli(now + ttl.toMillis()));
            try (PreparedStatement update =
                    connection.prepareStatement("UPDATE strata_lease_table SET last_epoch = ? WHERE table_name = ?")) {
                update.setLong(1, lease.epoch());
                update.setString(2, table);
                update.executeUpdate();
            }
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO strata_lease (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?)")) {
                insert.setString(1, table);
                insert.setLong(2, lease.epoch());
                insert.setString(3, lease.operationId());
                insert.setString(4, owner);
                insert.setLong(5, lease.acquiredAt().toEpochMilli());
                insert.setLong(6, lease.expiresAt().toEpochMilli());
                insert.executeUpdate();
            }
            return LeaseAcquisition.granted(lease);
        });
    }

    /**
     * Extends {@code lease} to now plus {@code ttl} if its holder still holds it: the row of that
     * table, epoch and owner exists and has not expired. Empty when the lease was lost; a lost
     * lease is never revived.
     */
    public Optional<Lease> renew(Lease lease, Duration ttl) throws SQLException {
        checkTtl(ttl);
        return Transactions.inTransaction(dataSource, connection -> {
            lockTable(connection, lease.table());
            long now = clock.millis();
            long expiresAt = now + ttl.toMillis();
            try (PreparedStatement update = connection.prepareStatement("UPDATE strata_lease SET expires_at = ?"
                    + " WHERE table_name = ? AND epoch = ? AND owner = ? AND expires_at > ?")) {
                update.setLong(1, expiresAt);
                update.setString(2, lease.table());
                update.setLong(3, lease.epoch());
                update.setString(4, lease.owner());
                update.setLong(5, now);
                if (update.executeUpdate() != 1) {
                    return Optional.empty();
                }
            }
            return Optional.of(new Lease(
                    lease.table(),
                    lease.operationId(),
                    lease.owner(),
                    lease.epoch(),
                    lease.acquiredAt(),
                    Instant.ofEpochMilli(expiresAt)));
        });
    }

    /** Deletes {@code lease} if it is still stored under its epoch and owner; false otherwise. */
    public boolean release(Lease lease) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement delete = connection.prepareStatement(
                        "DELETE FROM strata_lease WHERE table_name = ? AND epoch = ? AND owner = ?")) {
            connection.setAutoCommit(true);
            delete.setString(1, lease.table());
            delete.setLong(2, lease.epoch());
            delete.setString(3, lease.owner());
            return delete.executeUpdate() == 1;
        }
    }

    /**
     * Breaks the live lease of {@code table} under {@code epoch}, whoever holds it (an operator's
     * remedy for a holder that hangs while renewing): the row goes, so the holder's next renewal
     * fails and it stops as having lost its lease, and the next lease of the table gets a higher
     * epoch, fencing it. Returns the lease broken, or empty when none is live under that epoch.
     */
    public Optional<Lease> breakLease(String table, long epoch) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(true);
            for (Lease live : live(connection, table, clock.millis())) {
                if (live.epoch() != epoch) {
                    continue;
                }
                try (PreparedStatement delete = connection.prepareStatement(
                        "DELETE FROM strata_lease WHERE table_name = ? AND epoch = ? AND owner = ?")) {
                    delete.setString(1, table);
                    delete.setLong(2, epoch);
                    delete.setString(3, live.owner());
                    return delete.executeUpdate() == 1 ? Optional.of(live) : Optional.empty();
                }
            }
            return Optional.empty();
        }
    }

    /** Whether {@code lease}'s holder still holds it now (stored under its epoch and owner, live). */
    public boolean isHeld(Lease lease) throws SQLException {
        long now = clock.millis();
        for (Lease live : live(lease.table())) {
            if (live.epoch() == lease.epoch()
                    && live.owner().equals(lease.owner())
                    && live.liveAt(Instant.ofEpochMilli(now))) {
                return true;
            }
        }
        return false;
    }

    /** The live leases on {@code table}, by epoch. */
    public List<Lease> live(String table) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            return live(connection, table, clock.millis());
        }
    }

    /** The live leases on every table, by table and epoch (for status pages and metrics). */
    public List<Lease> live() throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT " + COLUMNS + " FROM strata_lease WHERE expires_at > ? ORDER BY table_name, epoch")) {
            select.setLong(1, clock.millis());
            return read(select);
        }
    }

    /** The epoch the table's next lease will exceed: its last granted epoch, 0 if never leased. */
    public long lastEpoch(String table) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select =
                        connection.prepareStatement("SELECT last_epoch FROM strata_lease_table WHERE table_name = ?")) {
            select.setString(1, table);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? rows.getLong(1) : 0;
            }
        }
    }

    private static List<Lease> live(Connection connection, String table, long now) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT " + COLUMNS + " FROM strata_lease WHERE table_name = ? AND expires_at > ? ORDER BY epoch")) {
            select.setString(1, table);
            select.setLong(2, now);
            return read(select);
        }
    }

    private static List<Lease> read(PreparedStatement select) throws SQLException {
        List<Lease> leases = new ArrayList<>();
        try (ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                leases.add(new Lease(
                        rows.getString(1),
                        rows.getString(3),
                        rows.getString(4),
                        rows.getLong(2),
                        Instant.ofEpochMilli(rows.getLong(5)),
                        Instant.ofEpochMilli(rows.getLong(6))));
            }
        }
        return leases;
    }

    private static void deleteExpired(Connection connection, String table, long now) throws SQLException {
        try (PreparedStatement delete =
                connection.prepareStatement("DELETE FROM strata_lease WHERE table_name = ? AND expires_at <= ?")) {
            delete.setString(1, table);
            delete.setLong(2, now);
            delete.executeUpdate();
        }
    }

    /** Locks the table's epoch row for the rest of the transaction and returns its last epoch. */
    private static long lockTable(Connection connection, String table) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT last_epoch FROM strata_lease_table WHERE table_name = ? FOR UPDATE")) {
            select.setString(1, table);
            try (ResultSet rows = select.executeQuery()) {
                if (!rows.next()) {
                    throw new SQLException("No lease row for table '" + table + "' (never acquired)");
                }
                return rows.getLong(1);
            }
        }
    }

    /** Inserts the table's epoch row at 0 if missing; another process inserting it first is fine. */
    private void ensureTableRow(String table) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(true);
            try (PreparedStatement select =
                    connection.prepareStatement("SELECT 1 FROM strata_lease_table WHERE table_name = ?")) {
                select.setString(1, table);
                try (ResultSet rows = select.executeQuery()) {
                    if (rows.next()) {
                        return;
                    }
                }
            }
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO strata_lease_table (table_name, last_epoch) VALUES (?, 0)")) {
                insert.setString(1, table);
                insert.executeUpdate();
            } catch (SQLException e) {
                if (!Transactions.duplicateKey(e)) {
                    throw e;
                }
            }
        }
    }

    private static void checkName(String what, String value, int maxLength) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("A lease needs a non-blank " + what);
        }
        if (value.length() > maxLength) {
            throw new IllegalArgumentException("Lease " + what + " '" + value.substring(0, 40) + "...' is "
                    + value.length() + " characters; at most " + maxLength);
        }
    }

    private static void checkTtl(Duration ttl) {
        if (ttl == null || ttl.toMillis() <= 0) {
            throw new IllegalArgumentException("A lease TTL must be positive, was " + ttl);
        }
    }
}
