package io.strata.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The JDBC commit lock on H2 (in memory) and on a real PostgreSQL (embedded, started here):
 * mutual exclusion, renewal past the lease, expiry of a holder that stops renewing.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class JdbcCommitLockTest {
    private static EmbeddedPostgres postgres;

    @BeforeAll
    static void startPostgres() throws Exception {
        postgres = EmbeddedPostgres.builder().start();
    }

    @AfterAll
    static void stopPostgres() throws Exception {
        if (postgres != null) {
            postgres.close();
        }
    }

    private static String url(String db) {
        return db.equals("h2")
                ? "jdbc:h2:mem:locks-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1"
                : postgres.getJdbcUrl("postgres", "postgres");
    }

    private static JdbcCommitLock lock(String url, long leaseMs, long acquireTimeoutMs, long renewMs) {
        return new JdbcCommitLock(
                url,
                null,
                null,
                Duration.ofMillis(leaseMs),
                Duration.ofMillis(acquireTimeoutMs),
                Duration.ofMillis(renewMs));
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgres"})
    void committersOfOneKeyNeverOverlap(String db) throws Exception {
        String url = url(db);
        String key = "s3a://b/wh/db.db/t-" + UUID.randomUUID();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger maxInside = new AtomicInteger();
        int[] counter = {0};
        int threads = 4;
        int rounds = 15;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                JdbcCommitLock lock = lock(url, 10_000, 60_000, 3_000);
                fs.add(pool.submit(() -> {
                    for (int r = 0; r < rounds; r++) {
                        lock.runExclusive(key, () -> {
                            maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                            int seen = counter[0];
                            Thread.sleep(1);
                            counter[0] = seen + 1; // a lost update if two ran at once
                            inside.decrementAndGet();
                            return null;
                        });
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get(90, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(maxInside.get()).isEqualTo(1);
        assertThat(counter[0]).isEqualTo(threads * rounds);
        // another key is independent of this one
        try (JdbcCommitLock.Lease a = lock(url, 10_000, 100, 3_000).acquire(key);
                JdbcCommitLock.Lease b = lock(url, 10_000, 100, 3_000).acquire(key + "-other")) {
            a.checkHeld();
            b.checkHeld();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgres"})
    void aHolderThatRenewsKeepsTheLockPastItsLease(String db) throws Exception {
        String url = url(db);
        try (JdbcCommitLock.Lease held = lock(url, 400, 1_000, 100).acquire("k")) {
            Thread.sleep(1_200); // three leases
            held.checkHeld();
            assertThatThrownBy(() -> lock(url, 400, 300, 100).acquire("k"))
                    .hasMessageContaining("is held by " + held.holder())
                    .hasMessageContaining("commit.lock.acquire-timeout");
        }
        try (JdbcCommitLock.Lease next = lock(url, 400, 300, 100).acquire("k")) {
            next.checkHeld(); // released by close
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgres"})
    void aHolderThatStopsRenewingLosesTheLockAfterTheLease(String db) throws Exception {
        String url = url(db);
        // renews once a minute with a lease of 800 ms: as a holder whose process froze or died
        JdbcCommitLock frozen = lock(url, 800, 1_000, 60_000);
        long acquired = System.nanoTime(); // before: the lease runs from the database's clock during acquire
        JdbcCommitLock.Lease stale = frozen.acquire("k");
        assertThatThrownBy(() -> lock(url, 800, 200, 100).acquire("k")).hasMessageContaining(stale.holder());

        JdbcCommitLock.Lease taken = lock(url, 10_000, 10_000, 3_000).acquire("k");
        long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - acquired);
        assertThat(waitedMs).as("taken over only after the lease").isGreaterThanOrEqualTo(780);
        assertThatThrownBy(stale::checkHeld)
                .isInstanceOf(JdbcCommitLock.LeaseLostException.class)
                .hasMessageContaining("commit.lock.lease");
        assertThatThrownBy(() -> frozen.runExclusive("k", () -> "never")).hasMessageContaining("is held by");
        stale.close(); // must not delete the new holder's row
        assertThatThrownBy(() -> lock(url, 800, 200, 100).acquire("k")).hasMessageContaining(taken.holder());
        taken.checkHeld();
        taken.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgres"})
    void runExclusiveFailsWhenTheLeaseRanOutDuringTheAction(String db) throws Exception {
        JdbcCommitLock lock = lock(url(db), 300, 1_000, 60_000);
        assertThatThrownBy(() -> lock.runExclusive("k", () -> {
                    Thread.sleep(500);
                    return null;
                }))
                .isInstanceOf(JdbcCommitLock.LeaseLostException.class);
        assertThat(lock.runExclusive("k", () -> "again")).isEqualTo("again");
    }

    @org.junit.jupiter.api.Test
    void badUrlsAreRefusedNamingTheOption() {
        assertThatThrownBy(() -> lock("postgres://nope", 1_000, 100, 100)).hasMessageContaining("not a JDBC URL");
        assertThatThrownBy(() -> lock("jdbc:nosuchdb://x;password=secret", 1_000, 100, 100)
                        .acquire("k"))
                .hasMessageContaining("commit.lock.jdbc.url")
                .hasMessageNotContaining("secret");
    }
}
