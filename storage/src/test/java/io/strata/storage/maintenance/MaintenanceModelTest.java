package io.strata.storage.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.table.Catalog;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every maintenance operation interleaved at random with writes, engine compactions and in-flight
 * writers, against {@link MaintenanceModel} (fixed seeds, printed on failure), with a check that
 * the runs met what the model is there to check: files at and around orphan cleanup's threshold,
 * registered writers fresh and stale, changes kept of expired snapshots and expired again. The
 * compaction job's runs join in compaction-job's {@code MaintenanceWithJobModelTest}, HDFS in
 * {@code HdfsTableTest}.
 */
class MaintenanceModelTest {
    @TempDir
    Path dir;

    @Test
    void everyOperationInterleavedKeepsEveryRetainedSnapshotTagAndConsumerExact() throws Exception {
        Map<String, Integer> ran = new TreeMap<>();
        Map<String, Integer> seen = new TreeMap<>();
        for (long seed = 1; seed <= 6L * TestTables.iterations(); seed++) {
            MaintenanceModel run = new MaintenanceModel(
                    Catalog.open(dir.resolve("seed-" + seed).toString()), "t", seed, null);
            run.run(45, ran, seen);
        }
        assertThat(ran.keySet())
                .as("every operation ran")
                .containsExactlyInAnyOrderElementsOf(MaintenanceModel.OPERATIONS.stream()
                        .filter(o -> !o.equals("other compaction"))
                        .toList());
        assertThat(seen.keySet())
                .as("what the steps did: %s", seen)
                .containsExactlyInAnyOrderElementsOf(MaintenanceModel.EVENTS);
    }
}
