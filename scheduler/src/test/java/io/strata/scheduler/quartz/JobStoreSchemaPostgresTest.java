package io.strata.scheduler.quartz;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.scheduler.config.ConfigLoader;
import io.strata.scheduler.config.SchedulerConfig.StoreConfig;
import io.strata.scheduler.lease.TestDatabase;
import io.strata.scheduler.support.PostgresServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Schedulers of a cluster starting together on an empty PostgreSQL create Quartz's tables once. */
class JobStoreSchemaPostgresTest {
    @RegisterExtension
    static final PostgresServer POSTGRES = new PostgresServer();

    @Test
    void racingCreatorsOfAnEmptyStoreCreateTheTablesOnce() throws Exception {
        int creators = 4;
        try (TestDatabase db = POSTGRES.newDatabase()) {
            StoreConfig store = ConfigLoader.parse(
                            "s.yaml",
                            "store:\n  jdbc-url: " + db.jdbcUrl() + "\n  user: " + db.user() + "\n  password: "
                                    + db.password() + "\n")
                    .store();
            ExecutorService pool = Executors.newFixedThreadPool(creators);
            try {
                CyclicBarrier start = new CyclicBarrier(creators);
                List<Future<Boolean>> created = new ArrayList<>();
                for (int i = 0; i < creators; i++) {
                    created.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        return JobStoreSchema.ensure(db.dataSource(), store);
                    }));
                }
                int winners = 0;
                for (Future<Boolean> f : created) {
                    winners += f.get(60, TimeUnit.SECONDS) ? 1 : 0;
                }
                assertThat(winners).as("creators that created the tables").isEqualTo(1);
            } finally {
                pool.shutdownNow();
            }
            assertThat(JobStoreSchema.ensure(db.dataSource(), store)).isFalse();
        }
    }
}
