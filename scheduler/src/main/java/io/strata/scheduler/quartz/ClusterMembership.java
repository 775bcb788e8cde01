package io.strata.scheduler.quartz;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A clustered scheduler's row among the Quartz cluster's instances ({@code QRTZ_SCHEDULER_STATE}:
 * instance id, last check-in, check-in interval), which Quartz writes at every check-in. Two live
 * processes under one instance id would break the cluster (each would take the other's check-ins
 * for its own and, at its first check-in, re-fire the jobs the other is running), and the second
 * would mark the first one's runs interrupted at start-up. So a clustered scheduler starts only
 * once its id is free: no row, or a row whose check-in is overdue as Quartz counts it (its
 * interval plus 7.5 s), a process that died. A row checked in more recently is watched until it
 * would be overdue: a new check-in meanwhile means a live process uses the id, and start-up is
 * refused. Two processes started under one id within one check-in interval of each other are not
 * told apart.
 *
 * <p>Times are the system clock's, as Quartz's check-ins are. A scheduler that stops gracefully
 * leaves the cluster ({@link #leave}), so a restart need not wait and no trigger stays held by it.
 */
public final class ClusterMembership {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterMembership.class);
    /** What Quartz adds to a node's check-in interval before it counts the node failed. */
    static final Duration QUARTZ_FAILURE_GRACE = Duration.ofMillis(7_500);

    private ClusterMembership() {}

    /** The last check-in of one instance, and its interval. */
    record CheckIn(Instant at, Duration interval) {
        Instant overdueAt() {
            return at.plus(interval).plus(QUARTZ_FAILURE_GRACE);
        }
    }

    /**
     * Returns once {@code instanceId} is free in the cluster on {@code store} (at most its check-in
     * interval plus 7.5 s after the last check-in under it).
     *
     * @throws IllegalStateException when a live process checks in under {@code instanceId}; the
     *     message names {@code source}'s key {@code scheduler-id}
     */
    public static void awaitIdFree(DataSource store, String instanceId, String source)
            throws SQLException, InterruptedException {
        Optional<CheckIn> seen = lastCheckIn(store, instanceId);
        if (seen.isEmpty() || !Instant.now().isBefore(seen.get().overdueAt())) {
            return;
        }
        CheckIn first = seen.get();
        LOG.info(
                "scheduler-id '{}' checked in to the cluster at {}: waiting until {} to tell a live process using it"
                        + " from a stopped one",
                instanceId,
                first.at(),
                first.overdueAt());
        long poll = Math.max(100, first.interval().toMillis() / 4);
        while (Instant.now().isBefore(first.overdueAt())) {
            long left = Duration.between(Instant.now(), first.overdueAt()).toMillis() + 1;
            Thread.sleep(Math.max(1, Math.min(poll, left)));
            Optional<CheckIn> now = lastCheckIn(store, instanceId);
            if (now.isEmpty()) {
                // another node counted it failed and recovered its fires
                return;
            }
            if (!now.get().at().equals(first.at())) {
                throw new IllegalStateException(source + ": scheduler-id: '" + instanceId + "' is in use by a live"
                        + " scheduler of the cluster (it checked in at "
                        + now.get().at() + " and every "
                        + now.get().interval() + "); give every scheduler process of a cluster its own"
                        + " scheduler-id (the default, <hostname>-scheduler, differs only between hosts)");
            }
        }
    }

    /**
     * Takes {@code instanceId} out of the cluster after its scheduler shut down. Quartz leaves the
     * trigger its scheduler thread had acquired for its next fire {@code ACQUIRED}, recorded as
     * this instance's; that trigger is set back to waiting and the record deleted, as Quartz's own
     * release of an acquired trigger does, under the {@code TRIGGER_ACCESS} row lock Quartz takes
     * for acquisitions. Then the instance's row is deleted, unless one of its fires is still
     * executing: the row then stays, the other nodes count the instance failed and re-fire that
     * work. Returns whether the row was deleted.
     */
    public static boolean leave(DataSource store, String instanceId) throws SQLException {
        try (Connection c = store.getConnection()) {
            boolean auto = c.getAutoCommit();
            c.setAutoCommit(false);
            try {
                boolean left = leave(c, instanceId);
                c.commit();
                return left;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(auto);
            }
        }
    }

    private static boolean leave(Connection c, String id) throws SQLException {
        String sched = QuartzScheduler.INSTANCE_NAME;
        try (PreparedStatement lock = c.prepareStatement(
                "SELECT LOCK_NAME FROM QRTZ_LOCKS WHERE SCHED_NAME = ? AND LOCK_NAME = 'TRIGGER_ACCESS' FOR UPDATE")) {
            lock.setString(1, sched);
            lock.executeQuery().close();
        }
        try (PreparedStatement release = c.prepareStatement("UPDATE QRTZ_TRIGGERS SET TRIGGER_STATE = 'WAITING'"
                + " WHERE SCHED_NAME = ? AND TRIGGER_STATE = 'ACQUIRED' AND EXISTS (SELECT 1 FROM"
                + " QRTZ_FIRED_TRIGGERS f WHERE f.SCHED_NAME = QRTZ_TRIGGERS.SCHED_NAME AND f.INSTANCE_NAME = ?"
                + " AND f.STATE = 'ACQUIRED' AND f.TRIGGER_NAME = QRTZ_TRIGGERS.TRIGGER_NAME"
                + " AND f.TRIGGER_GROUP = QRTZ_TRIGGERS.TRIGGER_GROUP)")) {
            release.setString(1, sched);
            release.setString(2, id);
            release.executeUpdate();
        }
        try (PreparedStatement forget = c.prepareStatement(
                "DELETE FROM QRTZ_FIRED_TRIGGERS WHERE SCHED_NAME = ? AND INSTANCE_NAME = ? AND STATE = 'ACQUIRED'")) {
            forget.setString(1, sched);
            forget.setString(2, id);
            forget.executeUpdate();
        }
        try (PreparedStatement delete = c.prepareStatement("DELETE FROM QRTZ_SCHEDULER_STATE WHERE SCHED_NAME = ?"
                + " AND INSTANCE_NAME = ? AND NOT EXISTS (SELECT 1 FROM QRTZ_FIRED_TRIGGERS"
                + " WHERE SCHED_NAME = ? AND INSTANCE_NAME = ?)")) {
            delete.setString(1, sched);
            delete.setString(2, id);
            delete.setString(3, sched);
            delete.setString(4, id);
            return delete.executeUpdate() > 0;
        }
    }

    /** The last check-in under {@code instanceId}, if Quartz holds a row for it. */
    static Optional<CheckIn> lastCheckIn(DataSource store, String instanceId) throws SQLException {
        try (Connection c = store.getConnection();
                PreparedStatement select = c.prepareStatement("SELECT LAST_CHECKIN_TIME, CHECKIN_INTERVAL FROM"
                        + " QRTZ_SCHEDULER_STATE WHERE SCHED_NAME = ? AND INSTANCE_NAME = ?")) {
            select.setString(1, QuartzScheduler.INSTANCE_NAME);
            select.setString(2, instanceId);
            try (ResultSet rows = select.executeQuery()) {
                if (!rows.next()) {
                    return Optional.empty();
                }
                return Optional.of(
                        new CheckIn(Instant.ofEpochMilli(rows.getLong(1)), Duration.ofMillis(rows.getLong(2))));
            }
        }
    }
}
