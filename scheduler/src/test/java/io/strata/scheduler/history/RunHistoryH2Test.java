package io.strata.scheduler.history;

import io.strata.scheduler.lease.TestDatabase;
import java.nio.file.Path;

class RunHistoryH2Test extends RunHistoryContract {
    @Override
    TestDatabase newDatabase(Path directory) {
        return TestDatabase.h2(directory);
    }
}
