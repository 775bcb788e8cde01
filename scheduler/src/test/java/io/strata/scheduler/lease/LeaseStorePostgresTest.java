package io.strata.scheduler.lease;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

class LeaseStorePostgresTest extends LeaseStoreContract {
    private static EmbeddedPostgres postgres;

    @BeforeAll
    static void startPostgres() {
        postgres = TestDatabase.startPostgres();
    }

    @AfterAll
    static void stopPostgres() throws IOException {
        postgres.close();
    }

    @Override
    TestDatabase newDatabase(Path directory) {
        return TestDatabase.postgres(postgres);
    }
}
