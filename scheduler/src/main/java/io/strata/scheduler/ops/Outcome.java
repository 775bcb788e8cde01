package io.strata.scheduler.ops;

import io.strata.storage.maintenance.ExpireResult;
import io.strata.storage.maintenance.OrphanCleanResult;
import java.time.Instant;
import java.util.Optional;

/** What one operation on one table did. */
public sealed interface Outcome {
    String table();

    OperationKind kind();

    /** A one-line summary for the log. */
    String summary();

    /** Snapshots expired (or, for a dry run, that would be). */
    record Expired(String table, ExpireResult result) implements Outcome {
        @Override
        public OperationKind kind() {
            return OperationKind.EXPIRATION;
        }

        @Override
        public String summary() {
            return (result.dryRun() ? "would expire " : "expired ")
                    + result.plan().snapshotsExpired()
                    + " snapshots, deleted " + result.deleted().size() + " files (held back by "
                    + result.plan().heldBackBy().name().toLowerCase() + ")";
        }
    }

    /** Orphan files deleted, or for a dry run only found. */
    record OrphansCleaned(String table, OrphanCleanResult result) implements Outcome {
        @Override
        public OperationKind kind() {
            return OperationKind.ORPHAN_CLEANUP;
        }

        @Override
        public String summary() {
            return result.dryRun()
                    ? "dry run: " + result.orphans().size() + " orphan files found (" + result.bytes()
                            + " bytes), nothing deleted"
                    : "deleted " + result.deleted().size() + " orphan files (" + result.bytes() + " bytes) of "
                            + result.scanned() + " listed";
        }
    }

    /** A compaction job ran on the table. */
    record Compacted(String table, OperationKind kind, CompactionReport report) implements Outcome {
        @Override
        public String summary() {
            return report.toString();
        }
    }

    /**
     * Nothing ran, for {@code reason}; {@code retryAt} is when it may start instead (a full
     * compaction held back until its window opens), empty when it waits for its next regular fire.
     */
    record Skipped(String table, OperationKind kind, String reason, Optional<Instant> retryAt) implements Outcome {
        @Override
        public String summary() {
            return "skipped: " + reason + retryAt.map(t -> "; retry at " + t).orElse("");
        }
    }
}
