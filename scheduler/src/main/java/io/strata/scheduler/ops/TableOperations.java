package io.strata.scheduler.ops;

import io.strata.scheduler.config.TableSettings.AutoTag;
import io.strata.scheduler.config.TableSettings.BacklogCompaction;
import io.strata.scheduler.config.TableSettings.ChangelogExpiration;
import io.strata.scheduler.config.TableSettings.Compaction;
import io.strata.scheduler.config.TableSettings.Expiration;
import io.strata.scheduler.config.TableSettings.FullCompaction;
import io.strata.scheduler.config.TableSettings.OrphanCleanup;
import io.strata.scheduler.config.TableSettings.PartitionExpiration;
import io.strata.scheduler.lease.LeaseOperation;
import io.strata.scheduler.table.TableHealth;
import io.strata.scheduler.time.StartDecision;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.maintenance.ExpireResult;
import io.strata.storage.maintenance.OrphanCleanResult;
import io.strata.storage.options.DurationParser;
import io.strata.storage.options.ExpireOptions;
import io.strata.storage.options.TagOptions;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operations the scheduler runs against one table, through the engine API only. Each returns
 * its {@link Outcome} (and logs it) or throws; an operation whose table an operation of this
 * process holds that it conflicts with ({@link TableLocks}) is skipped (the lease in the
 * scheduler's database is what excludes operations of other processes; see {@code
 * quartz.OperationGuard}).
 */
public final class TableOperations {
    private static final Logger LOG = LoggerFactory.getLogger(TableOperations.class);

    /**
     * Decoded manifest entries the health polls keep between polls: a poll of an unchanged table
     * reads no manifest, one after a commit only the new ones. About 1 KiB of heap each
     * (bench/RESULTS.md, the poll benchmark), so at most about 50 MiB.
     */
    static final long POLL_MANIFEST_CACHE_ENTRIES = 50_000;

    private final Catalog catalog;
    /** {@link #catalog} with a manifest cache: for polls only, so operations notice a missing manifest. */
    private final Catalog pollCatalog;

    private final CompactionRunner compactions;
    private final Clock clock;
    private final TableLocks locks = new TableLocks();

    /**
     * @param clock the scheduler's clock, also the engine's for these operations: retention ages,
     *     partition expiration's cutoff and the period of automatic tags are judged by it
     */
    public TableOperations(Catalog catalog, CompactionRunner compactions, Clock clock) {
        this.catalog = catalog.withClock(clock);
        this.pollCatalog = this.catalog.withManifestCache(POLL_MANIFEST_CACHE_ENTRIES);
        this.compactions = compactions;
        this.clock = clock;
    }

    public TableLocks locks() {
        return locks;
    }

    /** Now on the clock the operations judge windows and lateness by. */
    public Instant now() {
        return clock.instant();
    }

    /** Expires snapshots by the table's retention options, with {@code e}'s overrides. */
    public Outcome expire(String table, Expiration e) throws Exception {
        return holding(table, OperationKind.EXPIRATION, () -> {
            Map<String, String> run = new LinkedHashMap<>();
            e.retainMin().ifPresent(n -> run.put(ExpireOptions.NUM_RETAINED_MIN.key(), String.valueOf(n)));
            e.retainMax().ifPresent(n -> run.put(ExpireOptions.NUM_RETAINED_MAX.key(), String.valueOf(n)));
            e.olderThan().ifPresent(d -> run.put(ExpireOptions.TIME_RETAINED.key(), DurationParser.format(d)));
            FileStoreTable t = catalog.getTable(table).copyWithOptions(run);
            ExpireResult r = t.newSnapshotExpiration().expire();
            return new Outcome.Expired(table, r);
        });
    }

