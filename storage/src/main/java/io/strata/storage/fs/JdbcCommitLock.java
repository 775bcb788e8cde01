package io.strata.storage.fs;

import java.io.IOException;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A {@link CommitLock} kept as one row per lock key (a table location) in a database table,
 * {@value #TABLE}, created when absent: H2 for the committers of one machine, PostgreSQL (or any
 * database with row locks) for many. Writers, the compaction job and other services of a
 * warehouse share it by naming the same database.
 *
 * <p>A row is a lease: its holder (a unique id per acquisition: host, process, random) and an
 * expiry. Acquiring inserts the row, or takes it over when it has expired, in one transaction;
 * the holder renews it every third of the lease from a thread of its {@link Lease} and deletes it
 * on release. A holder that dies stops renewing, and its lock is free once the lease has passed.
 * Every time is the database's clock ({@code CURRENT_TIMESTAMP}), so committers on machines whose
 * clocks differ still agree on expiry.
 *
 * <p>What this lock cannot do: fence a holder that was paused (a long GC, a frozen VM) for longer
 * than the lease between its last check and its write. {@link #runExclusive} fails a commit whose
 * lease was lost or may have run out, but the write is done by then. Leases are therefore long
 * (default 60 s) compared with the write they protect (one PUT of a snapshot file).
 *
 * <p>Holds no connection or thread between acquisitions; a {@link Lease} owns its renewal thread
 * until {@link Lease#close()}.
 */
public final class JdbcCommitLock implements CommitLock {
    /** The table holding the lock rows. */
    public static final String TABLE = "strata_commit_lock";

    private final String url;
    private final String user;
    private final String password;
    private final long leaseMillis;
    private final long renewMillis;
    private final long acquireTimeoutMillis;
    private volatile boolean tableChecked;
    private volatile Driver driver;

    /**
     * @param user     null to take the user from the URL (or none)
     * @param password null for none
     */
    public JdbcCommitLock(String url, String user, String password, Duration lease, Duration acquireTimeout) {
        this(url, user, password, lease, acquireTimeout, lease.dividedBy(3));
    }

    /** With an explicit renewal interval: tests make a holder that renews too late. */
    JdbcCommitLock(
            String url, String user, String password, Duration lease, Duration acquireTimeout, Duration renewInterval) {
        if (url == null || !url.startsWith("jdbc:")) {
            throw new IllegalArgumentException("commit lock: '" + url + "' is not a JDBC URL (jdbc:...)");
        }
        if (lease.toMillis() < 100 || renewInterval.toMillis() < 1) {
            throw new IllegalArgumentException(
                    "commit lock lease must be at least 100 ms, got " + lease.toMillis() + " ms");
        }
        this.url = url;
        this.user = user;
        this.password = password;
        this.leaseMillis = lease.toMillis();
        this.renewMillis = renewInterval.toMillis();
        this.acquireTimeoutMillis = acquireTimeout.toMillis();
    }

    /**
     * Runs {@code action} holding the lock of {@code key}; fails with {@link LeaseLostException}
     * after the action when the lease was lost or may have expired while it ran.
     */
    @Override
    public <T> T runExclusive(String key, Callable<T> action) throws Exception {
        try (Lease lease = acquire(key)) {
            T result = action.call();
            lease.checkHeld();
            return result;
        }
    }

    /**
     * Waits for the lock of {@code key}, up to the acquire timeout.
     *
     * @throws IOException naming the key, the database and the current holder when the timeout
     *                     passes, or the database failure
     */
    public Lease acquire(String key) throws IOException, InterruptedException {
        String holder = JdbcLocks.holderId();
        long deadline = System.nanoTime() + acquireTimeoutMillis * 1_000_000L;
        long backoff = 10;
        String current;
        while (true) {
            long before = System.nanoTime();
            try (Connection c = connect()) {
                current = tryAcquire(c, key, holder);
            } catch (SQLException e) {
                if (!JdbcLocks.isContention(e)) {
                    throw failure("cannot take the lock of " + key, e);
                }
                current = "(contended: " + e.getMessage() + ")";
            }
            if (current == null) {
                return new Lease(key, holder, before);
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IOException("commit lock of " + key + " in " + JdbcLocks.redact(url) + " is held by "
                        + current + "; gave up after " + acquireTimeoutMillis
                        + " ms (option commit.lock.acquire-timeout)");
            }
            Thread.sleep(backoff / 2 + ThreadLocalRandom.current().nextLong(backoff / 2 + 1));
            backoff = Math.min(backoff * 2, Math.max(10, Math.min(1000, leaseMillis / 4)));
        }
    }

    /** One transaction: insert the row, or take it over if expired. Null when acquired, else the holder. */
    private String tryAcquire(Connection c, String key, String holder) throws SQLException {
        c.setAutoCommit(false);
        try {
            long now = dbNow(c);
            String oldHolder = null;
            long oldExpiry = 0;
            try (PreparedStatement s = c.prepareStatement(
                    "SELECT holder, expires_at_ms FROM " + TABLE + " WHERE lock_key = ? FOR UPDATE")) {
                s.setString(1, key);
                try (ResultSet rs = s.executeQuery()) {
                    if (rs.next()) {
                        oldHolder = rs.getString(1);
                        oldExpiry = rs.getLong(2);
                    }
                }
            }
            int changed;
            if (oldHolder == null) {
                try (PreparedStatement s = c.prepareStatement("INSERT INTO " + TABLE
                        + " (lock_key, holder, expires_at_ms, acquired_at_ms) VALUES (?, ?, ?, ?)")) {
                    s.setString(1, key);
                    s.setString(2, holder);
                    s.setLong(3, now + leaseMillis);
                    s.setLong(4, now);
                    changed = s.executeUpdate();
                }
            } else if (oldExpiry <= now) {
                // compare-and-set on the expired holder: holder ids are never reused
                try (PreparedStatement s = c.prepareStatement("UPDATE " + TABLE + " SET holder = ?, expires_at_ms = ?, "
                        + "acquired_at_ms = ? WHERE lock_key = ? AND holder = ? AND expires_at_ms = ?")) {
                    s.setString(1, holder);
                    s.setLong(2, now + leaseMillis);
                    s.setLong(3, now);
                    s.setString(4, key);
                    s.setString(5, oldHolder);
                    s.setLong(6, oldExpiry);
                    changed = s.executeUpdate();
                }
            } else {
                c.rollback();
                return oldHolder + " for " + (oldExpiry - now) + " ms more";
            }
            if (changed != 1) {
                c.rollback();
                return "another committer (it took the lock just now)";
            }
            c.commit();
            return null;
        } catch (SQLException e) {
            rollbackQuietly(c, e);
            throw e;
        }
    }

    /** Extends the lease of {@code holder}; false when the row is gone, taken over or expired. */
    private boolean renew(String key, String holder) throws SQLException {
        try (Connection c = connect()) {
            c.setAutoCommit(true);
            long now = dbNow(c);
            try (PreparedStatement s = c.prepareStatement("UPDATE " + TABLE
                    + " SET expires_at_ms = ? WHERE lock_key = ? AND holder = ? AND expires_at_ms > ?")) {
                s.setLong(1, now + leaseMillis);
                s.setString(2, key);
                s.setString(3, holder);
                s.setLong(4, now);
                return s.executeUpdate() == 1;
            }
        }
    }

    private void release(String key, String holder) throws SQLException {
        try (Connection c = connect()) {
            c.setAutoCommit(true);
            try (PreparedStatement s =
                    c.prepareStatement("DELETE FROM " + TABLE + " WHERE lock_key = ? AND holder = ?")) {
                s.setString(1, key);
                s.setString(2, holder);
                s.executeUpdate();
            }
        }
    }

    private Connection connect() throws SQLException {
        Properties props = new Properties();
        if (user != null) {
            props.setProperty("user", user);
        }
        if (password != null) {
            props.setProperty("password", password);
        }
        Connection c = driver().connect(url, props);
        if (c == null) {
            throw new SQLException("the JDBC driver " + driver.getClass().getName() + " refused the URL", "08001");
        }
        if (!tableChecked) {
            try {
                ensureTable(c);
            } catch (SQLException e) {
                c.close();
                throw e;
            }
            tableChecked = true;
        }
        return c;
    }

    /**
     * The driver for the URL, looked up among the drivers visible to this class's loader first:
     * DriverManager registers only those of the system class path, and in a Flink job the drivers
     * come with the job's jar.
     */
    private Driver driver() throws SQLException {
        Driver d = driver;
        if (d == null) {
            for (Driver candidate : ServiceLoader.load(Driver.class, JdbcCommitLock.class.getClassLoader())) {
                if (candidate.acceptsURL(url)) {
                    d = candidate;
                    break;
                }
            }
            if (d == null) {
                d = DriverManager.getDriver(url); // throws "No suitable driver" (SQLSTATE 08001)
            }
            driver = d;
        }
        return d;
    }

    private static void ensureTable(Connection c) throws SQLException {
        c.setAutoCommit(true);
        String ddl = "CREATE TABLE IF NOT EXISTS " + TABLE + " (lock_key VARCHAR(2048) NOT NULL PRIMARY KEY, "
                + "holder VARCHAR(512) NOT NULL, expires_at_ms BIGINT NOT NULL, acquired_at_ms BIGINT NOT NULL)";
        try (Statement s = c.createStatement()) {
            s.execute(ddl);
        } catch (SQLException raced) {
            // two processes creating it at once: PostgreSQL lets one fail; the table is there then
            try (Statement s = c.createStatement()) {
                s.execute(ddl);
            } catch (SQLException e) {
                e.addSuppressed(raced);
                throw e;
            }
        }
    }

    /** The database's clock in epoch milliseconds: every expiry is on one clock. */
    private static long dbNow(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT CURRENT_TIMESTAMP")) {
            rs.next();
            return rs.getObject(1, OffsetDateTime.class).toInstant().toEpochMilli();
        }
    }

    private static void rollbackQuietly(Connection c, SQLException cause) {
        try {
            c.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    private IOException failure(String what, SQLException e) {
        return new IOException(
                "commit lock: " + what + " in " + JdbcLocks.redact(url) + " (option commit.lock.jdbc.url): "
                        + JdbcLocks.redact(String.valueOf(e.getMessage())),
                e);
    }

    /** The lease ended before its holder was done: another committer may hold the lock now. */
    public static final class LeaseLostException extends IOException {
        LeaseLostException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * A held lock: renewed from its own thread until {@link #close()}, which stops the thread and
     * deletes the row (if still ours). Not shared between threads except for {@link #checkHeld()}.
     */
    public final class Lease implements AutoCloseable {
        private final String key;
        private final String holder;
        private final Thread renewer;
        /** System.nanoTime() before which the lease is surely still valid in the database. */
        private volatile long validUntilNanos;

        private volatile Throwable lost;

        private Lease(String key, String holder, long acquiredNanos) {
            this.key = key;
            this.holder = holder;
            this.validUntilNanos = acquiredNanos + leaseMillis * 1_000_000L;
            this.renewer = new Thread(this::renewUntilClosed, "strata-commit-lock-renewal");
            renewer.setDaemon(true);
            renewer.start();
        }

        public String holder() {
            return holder;
        }

        /** @throws LeaseLostException when a renewal failed or the lease may have run out */
        public void checkHeld() throws LeaseLostException {
            if (lost != null) {
                throw new LeaseLostException(
                        "commit lock of " + key + " in " + JdbcLocks.redact(url) + " was lost while held ("
                                + lost.getMessage() + ")",
                        lost);
            }
            if (System.nanoTime() - validUntilNanos >= 0) {
                throw new LeaseLostException(
                        "commit lock of " + key + " in " + JdbcLocks.redact(url)
                                + ": the lease of " + leaseMillis + " ms may have expired (not renewed in time; option "
                                + "commit.lock.lease)",
                        null);
            }
        }

        private void renewUntilClosed() {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(renewMillis);
                } catch (InterruptedException e) {
                    return;
                }
                long before = System.nanoTime();
                try {
                    if (!renew(key, holder)) {
                        lost = new IllegalStateException("the row is gone, expired or held by another committer");
                        return;
                    }
                    validUntilNanos = before + leaseMillis * 1_000_000L;
                } catch (SQLException e) {
                    // the database is unreachable: keep trying until the lease runs out
                    if (System.nanoTime() - validUntilNanos >= 0) {
                        lost = e;
                        return;
                    }
                }
            }
        }

        /** Stops renewing and releases the row; a release that fails leaves the row to expire. */
        @Override
        public void close() throws IOException {
            renewer.interrupt();
            try {
                renewer.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try {
                release(key, holder);
            } catch (SQLException e) {
                throw failure("cannot release the lock of " + key + " (it expires after the lease)", e);
            }
        }
    }
}
