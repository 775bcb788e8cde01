package io.strata.scheduler.lease;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one granted lease alive while its operation runs: renews it every {@code renewEvery} on a
 * single thread this keeper owns and stops on {@link #close()}, which also releases the lease.
 *
 * <p>The operation calls {@link #checkHeld()} before each commit. It asks the database whether
 * the lease is still stored under its epoch and live, so a holder that was paused past its expiry
 * (a long GC, a suspended VM) and whose lease went to another owner stops even though its renewal
 * thread did not notice yet. When the database cannot be reached, the lease counts as held only
 * until the expiry of its last successful renewal, by this process's clock.
 *
 * <p>A renewal that finds the lease gone marks it lost for good; renewal then stops. A renewal that
 * fails with a database error is retried at the next period.
 */
public final class LeaseKeeper implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseKeeper.class);

    private final LeaseStore store;
    private final Duration ttl;
    private final ScheduledExecutorService renewer;
    private volatile Lease lease;
    private volatile String lostBecause;

    private LeaseKeeper(LeaseStore store, Lease lease, Duration ttl) {
        this.store = store;
        this.lease = lease;
        this.ttl = ttl;
        this.renewer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "lease-keeper-" + lease.table() + "-" + lease.epoch());
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Starts renewing {@code lease} every {@code renewEvery}, each renewal extending it by {@code
     * ttl}. {@code renewEvery} must be shorter than {@code ttl}; a third of it or less leaves room
     * for a failed renewal and for clock skew between processes (see {@link LeaseStore}).
     */
    public static LeaseKeeper keep(LeaseStore store, Lease lease, Duration ttl, Duration renewEvery) {
        if (renewEvery.isNegative() || renewEvery.isZero() || renewEvery.compareTo(ttl) >= 0) {
            throw new IllegalArgumentException("Lease renewal period " + renewEvery + " for " + lease.describe()
                    + " must be positive and shorter than the TTL " + ttl);
        }
        LeaseKeeper keeper = new LeaseKeeper(store, lease, ttl);
        long period = renewEvery.toMillis();
        keeper.renewer.scheduleWithFixedDelay(keeper::renewOnce, period, period, TimeUnit.MILLISECONDS);
        return keeper;
    }

    /** The lease as last renewed. */
    public Lease lease() {
        return lease;
    }

    /**
     * Returns if the lease is still held now; throws {@link LeaseLostException} naming the lease and
     * the table's current holders otherwise.
     */
    public void checkHeld() {
        Lease current = lease;
        if (lostBecause != null) {
            throw new LeaseLostException(current, holders(current), lostBecause);
        }
        boolean held;
        try {
            held = store.isHeld(current);
        } catch (SQLException e) {
            if (!current.liveAt(store.clock().instant())) {
                throw new LeaseLostException(
                        current, "the scheduler database cannot be reached and the lease has expired", e);
            }
            LOG.warn("Cannot check {} in the scheduler database; held until its expiry", current.describe(), e);
            return;
        }
        if (!held) {
            lostBecause = "expired or taken over";
            throw new LeaseLostException(current, holders(current), lostBecause);
        }
    }

    /** Whether a renewal or a check found the lease lost. */
    public boolean lost() {
        return lostBecause != null;
    }

    private void renewOnce() {
        try {
            Optional<Lease> renewed = store.renew(lease, ttl);
            if (renewed.isPresent()) {
                lease = renewed.get();
            } else {
                lostBecause = "not renewed: expired or taken over";
                LOG.warn("Lost {}", lease.describe());
                renewer.shutdown();
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warn("Cannot renew {}; retrying", lease.describe(), e);
        }
    }

    private List<Lease> holders(Lease held) {
        try {
            return store.live(held.table());
        } catch (SQLException e) {
            LOG.warn("Cannot read the holders of table '{}'", held.table(), e);
            return List.of();
        }
    }

    /** Stops renewing and releases the lease if it is still held; waits for a running renewal. */
    @Override
    public void close() throws SQLException {
        renewer.shutdownNow();
        try {
            if (!renewer.awaitTermination(30, TimeUnit.SECONDS)) {
                LOG.warn("Lease renewal of {} did not stop within 30 s", lease.describe());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (lostBecause == null) {
            store.release(lease);
        }
    }
}
