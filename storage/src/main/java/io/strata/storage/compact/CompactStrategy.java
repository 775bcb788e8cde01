package io.strata.storage.compact;

import io.strata.storage.mergetree.LevelSortedRun;
import io.strata.storage.mergetree.Levels;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** What a compaction is asked to do for a bucket. */
public enum CompactStrategy {
    /** Everything to the top level (skipped when the bucket is already one top-level run without deletes). */
    FULL,
    /** Only what the universal triggers ask for. */
    MINOR,
    /** Like minor, but level-0 files are always forced up (the lookup changelog producer needs that). */
    LOOKUP;

    /**
     * The strategy named {@code s} in any case: a command line's, or a name a job shipped or
     * checkpointed ({@link #name()}).
     *
     * @throws IllegalArgumentException naming {@code s} and the known strategies
     */
    public static CompactStrategy parse(String s) {
        for (CompactStrategy c : values()) {
            if (c.name().equalsIgnoreCase(s.trim())) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown compaction strategy '" + s + "' (known: "
                + Arrays.stream(values())
                        .map(c -> c.name().toLowerCase(Locale.ROOT))
                        .collect(Collectors.joining(", "))
                + ")");
    }

    /** Picks runs of {@code levels}; pure. */
    public Optional<CompactUnit> pick(Levels levels, UniversalCompaction universal) {
        List<LevelSortedRun> runs = levels.levelSortedRuns();
        int maxLevel = levels.maxLevel();
        switch (this) {
            case FULL: {
                if (runs.isEmpty()) {
                    return Optional.empty();
                }
                if (runs.size() == 1 && runs.get(0).level() == maxLevel && !hasDeletes(runs.get(0))) {
                    return Optional.empty();
                }
                return Optional.of(new CompactUnit(maxLevel, runs, CompactReason.FULL));
            }
            case MINOR:
                return universal.pick(levels.numberOfLevels(), runs);
            case LOOKUP: {
                Optional<CompactUnit> unit = universal.pick(levels.numberOfLevels(), runs);
                if (unit.isPresent() || levels.level0().isEmpty()) {
                    return unit;
                }
                return Optional.of(universal.forcePickForSizeRatio(
                        maxLevel, runs, levels.level0().size(), CompactReason.FORCE_LEVEL0));
            }
            default:
                throw new IllegalStateException(name());
        }
    }

    private static boolean hasDeletes(LevelSortedRun run) {
        return run.run().files().stream().anyMatch(f -> f.deleteRowCount() > 0);
    }
}
