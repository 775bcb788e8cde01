package io.strata.scheduler.history;

import io.strata.scheduler.lease.TestDatabase;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

class RunHistoryPostgresTest extends RunHistoryContract {
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
