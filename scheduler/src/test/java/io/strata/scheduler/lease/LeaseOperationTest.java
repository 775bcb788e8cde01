package io.strata.scheduler.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LeaseOperationTest {
    private static final Set<LeaseOperation> COMPACTIONS = EnumSet.of(
            LeaseOperation.MINOR_COMPACTION, LeaseOperation.FULL_COMPACTION, LeaseOperation.BACKLOG_COMPACTION);
    private static final Set<LeaseOperation> EXPIRATIONS =
            EnumSet.of(LeaseOperation.SNAPSHOT_EXPIRATION, LeaseOperation.CHANGELOG_EXPIRATION);

    @Test
    void conflictMatrix() {
        for (LeaseOperation a : LeaseOperation.values()) {
            for (LeaseOperation b : LeaseOperation.values()) {
                assertThat(a.conflictsWith(b)).as("%s vs %s", a, b).isEqualTo(b.conflictsWith(a));
                assertThat(a.conflictsWith(b)).as("%s vs %s", a, b).isEqualTo(expected(a, b));
            }
        }
    }

    /** The files of live buckets replaced in a commit: compactions and partition expiration. */
    private static final Set<LeaseOperation> REPLACE_LIVE_FILES = EnumSet.of(
            LeaseOperation.MINOR_COMPACTION,
            LeaseOperation.FULL_COMPACTION,
            LeaseOperation.BACKLOG_COMPACTION,
            LeaseOperation.PARTITION_EXPIRATION);
    /** Files deleted outside a commit: expirations and orphan cleanup. */
    private static final Set<LeaseOperation> DELETE_FILES = EnumSet.of(
            LeaseOperation.SNAPSHOT_EXPIRATION, LeaseOperation.CHANGELOG_EXPIRATION, LeaseOperation.ORPHAN_CLEANUP);

    /** The matrix written out by sets, independently of the Kind mapping. */
    private static boolean expected(LeaseOperation a, LeaseOperation b) {
        if (a == LeaseOperation.ROLLBACK || b == LeaseOperation.ROLLBACK || a == b) {
            return true;
        }
        if (a == LeaseOperation.AUTO_TAG || b == LeaseOperation.AUTO_TAG) {
            return false;
        }
        if (REPLACE_LIVE_FILES.contains(a) && REPLACE_LIVE_FILES.contains(b)) {
            return true;
        }
        // Expiration and orphan cleanup, in any pairing, conflict; beside a commit they do not.
        return DELETE_FILES.contains(a) && DELETE_FILES.contains(b);
    }

    @Test
    void theMaintenanceOperationsOfIssue16ConflictAsReasoned() {
        // changelog expiration deletes files as snapshot expiration does (which runs it too)
        assertThat(LeaseOperation.CHANGELOG_EXPIRATION.conflictsWith(LeaseOperation.SNAPSHOT_EXPIRATION))
                .isTrue();
        assertThat(LeaseOperation.CHANGELOG_EXPIRATION.conflictsWith(LeaseOperation.ORPHAN_CLEANUP))
                .isTrue();
        assertThat(LeaseOperation.CHANGELOG_EXPIRATION.conflictsWith(LeaseOperation.FULL_COMPACTION))
                .isFalse();
        // partition expiration commits the deletion of live files, as a compaction commits their rewrite
        for (LeaseOperation c : COMPACTIONS) {
            assertThat(LeaseOperation.PARTITION_EXPIRATION.conflictsWith(c))
                    .as("%s", c)
                    .isTrue();
        }
        for (LeaseOperation e : EXPIRATIONS) {
            assertThat(LeaseOperation.PARTITION_EXPIRATION.conflictsWith(e))
                    .as("%s", e)
                    .isFalse();
        }
        assertThat(LeaseOperation.PARTITION_EXPIRATION.conflictsWith(LeaseOperation.ORPHAN_CLEANUP))
                .isFalse();
        assertThat(LeaseOperation.PARTITION_EXPIRATION.conflictsWith(LeaseOperation.PARTITION_EXPIRATION))
                .isTrue();
        // an automatic tag waits for nothing but a rollback and another tagging run
        for (LeaseOperation o : LeaseOperation.values()) {
            boolean conflicts = o == LeaseOperation.ROLLBACK || o == LeaseOperation.AUTO_TAG;
            assertThat(LeaseOperation.AUTO_TAG.conflictsWith(o)).as("%s", o).isEqualTo(conflicts);
        }
        assertThat(LeaseOperation.PARTITION_EXPIRATION.id()).isEqualTo("partition-expiration");
        assertThat(LeaseOperation.AUTO_TAG.id()).isEqualTo("auto-tag");
    }

    @Test
    void storedIdsRoundTripAndUnknownIdsAreNamed() {
        for (LeaseOperation operation : LeaseOperation.values()) {
            assertThat(LeaseOperation.fromId(operation.id())).isEqualTo(operation);
        }
        assertThat(LeaseOperation.FULL_COMPACTION.id()).isEqualTo("full-compaction");
        assertThatThrownBy(() -> LeaseOperation.fromId("defrag"))
                .hasMessageContaining("'defrag'")
                .hasMessageContaining("orphan-cleanup");
    }

    @Test
    void aLeaseOfAnOperationThisVersionDoesNotKnowBlocksEverything() {
        Lease unknown =
                new Lease("db.t", "defrag", "s1", 1, java.time.Instant.EPOCH, java.time.Instant.EPOCH.plusSeconds(1));
        for (LeaseOperation operation : LeaseOperation.values()) {
            assertThat(unknown.blocks(operation)).isTrue();
        }
    }
}