    /**
     * Expires the table's kept changelogs alone by its {@code changelog.*} retention, with {@code c}'s
     * overrides; no snapshot expires.
     */
    public Outcome expireChangelogs(String table, ChangelogExpiration c) throws Exception {
        return holding(table, OperationKind.CHANGELOG_EXPIRATION, () -> {
            Map<String, String> run = new LinkedHashMap<>();
            c.retainMin().ifPresent(n -> run.put(ExpireOptions.CHANGELOG_NUM_RETAINED_MIN.key(), String.valueOf(n)));
            c.retainMax().ifPresent(n -> run.put(ExpireOptions.CHANGELOG_NUM_RETAINED_MAX.key(), String.valueOf(n)));
            c.olderThan()
                    .ifPresent(d -> run.put(ExpireOptions.CHANGELOG_TIME_RETAINED.key(), DurationParser.format(d)));
            FileStoreTable t = catalog.getTable(table).copyWithOptions(run);
            return new Outcome.ChangelogsExpired(
                    table, t.newSnapshotExpiration().expireChangelogs());
        });
    }

    /**
     * Drops the table's partitions older than its {@code partition.expiration-time} (or {@code p}'s
     * override) in one snapshot, or for a dry run only lists them. A table this does not apply to
     * (not partitioned, or no expiration time from either) is skipped with the reason: a database
     * selected by pattern may hold such tables beside partitioned ones, and that is no failure.
     */
    public Outcome expirePartitions(String table, PartitionExpiration p) throws Exception {
        return holding(table, OperationKind.PARTITION_EXPIRATION, () -> {
            FileStoreTable t = catalog.getTable(table);
            Optional<String> notApplicable = partitionExpirationDoesNotApply(t, p);
            if (notApplicable.isPresent()) {
                return new Outcome.Skipped(
                        table, OperationKind.PARTITION_EXPIRATION, notApplicable.get(), Optional.empty());
            }
            Map<String, String> run = new LinkedHashMap<>();
            p.olderThan()
                    .ifPresent(d -> run.put(ExpireOptions.PARTITION_EXPIRATION_TIME.key(), DurationParser.format(d)));
            p.timestampPattern().ifPresent(v -> run.put(ExpireOptions.PARTITION_TIMESTAMP_PATTERN.key(), v));
            p.timestampFormatter().ifPresent(v -> run.put(ExpireOptions.PARTITION_TIMESTAMP_FORMATTER.key(), v));
            var expiration = t.copyWithOptions(run).newPartitionExpiration();
            return new Outcome.PartitionsExpired(table, p.dryRun() ? expiration.dryRun() : expiration.expire());
        });
    }

    private static Optional<String> partitionExpirationDoesNotApply(FileStoreTable t, PartitionExpiration p) {
        if (t.schema().partitionKeys().isEmpty()) {
            return Optional.of("table " + t.name() + " is not partitioned: no partition to expire");
        }
        if (p.olderThan().isEmpty() && t.schema().tableOptions().get(ExpireOptions.PARTITION_EXPIRATION_TIME) == null) {
            return Optional.of("table " + t.name() + " has no " + ExpireOptions.PARTITION_EXPIRATION_TIME.key()
                    + ": set the table option or older-than in the config's partition-expiration");
        }
        return Optional.empty();
    }

    /**
     * Creates the automatic tag the table's {@code tag.*} options call for now, if no commit created
     * it, and deletes automatic tags beyond {@code tag.num-retained-max}; a table without
     * {@code tag.automatic-creation} is skipped with the reason. By the conflict matrix it runs
     * beside every scheduled operation but another automatic tag of the table (which Quartz does
     * not start while one runs): a run skipped behind a long compaction or expiration could leave a
     * period without its tag, as only the last complete period is tagged.
     */
    public Outcome autoTag(String table, AutoTag a) throws Exception {
        return holding(table, OperationKind.AUTO_TAG, () -> {
            FileStoreTable t = catalog.getTable(table);
            if (t.schema().tableOptions().get(TagOptions.AUTOMATIC_CREATION) == TagOptions.AutomaticCreation.NONE) {
                return new Outcome.Skipped(
                        table,
                        OperationKind.AUTO_TAG,
                        "table " + table + " has " + TagOptions.AUTOMATIC_CREATION.key()
                                + " none: set it to process-time for automatic tags",
                        Optional.empty());
            }
            return new Outcome.AutoTagged(table, t.tags().createAutomaticTag());
        });
    }

