package io.strata.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.maintenance.MaintenanceModel;
import io.strata.storage.table.Catalog;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Storage's maintenance model ({@code MaintenanceModel}: writes, engine compactions, in-flight
 * writers, snapshot and changelog expiration, tags, consumer reads, rollback, partition expiration,
 * orphan cleanup, clock moves) with batch runs of the compaction job on the MiniCluster as a second
 * compactor: after every step every retained snapshot, tag, change and consumer position reads what
 * the model says, and after each orphan cleanup the files on disk are exactly those referenced,
 * younger than its threshold, or of a writer with a fresh heartbeat. Fixed seeds, in every
 * assertion's description; more with {@code -Dstrata.test.iterations}.
 */
class MaintenanceWithJobModelTest {
    @RegisterExtension
    static final MiniClusterExtension MINI = JobTestSupport.miniCluster();

    @TempDir
    Path dir;

    @Test
    void jobCompactionsInterleavedWithEveryMaintenanceOperationKeepEverySnapshotTagAndConsumerExact() throws Exception {
        Map<String, Integer> ran = new TreeMap<>();
        for (long seed = 1; seed <= 3L * TestTables.iterations(); seed++) {
            String wh = dir.resolve("seed-" + seed).toString();
            MaintenanceModel run = new MaintenanceModel(
                    Catalog.open(wh),
                    "t",
                    seed,
                    (table, rnd) -> JobTestSupport.runToEnd(
                            JobTestSupport.spec(wh, rnd.nextBoolean() ? "full" : "minor", "batch", 2, "--table", "t")));
            run.run(45, ran);
        }
        assertThat(ran.keySet())
                .as("every operation ran, the job's compactions too")
                .containsExactlyInAnyOrderElementsOf(MaintenanceModel.OPERATIONS);
    }
}
