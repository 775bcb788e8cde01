package io.strata.scheduler.quartz;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.scheduler.lease.MutableClock;
import io.strata.scheduler.ops.Backlog;
import io.strata.scheduler.ops.OperationKind;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The slots of the two classes, on threads of the test: who waits, who goes next, how a wait ends. */
class AdmissionTest {
    private static final Optional<Backlog> NONE = Optional.empty();

    /** Counts the fires waiting, and lets a test wait until that many are. */
    private static final class Waiting {
        final AtomicInteger now = new AtomicInteger();
        final List<Integer> seen = new CopyOnWriteArrayList<>();

        void changed(int n) {
            now.set(n);
            seen.add(n);
            synchronized (this) {
                notifyAll();
            }
        }

        synchronized void await(int n) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (now.get() != n) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                assertThat(left)
                        .as("%d fires waiting within 10 s, %d are", n, now.get())
                        .isPositive();
                wait(left);
            }
        }
    }

    private static Optional<Backlog> backlog(int sortedRuns) {
        return Optional.of(new Backlog(1, 4, 1, sortedRuns, 0));
    }

    private static Thread enter(Admission a, OperationKind kind, Optional<Backlog> b, String name, List<String> order) {
        Thread t = new Thread(
                () -> {
                    try {
                        Admission.Slot slot = a.enter(kind, b).orElseThrow();
                        order.add(name);
                        slot.close();
                    } catch (InterruptedException e) {
                        order.add(name + " interrupted");
                    }
                },
                name);
        t.start();
        return t;
    }

    @Test
    void waitingBacklogCompactionsAreAdmittedWorstFirstThenLongestWaiting() throws Exception {
        Waiting waiting = new Waiting();
        Admission a = new Admission(1, 1, waiting::changed);
        Admission.Slot busy = a.enter(OperationKind.FULL_COMPACTION, NONE).orElseThrow();
        List<String> order = new CopyOnWriteArrayList<>();
        // arrival order: mild, worst, medium, then a second medium that waited less
        Thread mild = enter(a, OperationKind.BACKLOG_COMPACTION, backlog(11), "mild", order);
        waiting.await(1);
        Thread worst = enter(a, OperationKind.BACKLOG_COMPACTION, backlog(40), "worst", order);
        waiting.await(2);
        Thread medium = enter(a, OperationKind.BACKLOG_COMPACTION, backlog(20), "medium", order);
        waiting.await(3);
        Thread later = enter(a, OperationKind.BACKLOG_COMPACTION, backlog(20), "medium, later", order);
        waiting.await(4);
        assertThat(order).as("nothing admitted while the slot is busy").isEmpty();

        busy.close();
        for (Thread t : List.of(mild, worst, medium, later)) {
            t.join(10_000);
        }
        assertThat(order).containsExactly("worst", "medium", "medium, later", "mild");
        assertThat(a.waiting()).isZero();
        assertThat(waiting.seen).as("the queue gauge followed").containsSubsequence(1, 2, 3, 4, 0);
    }

    @Test
    void waitingCountsAsBacklogSoAMildTableIsNotOvertakenForEver() throws Exception {
        Waiting waiting = new Waiting();
        MutableClock clock = new MutableClock(Instant.parse("2026-12-04T02:00:00Z"));
        Admission a = new Admission(1, 1, waiting::changed, clock);
        Admission.Slot busy = a.enter(OperationKind.FULL_COMPACTION, NONE).orElseThrow();
        List<String> order = new CopyOnWriteArrayList<>();
        Thread mild = enter(a, OperationKind.BACKLOG_COMPACTION, backlog(11), "mild", order);
        waiting.await(1);
        // the mild table waited 29 steps: 11 + 29 = 40, level with a newcomer of 40, which it beats by arrival
        clock.advance(Admission.AGING_STEP.multipliedBy(29));
        Thread level = enter(a, OperationKind.BACKLOG_COMPACTION, backlog(40), "level", order);
        waiting.await(2);
        // a newcomer of 41 still goes first
        Thread worse = enter(a, OperationKind.BACKLOG_COMPACTION, backlog(41), "worse", order);
        waiting.await(3);

        busy.close();
        for (Thread t : List.of(mild, level, worse)) {
            t.join(10_000);
        }
        assertThat(order).containsExactly("worse", "mild", "level");
    }

    @Test
    void aFullCompactionGoesBeforeWaitingBacklogCompactionsAndMaintenanceInArrivalOrder() throws Exception {
        Waiting waiting = new Waiting();
        Admission a = new Admission(1, 1, waiting::changed);
        Admission.Slot compaction =
                a.enter(OperationKind.BACKLOG_COMPACTION, backlog(30)).orElseThrow();
        Admission.Slot maintenance = a.enter(OperationKind.EXPIRATION, NONE).orElseThrow();
        List<String> compactions = new CopyOnWriteArrayList<>();
        List<String> others = new CopyOnWriteArrayList<>();
        Thread b = enter(a, OperationKind.BACKLOG_COMPACTION, backlog(99), "backlog", compactions);
        waiting.await(1);
        Thread f = enter(a, OperationKind.FULL_COMPACTION, NONE, "full", compactions);
        waiting.await(2);
        Thread tag = enter(a, OperationKind.AUTO_TAG, NONE, "auto-tag", others);
        waiting.await(3);
        Thread orphans = enter(a, OperationKind.ORPHAN_CLEANUP, NONE, "orphan-cleanup", others);
        waiting.await(4);
        Thread expiration = enter(a, OperationKind.CHANGELOG_EXPIRATION, NONE, "changelog-expiration", others);
        waiting.await(5);

        maintenance.close();
        for (Thread t : List.of(tag, orphans, expiration)) {
            t.join(10_000);
        }
        assertThat(others).containsExactly("auto-tag", "orphan-cleanup", "changelog-expiration");
        assertThat(compactions).as("maintenance slots do not admit compactions").isEmpty();
        compaction.close();
        b.join(10_000);
        f.join(10_000);
        assertThat(compactions).containsExactly("full", "backlog");
    }

    @Test
    void aCapOfTwoAdmitsTwoAtOnce() throws Exception {
        Admission a = new Admission(2, 1, n -> {});
        Admission.Slot first = a.enter(OperationKind.FULL_COMPACTION, NONE).orElseThrow();
        Admission.Slot second =
                a.enter(OperationKind.BACKLOG_COMPACTION, backlog(12)).orElseThrow();
        assertThat(a.waiting()).isZero();
        first.close();
        first.close(); // a second close frees nothing more
        second.close();
        Admission.Slot again = a.enter(OperationKind.FULL_COMPACTION, NONE).orElseThrow();
        Admission.Slot andAgain = a.enter(OperationKind.FULL_COMPACTION, NONE).orElseThrow();
        again.close();
        andAgain.close();
    }

    @Test
    void anInterruptedWaiterLeavesAndItsTurnPassesOn() throws Exception {
        Waiting waiting = new Waiting();
        Admission a = new Admission(1, 1, waiting::changed);
        Admission.Slot busy = a.enter(OperationKind.EXPIRATION, NONE).orElseThrow();
        List<String> order = new CopyOnWriteArrayList<>();
        Thread first = enter(a, OperationKind.EXPIRATION, NONE, "first", order);
        waiting.await(1);
        Thread second = enter(a, OperationKind.EXPIRATION, NONE, "second", order);
        waiting.await(2);
        first.interrupt();
        first.join(10_000);
        waiting.await(1);
        busy.close();
        second.join(10_000);
        assertThat(order).containsExactly("first interrupted", "second");
        assertThat(a.waiting()).isZero();
    }

    @Test
    void closingEndsEveryWaitAndAdmitsNothingMore() throws Exception {
        Waiting waiting = new Waiting();
        Admission a = new Admission(1, 1, waiting::changed);
        Admission.Slot busy = a.enter(OperationKind.FULL_COMPACTION, NONE).orElseThrow();
        AtomicReference<Optional<Admission.Slot>> got = new AtomicReference<>();
        CountDownLatch left = new CountDownLatch(1);
        Thread waiter = new Thread(() -> {
            try {
                got.set(a.enter(OperationKind.BACKLOG_COMPACTION, backlog(50)));
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            left.countDown();
        });
        waiter.start();
        waiting.await(1);
        a.close();
        assertThat(left.await(10, TimeUnit.SECONDS)).as("the wait ended").isTrue();
        assertThat(got.get()).isEmpty();
        assertThat(a.enter(OperationKind.EXPIRATION, NONE)).isEmpty();
        busy.close();
        waiter.join(10_000);
    }
}