    /** Deletes orphan files older than {@code o.olderThan()}, or with {@code dryRun} only finds them. */
    public Outcome cleanOrphans(String table, OrphanCleanup o) throws Exception {
        return holding(table, OperationKind.ORPHAN_CLEANUP, () -> {
            var clean = catalog.getTable(table).newOrphanFilesClean(o.olderThan());
            OrphanCleanResult r = o.dryRun() ? clean.dryRun() : clean.clean();
            return new Outcome.OrphansCleaned(table, r);
        });
    }

    /**
     * A full compaction that was due at {@code due}: it starts only while {@code f}'s window is
     * open, late or not; otherwise it is skipped with the instant the window next opens.
     */
    public Outcome fullCompaction(String table, FullCompaction f, Compaction placement, Instant due) throws Exception {
        StartDecision d = f.window().decide(due, clock.instant());
        if (!d.startsNow()) {
            Outcome skipped = new Outcome.Skipped(table, OperationKind.FULL_COMPACTION, d.reason(), d.startAt());
            LOG.info("{} {}: {}", table, OperationKind.FULL_COMPACTION.key(), skipped.summary());
            return skipped;
        }
        return holding(
                table,
                OperationKind.FULL_COMPACTION,
                () -> new Outcome.Compacted(
                        table,
                        OperationKind.FULL_COMPACTION,
                        compactions.compact(table, CompactStrategy.FULL, placement)));
    }

    /** One poll of the table's latest snapshot (manifests only), for backlog, metrics and status. */
    public TableHealth probe(String table) {
        return TableHealth.probe(pollCatalog.getTable(table));
    }

    /**
     * Whether a backlog poll due at {@code due} comes more than one interval late (queued behind a
     * long run): then it is skipped, as the next one on schedule reads a fresher snapshot.
     */
    public Optional<Outcome> lateBacklogPoll(String table, BacklogCompaction b, Instant due) {
        if (Duration.between(due, clock.instant()).compareTo(b.pollInterval()) <= 0) {
            return Optional.empty();
        }
        LOG.debug("{} backlog poll due at {} skipped: more than one interval late", table, due);
        return Optional.of(new Outcome.Skipped(
                table,
                OperationKind.BACKLOG_COMPACTION,
                "a poll due at " + due + " is more than one interval late",
                Optional.empty()));
    }

    /**
     * Runs a minor compaction of a table whose polled {@code backlog} is over the thresholds (the
     * table's own triggers pick what to merge, and a table producing lookup changelog gets its
     * lookup compaction).
     */
    public Outcome compactBacklog(String table, Backlog backlog, Compaction placement) throws Exception {
        return holding(table, OperationKind.BACKLOG_COMPACTION, () -> {
            LOG.info("{} backlog: {}; compacting", table, backlog);
            return new Outcome.Compacted(
                    table,
                    OperationKind.BACKLOG_COMPACTION,
                    compactions.compact(table, CompactStrategy.MINOR, placement));
        });
    }

    private interface Work {
        Outcome run() throws Exception;
    }

    /**
     * Runs {@code work} holding {@code table} for {@code kind} in {@link #locks}; skipped, with the
     * running operation named, when one that conflicts with it ({@code LeaseOperation}'s matrix)
     * holds the table.
     */
    private Outcome holding(String table, OperationKind kind, Work work) throws Exception {
        LeaseOperation operation = kind.leaseOperation();
        Optional<LeaseOperation> busy = locks.tryAcquire(table, operation);
        if (busy.isPresent()) {
            Outcome skipped = new Outcome.Skipped(
                    table, kind, "the table is busy with " + busy.get().id() + " in this scheduler", Optional.empty());
            LOG.info("{} {}: {}", table, kind.key(), skipped.summary());
            return skipped;
        }
        try {
            return timed(table, kind, work);
        } finally {
            locks.release(table, operation);
        }
    }

    /** Runs {@code work} and logs its outcome or failure with the time it took. */
    private static Outcome timed(String table, OperationKind kind, Work work) throws Exception {
        long start = System.nanoTime();
        try {
            Outcome o = work.run();
            LOG.info("{} {}: {} ({} ms)", table, kind.key(), o.summary(), (System.nanoTime() - start) / 1_000_000);
            return o;
        } catch (Exception e) {
            LOG.warn("{} {} failed after {} ms", table, kind.key(), (System.nanoTime() - start) / 1_000_000, e);
            throw e;
        }
    }
}
