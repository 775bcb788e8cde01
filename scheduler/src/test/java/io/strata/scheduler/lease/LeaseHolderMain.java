package io.strata.scheduler.lease;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Clock;
import java.time.Duration;

/**
 * A second process for the lease tests: acquires a compaction lease on a table, prints {@code
 * GRANTED <epoch>} (or {@code BLOCKED}), then keeps renewing it until the test kills this JVM.
 *
 * <p>Arguments: JDBC URL, user, password, table, TTL in milliseconds, renewal period in
 * milliseconds.
 */
public final class LeaseHolderMain {
    private LeaseHolderMain() {}

    public static void main(String[] args) throws Exception {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(args[0]);
        config.setUsername(args[1]);
        config.setPassword(args[2]);
        config.setMaximumPoolSize(2);
        HikariDataSource dataSource = new HikariDataSource(config);
        LeaseStore store = LeaseStore.open(dataSource, Clock.systemUTC());
        Duration ttl = Duration.ofMillis(Long.parseLong(args[4]));
        LeaseAcquisition acquisition = store.acquire(
                args[3],
                LeaseOperation.MINOR_COMPACTION,
                "child-" + ProcessHandle.current().pid(),
                ttl);
        if (!acquisition.isGranted()) {
            System.out.println("BLOCKED " + acquisition.heldBackReason());
            System.out.flush();
            return;
        }
        LeaseKeeper keeper =
                LeaseKeeper.keep(store, acquisition.lease(), ttl, Duration.ofMillis(Long.parseLong(args[5])));
        System.out.println("GRANTED " + keeper.lease().epoch());
        System.out.flush();
        while (true) {
            Thread.sleep(60_000);
            keeper.checkHeld();
        }
    }
}
