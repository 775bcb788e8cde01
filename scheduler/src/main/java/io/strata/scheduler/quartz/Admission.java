package io.strata.scheduler.quartz;

import io.strata.scheduler.ops.Backlog;
import io.strata.scheduler.ops.OperationKind;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntConsumer;

/**
 * The slots of the two classes of operation that run at once: compactions (full and backlog) and
 * maintenance (every other operation). A fire that finds its class full waits for a slot, in
 * its thread, until a run of its class ends, the thread is interrupted or the admission closes.
 *
 * <p>Who is admitted when a slot frees: maintenance in order of arrival. Compactions: a full
 * compaction before any backlog compaction, full compactions in order of arrival (they are few,
 * one per table and schedule, and their rewrite clears the table's backlog too); then backlog
 * compactions worst backlog first, where waiting counts as backlog: every {@link #AGING_STEP}
 * a fire has waited adds one sorted run to its worst bucket's for the ranking, so a table with a
 * mild backlog is overtaken by worse ones only for a bounded time (a fire with {@code r} fewer
 * sorted runs than a newcomer goes first after {@code r} steps), and no table starves behind
 * busier ones; at equal rank, level-0 files, then buckets over, then the one waiting longest. The
 * ranking is taken when a slot frees, at that moment's clock; the waiter chosen is granted the
 * slot and no later arrival can take it first.
 *
 * <p>Thread-safe. Every change of the number waiting goes to the listener (the queue gauge),
 * under the admission's lock, in the order of the changes.
 */
public final class Admission {
    /** The wait that counts as one sorted run more in a waiting backlog compaction's rank. */
    static final Duration AGING_STEP = Duration.ofMinutes(1);

    /** A slot taken: closing it frees it for the next waiter of its class. */
    public interface Slot extends AutoCloseable {
        @Override
        void close();
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final SlotClass compactions;
    private final SlotClass maintenance;
    private final IntConsumer waitingChanged;
    private final Clock clock;
    private long arrivals;
    private boolean closed;

    /**
     * @param waitingChanged told the number of fires waiting, both classes, whenever it changes
     */
    public Admission(int maxCompactions, int maxMaintenance, IntConsumer waitingChanged) {
        this(maxCompactions, maxMaintenance, waitingChanged, Clock.systemUTC());
    }

    /** Like {@link #Admission(int, int, IntConsumer)}, ranking waits by {@code clock}. */
    public Admission(int maxCompactions, int maxMaintenance, IntConsumer waitingChanged, Clock clock) {
        this.clock = clock;
        this.compactions = new SlotClass(maxCompactions, true);
        this.maintenance = new SlotClass(maxMaintenance, false);
        this.waitingChanged = waitingChanged;
    }

    /** Whether {@code kind} takes a compaction slot (otherwise a maintenance one). */
    public static boolean isCompaction(OperationKind kind) {
        return kind == OperationKind.FULL_COMPACTION || kind == OperationKind.BACKLOG_COMPACTION;
    }

    /**
     * Takes a slot of {@code kind}'s class, waiting for one while the class is full. {@code
     * backlog} ranks a waiting backlog compaction (ignored for every other kind). Empty once the
     * admission is closed, also for a fire waiting when it closes.
     *
     * @throws InterruptedException when the thread is interrupted while waiting (it then holds no slot)
     */
    public Optional<Slot> enter(OperationKind kind, Optional<Backlog> backlog) throws InterruptedException {
        SlotClass c = isCompaction(kind) ? compactions : maintenance;
        lock.lock();
        try {
            if (closed) {
                return Optional.empty();
            }
            if (c.waiters.isEmpty() && c.running < c.max) {
                c.running++;
                return Optional.of(new Taken(c));
            }
            Waiter w = new Waiter(
                    kind == OperationKind.BACKLOG_COMPACTION ? backlog : Optional.empty(),
                    arrivals++,
                    clock.instant(),
                    lock.newCondition());
            c.waiters.add(w);
            publish();
            try {
                while (!closed && c.granted != w) {
                    w.turn.await();
                }
            } catch (InterruptedException e) {
                leave(c, w);
                throw e;
            }
            if (closed) {
                leave(c, w);
                return Optional.empty();
            }
            c.waiters.remove(w);
            c.granted = null;
            c.running++;
            publish();
            c.grantNext();
            return Optional.of(new Taken(c));
        } finally {
            lock.unlock();
        }
    }

