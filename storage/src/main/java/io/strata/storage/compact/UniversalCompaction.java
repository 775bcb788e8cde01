package io.strata.storage.compact;

import io.strata.storage.mergetree.LevelSortedRun;
import java.util.List;
import java.util.Optional;

/**
 * The universal compaction picker (Paimon's, after RocksDB's): pure, no I/O, no clock. Given a
 * bucket's sorted runs, newest first, it tries each trigger in turn:
 * <ol>
 *   <li>size amplification: the runs above the oldest hold more than
 *       {@code maxSizeAmpPercent} of the oldest run's size: pick everything (to the top level);</li>
 *   <li>size ratio: starting from the newest run, add the next older run while it is no bigger
 *       than the candidates so far times (100 + {@code sizeRatio}) / 100; pick if more than one;</li>
 *   <li>run count: more runs than {@code trigger}: force-pick the newest runs needed to get
 *       back to the trigger, extended by size ratio.</li>
 * </ol>
 * Output level: the level just below the first run not picked, never 0 (level-0 runs are taken
 * up to the first non-zero level instead); everything picked means the top level.
 */
public final class UniversalCompaction {
    private final int maxSizeAmpPercent;
    private final int sizeRatio;
    private final int trigger;

    public UniversalCompaction(int maxSizeAmpPercent, int sizeRatio, int trigger) {
        this.maxSizeAmpPercent = maxSizeAmpPercent;
        this.sizeRatio = sizeRatio;
        this.trigger = trigger;
    }

    /** @param runs newest first; {@code numLevels} levels 0 .. numLevels - 1 */
    public Optional<CompactUnit> pick(int numLevels, List<LevelSortedRun> runs) {
        int maxLevel = numLevels - 1;
        if (runs.size() < trigger || runs.size() < 2) {
            return Optional.empty();
        }
        Optional<CompactUnit> unit = pickForSizeAmplification(maxLevel, runs);
        if (unit.isPresent()) {
            return unit;
        }
        unit = pickForSizeRatio(maxLevel, runs);
        if (unit.isPresent()) {
            return unit;
        }
        if (runs.size() > trigger) {
            return Optional.of(
                    forcePickForSizeRatio(maxLevel, runs, runs.size() - trigger + 1, CompactReason.RUN_COUNT));
        }
        return Optional.empty();
    }

    private Optional<CompactUnit> pickForSizeAmplification(int maxLevel, List<LevelSortedRun> runs) {
        long candidates = 0;
        for (int i = 0; i < runs.size() - 1; i++) {
            candidates += runs.get(i).run().totalSize();
        }
        long oldest = runs.get(runs.size() - 1).run().totalSize();
        if (candidates * 100 > (long) maxSizeAmpPercent * oldest) {
            return Optional.of(new CompactUnit(maxLevel, runs, CompactReason.SIZE_AMPLIFICATION));
        }
        return Optional.empty();
    }

    /** The newest run extended by size ratio, if that takes at least two runs. */
    private Optional<CompactUnit> pickForSizeRatio(int maxLevel, List<LevelSortedRun> runs) {
        int count = sizeRatioRunCount(runs, 1);
        if (count > 1) {
            return Optional.of(unit(runs, maxLevel, count, CompactReason.SIZE_RATIO));
        }
        return Optional.empty();
    }

    /**
     * The {@code candidateCount} newest runs extended by size ratio, even if that is a single run.
     * Public for strategies that force a start (the lookup strategy forces all level-0 runs).
     */
    public CompactUnit forcePickForSizeRatio(
            int maxLevel, List<LevelSortedRun> runs, int candidateCount, CompactReason reason) {
        return unit(runs, maxLevel, sizeRatioRunCount(runs, candidateCount), reason);
    }

    /** How many of the newest runs, from {@code candidateCount}, stay within the size ratio. */
    private int sizeRatioRunCount(List<LevelSortedRun> runs, int candidateCount) {
        int count = Math.min(candidateCount, runs.size());
        long size = 0;
        for (int i = 0; i < count; i++) {
            size += runs.get(i).run().totalSize();
        }
        for (int i = count; i < runs.size(); i++) {
            long next = runs.get(i).run().totalSize();
            if (size * (100.0 + sizeRatio) / 100.0 < next) {
                break;
            }
            size += next;
            count++;
        }
        return count;
    }

    static CompactUnit unit(List<LevelSortedRun> runs, int maxLevel, int runCount, CompactReason reason) {
        int count = runCount;
        int outputLevel;
        if (count == runs.size()) {
            outputLevel = maxLevel;
        } else {
            outputLevel = Math.max(0, runs.get(count).level() - 1);
        }
        if (outputLevel == 0) {
            // never write level 0: take the following level-0 runs too, up to the first higher level
            for (int i = count; i < runs.size(); i++) {
                LevelSortedRun next = runs.get(i);
                count++;
                if (next.level() != 0) {
                    outputLevel = next.level();
                    break;
                }
            }
        }
        if (count == runs.size()) {
            outputLevel = maxLevel;
        }
        return new CompactUnit(outputLevel, runs.subList(0, count), reason);
    }
}
