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

    /** The matrix written out by sets, independently of the Kind mapping. */
    private static boolean expected(LeaseOperation a, LeaseOperation b) {
        if (a == LeaseOperation.ROLLBACK || b == LeaseOperation.ROLLBACK) {
            return true;
        }
        if (COMPACTIONS.contains(a) || COMPACTIONS.contains(b)) {
            return COMPACTIONS.contains(a) && COMPACTIONS.contains(b);
        }
        // Expiration and orphan cleanup, in any pairing, conflict.
        return (EXPIRATIONS.contains(a) || a == LeaseOperation.ORPHAN_CLEANUP)
                && (EXPIRATIONS.contains(b) || b == LeaseOperation.ORPHAN_CLEANUP);
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
