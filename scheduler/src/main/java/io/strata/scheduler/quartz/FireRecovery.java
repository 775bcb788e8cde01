package io.strata.scheduler.quartz;

import io.strata.scheduler.history.RunHistory;
import io.strata.scheduler.lease.Lease;
import io.strata.scheduler.lease.LeaseOperation;
import io.strata.scheduler.lease.LeaseStore;
import io.strata.scheduler.ops.OperationKind;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.quartz.Scheduler;
import org.quartz.TriggerKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a recovered fire does before its operation runs. Quartz re-fires a job whose scheduler died
 * while running it ({@code JobExecutionContext.isRecovering()}): on another node of the cluster,
 * once that node counts the dead one failed, or on the same scheduler when it starts again. Then
 * the dead run's lease may still be live (it expires {@code lease-ttl} after its last renewal), and
 * its row in the run history is still {@code RUNNING}.
 *
 * <p>{@link #takeOver} waits until the dead owner holds no live lease on the table that blocks the
 * operation, and only then marks the dead owner's runs of that operation on that table
 * {@code INTERRUPTED}; after it the fire goes through the {@link OperationGuard}, which takes a new
 * lease with a higher epoch. So a recovered fire never runs beside the run it recovers. A lease of
 * the dead owner whose expiry moves while it waits was renewed: its holder is alive (a scheduler
 * counted failed while, say, its database connection stalled), so the fire is refused and the run
 * left alone.
 */
final class FireRecovery {
    private static final Logger LOG = LoggerFactory.getLogger(FireRecovery.class);
    /**
     * How Quartz names a recovery trigger (in {@link Scheduler#DEFAULT_RECOVERY_GROUP}):
     * {@code recover_<instance id of the dead scheduler>_<number>}, in both its cluster recovery
     * and its recovery at start-up.
     */
    private static final Pattern RECOVERY_TRIGGER = Pattern.compile("recover_(.+)_\\d+");

    private final LeaseStore leases;
    private final RunHistory history;
    private final String owner;
    private final Duration ttl;
    private final Clock clock;

    FireRecovery(LeaseStore leases, RunHistory history, String owner, Duration ttl, Clock clock) {
        this.leases = leases;
        this.history = history;
        this.owner = owner;
        this.ttl = ttl;
        this.clock = clock;
    }

    /** The scheduler-id of the instance whose fire {@code trigger} recovers; empty for any other trigger. */
    static Optional<String> deadOwner(TriggerKey trigger) {
        if (!Scheduler.DEFAULT_RECOVERY_GROUP.equals(trigger.getGroup())) {
            return Optional.empty();
        }
        Matcher m = RECOVERY_TRIGGER.matcher(trigger.getName());
        return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /**
     * Takes over the run of {@code kind} on {@code table} that {@code deadOwner} left: waits for its
     * leases on the table that block {@code kind} to expire, then marks its runs of {@code kind} on
     * {@code table} interrupted (unless {@code deadOwner} is this scheduler, whose earlier runs were
     * marked at start-up). Returns why the fire must not run, when the dead owner renewed a lease
     * meanwhile or its leases did not expire within twice the lease TTL.
     */
    Optional<String> takeOver(String table, OperationKind kind, String deadOwner, Optional<String> fireId)
            throws SQLException, InterruptedException {
        LeaseOperation operation = kind.leaseOperation();
        Map<Long, Instant> firstExpiry = new HashMap<>();
        long giveUp = System.nanoTime() + ttl.multipliedBy(2).toNanos();
        long poll = Math.max(50, Math.min(1000, ttl.toMillis() / 20));
        List<Lease> held = heldBy(deadOwner, table, operation);
        if (!held.isEmpty()) {
            LOG.info(
                    "{} {}: recovering the run of '{}', waiting for its lease to expire: {}",
                    table,
                    kind.key(),
                    deadOwner,
                    held.get(0).describe());
        }
        while (!held.isEmpty()) {
            Instant latest = Instant.MIN;
            for (Lease l : held) {
                Instant first = firstExpiry.putIfAbsent(l.epoch(), l.expiresAt());
                if (first != null && l.expiresAt().isAfter(first)) {
                    return Optional.of("recovery of the run of '" + deadOwner + "' refused: " + l.describe()
                            + " was renewed while waiting for it to expire, so its holder is alive");
                }
                latest = l.expiresAt().isAfter(latest) ? l.expiresAt() : latest;
            }
            if (System.nanoTime() > giveUp) {
                return Optional.of("recovery of the run of '" + deadOwner + "' refused: its lease did not expire"
                        + " within twice the lease TTL of " + ttl + ": "
                        + held.get(0).describe());
            }
            long untilExpiry = Duration.between(clock.instant(), latest).toMillis() + 1;
            Thread.sleep(Math.max(1, Math.min(poll, untilExpiry)));
            held = heldBy(deadOwner, table, operation);
        }
        if (deadOwner.equals(owner)) {
            return Optional.empty();
        }
        int marked = history.markInterrupted(
                deadOwner,
                table,
                kind.key(),
                "interrupted: its scheduler '" + deadOwner + "' stopped during the run; '" + owner
                        + "' re-fired it" + fireId.map(id -> " as fire " + id).orElse("")
                        + " after the lease had expired");
        if (marked > 0) {
            LOG.warn(
                    "{} {}: {} run(s) that '{}' left running marked interrupted; recovering them here",
                    table,
                    kind.key(),
                    marked,
                    deadOwner);
        }
        return Optional.empty();
    }

    private List<Lease> heldBy(String deadOwner, String table, LeaseOperation operation) throws SQLException {
        return leases.live(table).stream()
                .filter(l -> l.owner().equals(deadOwner) && l.blocks(operation))
                .toList();
    }
}
