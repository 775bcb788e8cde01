package io.strata.scheduler.quartz;

import io.strata.scheduler.ops.Backlog;
import io.strata.scheduler.ops.OperationKind;
import java.util.Comparator;
import java.util.Optional;
import java.util.PriorityQueue;
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
 * compactions worst backlog first ({@link #WORST_FIRST}), at equal backlog the one waiting
 * longest. A table polls at most one backlog fire at a time and its backlog falls when it is
 * compacted, so a busy table cannot keep the others out.
 *
 * <p>Thread-safe. Every change of the number waiting goes to the listener (the queue gauge),
 * under the admission's lock, in the order of the changes.
 */
public final class Admission {
    /** Worse backlog first: the worst bucket's sorted runs, then its level-0 files, then buckets over. */
    static final Comparator<Backlog> WORST_FIRST = Comparator.comparingInt(Backlog::maxSortedRuns)
            .thenComparingInt(Backlog::maxLevel0Files)
            .thenComparingInt(Backlog::bucketsOver)
            .reversed();

    private static final Comparator<Waiter> COMPACTION_ORDER = Comparator.comparing((Waiter w) -> w.backlog.isPresent())
            .thenComparing(w -> w.backlog.orElse(null), Comparator.nullsFirst(WORST_FIRST))
            .thenComparingLong(w -> w.arrival);

    private static final Comparator<Waiter> ARRIVAL_ORDER = Comparator.comparingLong(w -> w.arrival);

    /** A slot taken: closing it frees it for the next waiter of its class. */
    public interface Slot extends AutoCloseable {
        @Override
        void close();
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final SlotClass compactions;
    private final SlotClass maintenance;
    private final IntConsumer waitingChanged;
    private long arrivals;
    private boolean closed;

    /**
     * @param waitingChanged told the number of fires waiting, both classes, whenever it changes
     */
    public Admission(int maxCompactions, int maxMaintenance, IntConsumer waitingChanged) {
        this.compactions = new SlotClass(maxCompactions, COMPACTION_ORDER);
        this.maintenance = new SlotClass(maxMaintenance, ARRIVAL_ORDER);
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
                    lock.newCondition());
            c.waiters.add(w);
            publish();
            try {
                while (!closed && !(c.waiters.peek() == w && c.running < c.max)) {
                    w.turn.await();
                }
            } finally {
                c.waiters.remove(w);
                publish();
            }
            if (closed) {
                return Optional.empty();
            }
            c.running++;
            c.signalNext();
            return Optional.of(new Taken(c));
        } catch (InterruptedException e) {
            // the slot this waiter may have been signalled for goes to the next one
            c.signalNext();
            throw e;
        } finally {
            lock.unlock();
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
    private record Waiter(Optional<Backlog> backlog, long arrival, Condition turn) {}

    /** The slots of one class and its waiters, best first; guarded by the admission's lock. */
    private final class SlotClass {
        final int max;
        final PriorityQueue<Waiter> waiters;
        int running;

        SlotClass(int max, Comparator<Waiter> order) {
            if (max < 1) {
                throw new IllegalArgumentException("a class needs at least one slot, got " + max);
            }
            this.max = max;
            this.waiters = new PriorityQueue<>(order);
        }

        /** Wakes the first waiter when a slot is free for it. */
        void signalNext() {
            Waiter next = waiters.peek();
            if (next != null && running < max) {
                next.turn.signal();
            }
        }
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
                    c.signalNext();
                }
            } finally {
                lock.unlock();
            }
        }
    }
}