    /** {@code w} stops waiting without a slot; a grant it had not used goes to the next waiter. */
    private void leave(SlotClass c, Waiter w) {
        c.waiters.remove(w);
        publish();
        if (c.granted == w) {
            c.granted = null;
            c.grantNext();
        }
    }
    /** Fires waiting for a slot now, both classes. */
    public int waiting() {
        lock.lock();
        try {
            return compactions.waiters.size() + maintenance.waiters.size();
        } finally {
            lock.unlock();
        }
    }

    /** Ends every wait and admits nothing more (the shutdown has begun); the runs admitted go on. */
    public void close() {
        lock.lock();
        try {
            closed = true;
            compactions.waiters.forEach(w -> w.turn.signal());
            maintenance.waiters.forEach(w -> w.turn.signal());
        } finally {
            lock.unlock();
        }
    }

    private void publish() {
        waitingChanged.accept(compactions.waiters.size() + maintenance.waiters.size());
    }

    /** One waiting fire; {@code arrival} is unique, so no two waiters are equal. */
    private record Waiter(Optional<Backlog> backlog, long arrival, Instant since, Condition turn) {
        /** The worst bucket's sorted runs plus one per {@link #AGING_STEP} waited until {@code now}. */
        long rank(Instant now) {
            long steps = Math.max(0, Duration.between(since, now).toNanos()) / AGING_STEP.toNanos();
            return backlog.orElseThrow().maxSortedRuns() + steps;
        }
    }

    /** The slots of one class and its waiters; guarded by the admission's lock. */
    private final class SlotClass {
        final int max;
        final boolean ranked;
        final List<Waiter> waiters = new ArrayList<>();
        /** The waiter a freed slot is promised to, until it takes it; null when none is. */
        Waiter granted;

        int running;

        SlotClass(int max, boolean ranked) {
            if (max < 1) {
                throw new IllegalArgumentException("a class needs at least one slot, got " + max);
            }
            this.max = max;
            this.ranked = ranked;
        }

        /** Promises a free slot to the best waiter now, when there is a slot and no promise pending. */
        void grantNext() {
            if (granted != null || running >= max || waiters.isEmpty()) {
                return;
            }
            Comparator<Waiter> order = ranked ? compactionOrder(clock.instant()) : ARRIVAL_ORDER;
            granted = waiters.stream().min(order).orElseThrow();
            granted.turn.signal();
        }
    }

    private static final Comparator<Waiter> ARRIVAL_ORDER = Comparator.comparingLong(Waiter::arrival);

    /** Full compactions first (by arrival), then backlog compactions best rank first. */
    private static Comparator<Waiter> compactionOrder(Instant now) {
        Comparator<Waiter> worse = Comparator.<Waiter>comparingLong(w -> w.rank(now))
                .thenComparingInt(w -> w.backlog().orElseThrow().maxLevel0Files())
                .thenComparingInt(w -> w.backlog().orElseThrow().bucketsOver())
                .reversed();
        return (a, b) -> {
            boolean fullA = a.backlog().isEmpty();
            boolean fullB = b.backlog().isEmpty();
            if (fullA != fullB) {
                return fullA ? -1 : 1;
            }
            int c = fullA ? 0 : worse.compare(a, b);
            return c != 0 ? c : Long.compare(a.arrival(), b.arrival());
        };
    }

    private final class Taken implements Slot {
        private final SlotClass c;
        private boolean released;

        Taken(SlotClass c) {
            this.c = c;
        }

        @Override
        public void close() {
            lock.lock();
            try {
                if (!released) {
                    released = true;
                    c.running--;
                    c.grantNext();
                }
            } finally {
                lock.unlock();
            }
        }
    }
}
