package io.strata.storage.compact;

import io.strata.storage.data.BucketId;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.mergetree.BucketEdit;
import io.strata.storage.mergetree.Levels;
import io.strata.storage.mergetree.MergeTreeWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Inline compaction of one bucket for a writer that is not write-only (Paimon's default mode):
 * after every flush the bucket's triggers are checked and at most one compaction runs in the
 * background; the writer waits only when the bucket reaches {@code num-sorted-run.stop-trigger}
 * sorted runs (or, with {@code waitForCompaction}, for every compaction it starts: the lookup
 * changelog producer's {@code changelog-producer.lookup-wait}, default true). With the lookup strategy in gentle mode, level 0 is forced up only every
 * {@code gentleInterval} triggers. Finished compactions are handed to the next commit. Not thread-safe: called by
 * the writer's thread only; the rewrite itself runs on the executor.
 */
public final class CompactManager implements MergeTreeWriter.CompactHook {
    private final BucketId bucket;
    private final CompactPlanner planner;
    private final CompactStrategy strategy;
    private final CompactRewriter rewriter;
    private final ExecutorService executor;
    private final int stopTrigger;
    private final boolean waitForCompaction;
    private final int gentleInterval;
    private int triggersWithoutLevel0;

    private Levels levels;
    private Future<CompactResult> running;
    private final List<DataFileMeta> before = new ArrayList<>();
    private final List<DataFileMeta> after = new ArrayList<>();
    private final List<DataFileMeta> changelog = new ArrayList<>();

    public CompactManager(
            BucketId bucket,
            Levels levels,
            CompactPlanner planner,
            CompactStrategy strategy,
            CompactRewriter rewriter,
            ExecutorService executor,
            int stopTrigger,
            boolean waitForCompaction,
            int gentleInterval) {
        this.waitForCompaction = waitForCompaction;
        this.gentleInterval = gentleInterval;
        this.bucket = bucket;
        this.levels = levels;
        this.planner = planner;
        this.strategy = strategy;
        this.rewriter = rewriter;
        this.executor = executor;
        this.stopTrigger = stopTrigger;
    }

    public Levels levels() {
        return levels;
    }

    /** Registers files the writer flushed, collects a finished compaction, and starts the next one if triggered. */
    @Override
    public void afterFlush(List<DataFileMeta> newFiles) {
        levels = levels.apply(List.of(), newFiles);
        collect(false);
        maybeStart();
        while (running != null && levels.numberOfSortedRuns() >= stopTrigger) {
            collect(true);
            maybeStart();
        }
        if (waitForCompaction) {
            // lookup changelog: the commit carries the changelog of its own rows (Paimon's lookup-wait)
            collect(true);
        }
    }

    private void maybeStart() {
        if (running != null) {
            return;
        }
        Optional<CompactPlan> plan = planner.plan(bucket, levels, effectiveStrategy());
        if (plan.isPresent() && plan.get().inputFiles().containsAll(levels.level0())) {
            triggersWithoutLevel0 = 0;
        }
        if (plan.isPresent()) {
            CompactPlan p = plan.get();
            running = executor.submit(() -> rewriter.rewrite(p));
        }
    }

    /**
     * The lookup strategy, gentle ({@code gentleInterval > 0}): minor, except every
     * {@code gentleInterval}-th trigger without a level-0 compaction forces level 0 up.
     */
    private CompactStrategy effectiveStrategy() {
        if (strategy != CompactStrategy.LOOKUP || gentleInterval <= 0) {
            return strategy;
        }
        triggersWithoutLevel0++;
        return triggersWithoutLevel0 >= gentleInterval ? CompactStrategy.LOOKUP : CompactStrategy.MINOR;
    }

    private void collect(boolean blocking) {
        if (running == null || (!blocking && !running.isDone())) {
            return;
        }
        CompactResult r;
        try {
            r = running.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for compaction of " + bucket, e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof IOException) {
                throw new UncheckedIOException(
                        "compaction of " + bucket + " failed: " + c.getMessage(), (IOException) c);
            }
            throw new IllegalStateException("compaction of " + bucket + " failed: " + c, c);
        } finally {
            running = null;
        }
        levels = levels.apply(r.before(), r.after());
        // a file compacted twice before a commit: drop the intermediate one from both sides
        Set<String> intermediate = new HashSet<>();
        for (DataFileMeta f : r.before()) {
            intermediate.add(f.level() + "/" + f.fileName());
        }
        List<DataFileMeta> keptAfter = new ArrayList<>();
        for (DataFileMeta f : after) {
            if (!intermediate.remove(f.level() + "/" + f.fileName())) {
                keptAfter.add(f);
            }
        }
        after.clear();
        after.addAll(keptAfter);
        for (DataFileMeta f : r.before()) {
            if (intermediate.contains(f.level() + "/" + f.fileName())) {
                before.add(f);
            }
        }
        after.addAll(r.after());
        changelog.addAll(r.changelog());
    }

    /** Compaction changes finished since the last call: files replaced and files replacing them. */
    @Override
    public BucketEdit drainChanges() {
        BucketEdit out = new BucketEdit(before, after, changelog);
        before.clear();
        after.clear();
        changelog.clear();
        return out;
    }

    @Override
    public void sync() {
        collect(true);
        maybeStart();
        collect(true);
    }

    /**
     * Cancels a running compaction and waits for it to stop (a cancelled rewrite deletes the files
     * it wrote); returns the files of compactions that finished but were never handed out.
     * Cooperative, never by interrupt: see {@link CompactRewriter#cancel}.
     */
    @Override
    public List<DataFileMeta> cancel() {
        if (running != null) {
            rewriter.cancel();
            try {
                collect(true);
            } catch (RuntimeException e) {
                // cancelled or failed: its files are deleted, nothing of it is handed out
            }
        }
        BucketEdit undrained = drainChanges();
        Set<String> replaced = new HashSet<>();
        for (DataFileMeta f : undrained.deletedFiles()) {
            replaced.add(f.fileName());
        }
        List<DataFileMeta> written = new ArrayList<>();
        for (DataFileMeta f : undrained.addedFiles()) {
            if (!replaced.contains(f.fileName())) {
                written.add(f);
            }
        }
        written.addAll(undrained.changelogFiles());
        rewriter.close();
        return written;
    }
}
