package io.strata.scheduler.lease;

import static io.strata.scheduler.lease.LeaseOperation.BACKLOG_COMPACTION;
import static io.strata.scheduler.lease.LeaseOperation.FULL_COMPACTION;
import static io.strata.scheduler.lease.LeaseOperation.MINOR_COMPACTION;
import static io.strata.scheduler.lease.LeaseOperation.ORPHAN_CLEANUP;
import static io.strata.scheduler.lease.LeaseOperation.ROLLBACK;
import static io.strata.scheduler.lease.LeaseOperation.SNAPSHOT_EXPIRATION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lease store's contract, run against H2 and PostgreSQL by the subclasses. */
abstract class LeaseStoreContract {
    private static final Duration TTL = Duration.ofSeconds(30);
    private static final long SEED = 16L;

    @TempDir
    Path tempDir;

    TestDatabase database;
    MutableClock clock;
    LeaseStore store;

    abstract TestDatabase newDatabase(Path directory);

    @BeforeEach
    void open() throws SQLException {
        database = newDatabase(tempDir);
        clock = new MutableClock(Instant.parse("2026-12-03T12:00:00Z"));
        store = LeaseStore.open(database.dataSource(), clock);
    }

    @AfterEach
    void close() {
        database.close();
    }

    @Test
    void racingAcquirersOfOneTableHaveOneWinnerPerRound() throws Exception {
        int threads = 8;
        int rounds = 15;
        LeaseOperation[] compactions = {MINOR_COMPACTION, FULL_COMPACTION, BACKLOG_COMPACTION};
        Random random = new Random(SEED);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            long lastEpoch = 0;
            for (int round = 0; round < rounds; round++) {
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Future<LeaseAcquisition>> attempts = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    LeaseOperation operation = compactions[random.nextInt(compactions.length)];
                    String owner = "scheduler-" + t;
                    attempts.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        return store.acquire("db.orders", operation, owner, TTL);
                    }));
                }
                List<Lease> winners = new ArrayList<>();
                for (Future<LeaseAcquisition> attempt : attempts) {
                    LeaseAcquisition acquisition = attempt.get(30, TimeUnit.SECONDS);
                    acquisition.granted().ifPresent(winners::add);
                    if (!acquisition.isGranted()) {
                        assertThat(acquisition.heldBackReason()).contains("db.orders");
                    }
                }
                assertThat(winners)
                        .as("winners of round %d (seed %d)", round, SEED)
                        .hasSize(1);
                Lease winner = winners.get(0);
                assertThat(winner.epoch())
                        .as("epoch of round %d (seed %d)", round, SEED)
                        .isGreaterThan(lastEpoch);
                lastEpoch = winner.epoch();
                assertThat(store.live("db.orders")).containsExactly(winner);
                assertThat(store.release(winner)).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void compatibleOperationsWinTogetherUnderConcurrency() throws Exception {
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Future<LeaseAcquisition>> attempts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                LeaseOperation operation = t % 2 == 0 ? FULL_COMPACTION : SNAPSHOT_EXPIRATION;
                String owner = "scheduler-" + t;
                attempts.add(pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    return store.acquire("db.orders", operation, owner, TTL);
                }));
            }
            List<String> granted = new ArrayList<>();
            for (Future<LeaseAcquisition> attempt : attempts) {
                attempt.get(30, TimeUnit.SECONDS).granted().ifPresent(lease -> granted.add(lease.operationId()));
            }
            assertThat(granted).containsExactlyInAnyOrder("full-compaction", "snapshot-expiration");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void conflictMatrixIsEnforcedPerTable() throws SQLException {
        Lease compaction = store.acquire("db.a", MINOR_COMPACTION, "s1", TTL).lease();
        assertThat(store.acquire("db.a", ORPHAN_CLEANUP, "s2", TTL).isGranted()).isTrue();
        LeaseAcquisition expiration = store.acquire("db.a", SNAPSHOT_EXPIRATION, "s2", TTL);
        assertThat(expiration.isGranted()).isFalse();
        assertThat(expiration.blockers()).extracting(Lease::operationId).containsExactly("orphan-cleanup");
        LeaseAcquisition rollback = store.acquire("db.a", ROLLBACK, "s3", TTL);
        assertThat(rollback.blockers())
                .extracting(Lease::operationId)
                .containsExactly("minor-compaction", "orphan-cleanup");
        assertThat(rollback.heldBackReason()).contains("minor-compaction on table 'db.a' held by 's1'");
        assertThat(store.acquire("db.b", FULL_COMPACTION, "s1", TTL).isGranted())
                .as("another table is independent")
                .isTrue();
        assertThat(store.acquire("db.a", FULL_COMPACTION, "s1", TTL).isGranted())
                .as("not reentrant")
                .isFalse();
        store.release(compaction);
        assertThat(store.acquire("db.a", BACKLOG_COMPACTION, "s2", TTL).isGranted())
                .isTrue();
    }

    @Test
    void epochsOfATableIncreaseAcrossOperationsReleasesAndReopening() throws SQLException {
        long last = 0;
        for (LeaseOperation operation : LeaseOperation.values()) {
            Lease lease = store.acquire("db.t", operation, "s1", TTL).lease();
            assertThat(lease.epoch()).isGreaterThan(last);
            last = lease.epoch();
            store.release(lease);
        }
        Lease other = store.acquire("db.other", MINOR_COMPACTION, "s1", TTL).lease();
        assertThat(other.epoch()).as("epochs are per table").isEqualTo(1);
        database.reopen();
        store = LeaseStore.open(database.dataSource(), clock);
        assertThat(store.lastEpoch("db.t")).isEqualTo(last);
        assertThat(store.acquire("db.t", MINOR_COMPACTION, "s2", TTL).lease().epoch())
                .isGreaterThan(last);
        assertThat(store.live()).extracting(Lease::table).containsExactly("db.other", "db.t");
    }

    @Test
    void leaseNotRenewedExpiresAndGoesToAnotherOwnerWithAHigherEpoch() throws SQLException {
        Lease first = store.acquire("db.t", FULL_COMPACTION, "s1", TTL).lease();
        clock.advance(TTL.minusMillis(1));
        assertThat(store.acquire("db.t", MINOR_COMPACTION, "s2", TTL).isGranted())
                .isFalse();
        clock.advance(Duration.ofMillis(1));
        Lease second = store.acquire("db.t", MINOR_COMPACTION, "s2", TTL).lease();
        assertThat(second.epoch()).isGreaterThan(first.epoch());
        assertThat(second.owner()).isEqualTo("s2");
        assertThat(store.live("db.t")).containsExactly(second);
        assertThat(store.renew(first, TTL)).as("a lost lease is never revived").isEmpty();
    }

    @Test
    void renewalExtendsOnlyALiveLeaseOfItsHolder() throws SQLException {
        Lease lease = store.acquire("db.t", FULL_COMPACTION, "s1", TTL).lease();
        clock.advance(Duration.ofSeconds(20));
        Lease renewed = store.renew(lease, TTL).orElseThrow();
        assertThat(renewed.expiresAt()).isEqualTo(clock.instant().plus(TTL));
        clock.advance(Duration.ofSeconds(20));
        assertThat(store.acquire("db.t", FULL_COMPACTION, "s2", TTL).isGranted())
                .as("renewed past the first expiry")
                .isFalse();
        Lease impostor =
                new Lease("db.t", "full-compaction", "s2", lease.epoch(), lease.acquiredAt(), lease.expiresAt());
        assertThat(store.renew(impostor, TTL)).isEmpty();
        assertThat(store.release(impostor)).isFalse();
        clock.advance(TTL);
        assertThat(store.renew(renewed, TTL))
                .as("expired, even if nobody took it")
                .isEmpty();
    }

    @Test
    void staleHolderCannotRenewAndStopsBeforeItsNextCommit() throws SQLException {
        Lease stale = store.acquire("db.t", FULL_COMPACTION, "scheduler-a", TTL).lease();
        // The renewal period is longer than this test: only the clock decides.
        try (LeaseKeeper keeper = LeaseKeeper.keep(store, stale, TTL, TTL.minusSeconds(1))) {
            keeper.checkHeld();
            clock.advance(TTL.plusSeconds(1));
            Lease taker =
                    store.acquire("db.t", MINOR_COMPACTION, "scheduler-b", TTL).lease();
            assertThatThrownBy(keeper::checkHeld)
                    .isInstanceOf(LeaseLostException.class)
                    .hasMessageContaining(
                            "full-compaction on table 'db.t' by owner 'scheduler-a' (epoch " + stale.epoch() + ")")
                    .hasMessageContaining("held now by minor-compaction on table 'db.t' held by 'scheduler-b' (epoch "
                            + taker.epoch() + ",");
            assertThat(keeper.lost()).isTrue();
            assertThat(store.renew(stale, TTL)).isEmpty();
            assertThat(store.release(stale)).isFalse();
            keeper.close();
            assertThat(store.live("db.t"))
                    .as("the stale holder's close leaves the new lease")
                    .containsExactly(taker);
        }
    }

    @Test
    void aBrokenLeaseFencesItsHolderAndTheNextLeaseGetsAHigherEpoch() throws SQLException {
        Lease hung =
                store.acquire("db.t", BACKLOG_COMPACTION, "scheduler-a", TTL).lease();
        assertThat(store.breakLease("db.t", hung.epoch() + 1))
                .as("no lease of that epoch")
                .isEmpty();
        assertThat(store.breakLease("db.u", hung.epoch())).as("another table").isEmpty();
        try (LeaseKeeper keeper = LeaseKeeper.keep(store, hung, TTL, TTL.minusSeconds(1))) {
            assertThat(store.breakLease("db.t", hung.epoch())).contains(hung);
            assertThatThrownBy(keeper::checkHeld).isInstanceOf(LeaseLostException.class);
            assertThat(store.renew(hung, TTL)).as("the holder cannot renew").isEmpty();
            Lease next = store.acquire("db.t", BACKLOG_COMPACTION, "scheduler-b", TTL)
                    .lease();
            assertThat(next.epoch()).isGreaterThan(hung.epoch());
        }
        assertThat(store.breakLease("db.t", hung.epoch())).as("broken once").isEmpty();
    }

    @Test
    void keeperWhoseRenewalFindsTheLeaseGoneStopsRenewing() throws Exception {
        Lease stale = store.acquire("db.t", FULL_COMPACTION, "scheduler-a", TTL).lease();
        try (LeaseKeeper keeper = LeaseKeeper.keep(store, stale, TTL, Duration.ofMillis(50))) {
            clock.advance(TTL);
            Lease taker =
                    store.acquire("db.t", FULL_COMPACTION, "scheduler-b", TTL).lease();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!keeper.lost() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(keeper.lost()).as("a renewal found the lease gone").isTrue();
            assertThatThrownBy(keeper::checkHeld)
                    .isInstanceOf(LeaseLostException.class)
                    .hasMessageContaining("not renewed")
                    .hasMessageContaining("'scheduler-b' (epoch " + taker.epoch());
            assertThat(store.live("db.t")).containsExactly(taker);
        }
    }

    @Test
    void withTheDatabaseUnreachableALeaseIsHeldUntilItsLastExpiry() throws SQLException {
        Lease lease = store.acquire("db.t", FULL_COMPACTION, "s1", TTL).lease();
        LeaseKeeper keeper = LeaseKeeper.keep(store, lease, TTL, TTL.minusSeconds(1));
        database.close();
        clock.advance(TTL.minusSeconds(1));
        keeper.checkHeld();
        clock.advance(Duration.ofSeconds(1));
        assertThatThrownBy(keeper::checkHeld)
                .isInstanceOf(LeaseLostException.class)
                .hasMessageContaining("cannot be reached")
                .hasMessageContaining("epoch " + lease.epoch());
        assertThatThrownBy(keeper::close).isInstanceOf(SQLException.class);
    }

    @Test
    void keeperRenewsWhileTheOperationRunsAndReleasesOnClose() throws Exception {
        LeaseStore realTime = LeaseStore.open(database.dataSource(), Clock.systemUTC());
        Duration ttl = Duration.ofMillis(800);
        Lease lease = realTime.acquire("db.t", FULL_COMPACTION, "s1", ttl).lease();
        LeaseKeeper keeper = LeaseKeeper.keep(realTime, lease, ttl, Duration.ofMillis(150));
        Thread.sleep(3 * ttl.toMillis());
        keeper.checkHeld();
        assertThat(keeper.lease().expiresAt()).isAfter(lease.expiresAt());
        assertThat(realTime.acquire("db.t", MINOR_COMPACTION, "s2", ttl).isGranted())
                .isFalse();
        keeper.close();
        assertThat(realTime.acquire("db.t", MINOR_COMPACTION, "s2", ttl).lease().epoch())
                .isGreaterThan(lease.epoch());
    }

    @Test
    void keeperRejectsARenewalPeriodNotShorterThanTheTtl() throws SQLException {
        Lease lease = store.acquire("db.t", FULL_COMPACTION, "s1", TTL).lease();
        assertThatThrownBy(() -> LeaseKeeper.keep(store, lease, TTL, TTL))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("db.t")
                .hasMessageContaining("shorter than the TTL");
    }

    @Test
    void twoProcessesRaceForOneLeaseAndTheKilledHoldersLeaseExpiresAfterItsTtl() throws Exception {
        LeaseStore realTime = LeaseStore.open(database.dataSource(), Clock.systemUTC());
        long ttlMillis = 1500;
        Duration ttl = Duration.ofMillis(ttlMillis);
        List<Process> children = List.of(startHolder("a", ttlMillis), startHolder("b", ttlMillis));
        try {
            List<String> lines = new ArrayList<>();
            for (Process child : children) {
                lines.add(firstLine(child));
            }
            assertThat(lines)
                    .as("first lines of the two children (stderr in %s)", tempDir)
                    .filteredOn(line -> line.startsWith("GRANTED "))
                    .hasSize(1);
            int winner = lines.get(0).startsWith("GRANTED ") ? 0 : 1;
            Process holder = children.get(winner);
            assertThat(lines.get(1 - winner)).startsWith("BLOCKED ").contains("'child-" + holder.pid() + "'");
            long childEpoch = Long.parseLong(lines.get(winner).substring("GRANTED ".length()));

            Thread.sleep(2 * ttlMillis);
            LeaseAcquisition whileAlive = realTime.acquire("db.t", FULL_COMPACTION, "parent", ttl);
            assertThat(whileAlive.isGranted()).as("the child renews its lease").isFalse();
            assertThat(whileAlive.blockers()).extracting(Lease::owner).containsExactly("child-" + holder.pid());

            holder.destroyForcibly(); // SIGKILL: no release, no shutdown hook
            assertThat(holder.waitFor(10, TimeUnit.SECONDS)).isTrue();
            long killed = System.nanoTime();
            assertThat(realTime.acquire("db.t", FULL_COMPACTION, "parent", ttl).isGranted())
                    .as("still live right after the kill")
                    .isFalse();
            LeaseAcquisition after;
            do {
                Thread.sleep(50);
                after = realTime.acquire("db.t", FULL_COMPACTION, "parent", ttl);
            } while (!after.isGranted() && System.nanoTime() - killed < TimeUnit.SECONDS.toNanos(10));
            long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
            assertThat(after.isGranted()).as("granted within 10 s of the kill").isTrue();
            assertThat(waitedMillis).isLessThanOrEqualTo(ttlMillis + 1000);
            assertThat(after.lease().epoch()).isGreaterThan(childEpoch);
        } finally {
            for (Process child : children) {
                child.destroyForcibly();
            }
        }
    }

    private Process startHolder(String name, long ttlMillis) throws java.io.IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(
                        java,
                        "-cp",
                        System.getProperty("java.class.path"),
                        LeaseHolderMain.class.getName(),
                        database.jdbcUrl(),
                        database.user(),
                        database.password(),
                        "db.t",
                        Long.toString(ttlMillis),
                        "250")
                .redirectError(tempDir.resolve("child-" + name + ".log").toFile())
                .start();
    }

    private static String firstLine(Process child) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        String line = CompletableFuture.supplyAsync(() -> readLine(out)).get(60, TimeUnit.SECONDS);
        return line == null ? "(no output, exit " + child.waitFor() + ")" : line;
    }

    @Test
    void concurrentOpenersOfAnEmptyDatabaseCreateTheSchemaOnce() throws Exception {
        try (TestDatabase empty = newDatabase(tempDir.resolve("empty"))) {
            int openers = 4;
            ExecutorService pool = Executors.newFixedThreadPool(openers);
            try {
                CyclicBarrier start = new CyclicBarrier(openers);
                List<Future<LeaseStore>> opened = new ArrayList<>();
                for (int i = 0; i < openers; i++) {
                    opened.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        return LeaseStore.open(empty.dataSource(), clock);
                    }));
                }
                int granted = 0;
                for (Future<LeaseStore> store : opened) {
                    if (store.get(30, TimeUnit.SECONDS)
                            .acquire("db.t", ROLLBACK, "s1", TTL)
                            .isGranted()) {
                        granted++;
                    }
                }
                assertThat(granted).as("a rollback conflicts with every other").isEqualTo(1);
            } finally {
                pool.shutdownNow();
            }
            try (Connection connection = empty.dataSource().getConnection();
                    Statement statement = connection.createStatement();
                    java.sql.ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM strata_lease_schema")) {
                rows.next();
                assertThat(rows.getLong(1)).isEqualTo(1);
            }
            assertThat(LeaseStore.open(empty.dataSource(), clock).live("db.t")).hasSize(1);
        }
    }

    @Test
    void schemaIsCreatedOnceAndANewerVersionIsRefused() throws SQLException {
        LeaseStore.open(database.dataSource(), clock);
        try (Connection connection = database.dataSource().getConnection();
                Statement statement = connection.createStatement()) {
            statement.executeUpdate("UPDATE strata_lease_schema SET version = 2");
        }
        assertThatThrownBy(() -> LeaseStore.open(database.dataSource(), clock))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("lease schema version 2")
                .hasMessageContaining("reads version 1");
    }

    @Test
    void badArgumentsNameWhatIsWrong() {
        assertThatThrownBy(() -> store.acquire(" ", MINOR_COMPACTION, "s1", TTL))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("table");
        assertThatThrownBy(() -> store.acquire("db.t", MINOR_COMPACTION, "s1", Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("TTL");
    }

    private static String readLine(BufferedReader reader) {
        try {
            return reader.readLine();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
