package io.strata.scheduler.ops;

import io.strata.storage.maintenance.ChangelogExpireResult;
import io.strata.storage.maintenance.ExpireResult;
import io.strata.storage.maintenance.OrphanCleanResult;
import io.strata.storage.maintenance.PartitionExpiration;
import io.strata.storage.snapshot.AutoTags;
import java.time.Instant;
import java.util.List;
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

    /** Kept changelogs expired alone (no snapshot). */
    record ChangelogsExpired(String table, ChangelogExpireResult result) implements Outcome {
        @Override
        public OperationKind kind() {
            return OperationKind.CHANGELOG_EXPIRATION;
        }

        @Override
        public String summary() {
            if (result.changelogsExpired() == 0) {
                return "no kept changelog due to expire"
                        + (result.deleted().isEmpty()
                                ? ""
                                : "; finished an interrupted run, deleted "
                                        + result.deleted().size() + " files");
            }
            return "expired the kept changelogs of snapshots " + result.fromId() + ".." + (result.toId() - 1)
                    + ", deleted " + result.deleted().size() + " files (" + result.deletedBytes() + " bytes)";
        }
    }

    /** Partitions dropped in one snapshot, or for a dry run only listed. */
    record PartitionsExpired(String table, PartitionExpiration.Result result) implements Outcome {
        /** Partitions named in a summary at most; the rest are counted. */
        static final int LISTED = 10;

        @Override
        public OperationKind kind() {
            return OperationKind.PARTITION_EXPIRATION;
        }

        @Override
        public String summary() {
            StringBuilder b = new StringBuilder(result.dryRun() ? "dry run: would drop " : "dropped ")
                    .append(result.expired().size())
                    .append(" partitions");
            result.snapshot().ifPresent(id -> b.append(" in snapshot ").append(id));
            if (!result.expired().isEmpty()) {
                b.append(": ").append(listed(result.expired()));
            }
            if (!result.unparsed().isEmpty()) {
                b.append("; kept ")
                        .append(result.unparsed().size())
                        .append(" whose time is not readable: ")
                        .append(listed(result.unparsed()));
            }
            return b.toString();
        }

        private static String listed(List<String> partitions) {
            String shown = String.join(", ", partitions.subList(0, Math.min(LISTED, partitions.size())));
            return partitions.size() <= LISTED ? shown : shown + " and " + (partitions.size() - LISTED) + " more";
        }
    }

    /** The automatic tag that was due created (or why none was), old automatic tags deleted. */
    record AutoTagged(String table, AutoTags.Result result) implements Outcome {
        @Override
        public OperationKind kind() {
            return OperationKind.AUTO_TAG;
        }

        @Override
        public String summary() {
            String created = result.created()
                    .map(t -> "created tag '" + t.name() + "' on snapshot "
                            + t.snapshot().id())
                    .orElse("no tag created: " + result.reason());
            return result.deleted().isEmpty()
                    ? created
                    : created + "; deleted automatic tags beyond tag.num-retained-max: " + result.deleted();
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
