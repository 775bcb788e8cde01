package io.strata.storage.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Crashes at every call of expiration and of orphan cleanup ({@link MaintenanceCrashSupport}). */
class MaintenanceCrashTest extends MaintenanceCrashSupport {
    @Test
    void aCrashAtAnyCallOfExpirationLeavesTheTableReadableAndARerunFinishes() throws Exception {
        Path template = template("expire", false);
        int crashed = crashAtEveryCall(
                template,
                t -> t.copyWithOptions(RETAIN_3).newSnapshotExpiration().expire(),
                t -> {
                    assertThat(t.snapshotManager().earliestId().getAsLong())
                            .isEqualTo(t.snapshotManager().latestId().getAsLong() - 2);
                    assertThat(TableFiles.visibleOnDisk(t))
                            .as("the rerun deleted every file only the expired snapshots referenced")
                            .isEqualTo(TableFiles.referenced(t));
                });
        assertThat(crashed).as("runs that failed part way").isGreaterThan(20);
    }

    @Test
    void aCrashAtAnyCallOfOrphanCleanupLeavesTheTableReadableAndARerunFinishes() throws Exception {
        Path template = template("orphans", true);
        FileStoreTable t = Catalog.open(template.toString()).withClock(clock).getTable("db.t");
        t.copyWithOptions(RETAIN_3).newSnapshotExpiration().expire();
        assertThat(t.newOrphanFilesClean(Duration.ofDays(1)).dryRun().orphans())
                .as("the template has orphans")
                .hasSizeGreaterThan(2);
        int crashed = crashAtEveryCall(
                template, table -> table.newOrphanFilesClean(Duration.ofDays(1)).clean(), table -> {});
        assertThat(crashed).isGreaterThan(10);
    }
}
