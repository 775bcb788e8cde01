package io.strata.scheduler.lease;

import java.nio.file.Path;

class LeaseStoreH2Test extends LeaseStoreContract {
    @Override
    TestDatabase newDatabase(Path directory) {
        return TestDatabase.h2(directory);
    }
}
