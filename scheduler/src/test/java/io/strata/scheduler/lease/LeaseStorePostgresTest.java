package io.strata.scheduler.lease;

import io.strata.scheduler.support.PostgresServer;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.RegisterExtension;

class LeaseStorePostgresTest extends LeaseStoreContract {

    @RegisterExtension
    static final PostgresServer POSTGRES = new PostgresServer();

    @Override
    TestDatabase newDatabase(Path directory) {
        return POSTGRES.newDatabase();
    }
}
