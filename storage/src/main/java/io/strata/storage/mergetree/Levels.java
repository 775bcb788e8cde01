package io.strata.storage.mergetree;

import io.strata.storage.format.DataFileMeta;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The immutable LSM shape of one bucket, derived from its live files: level 0 holds one sorted
 * run per file (newest first), each level >= 1 is one sorted run. Changes are made by
 * {@link #apply}, which returns a new instance (like LevelDB's Version and VersionEdit).
 */
public final class Levels {
    private final List<DataFileMeta> level0;
    private final List<SortedRun> levels; // index i is level i + 1
    private final Comparator<Object[]> keyComparator;

    private Levels(List<DataFileMeta> level0, List<SortedRun> levels, Comparator<Object[]> keyComparator) {
        this.level0 = level0;
        this.levels = levels;
        this.keyComparator = keyComparator;
    }

    /**
     * @param numLevels     levels of the tree; files found on a higher level widen it
     * @param keyComparator compares key tuples ({@link DataFileMeta#minKey()})
     */
    public static Levels of(List<DataFileMeta> files, int numLevels, Comparator<Object[]> keyComparator) {
        int top = numLevels - 1;
        for (DataFileMeta f : files) {
            top = Math.max(top, f.level());
        }
        List<DataFileMeta> l0 = new ArrayList<>();
        List<List<DataFileMeta>> byLevel = new ArrayList<>();
        for (int i = 0; i < top; i++) {
            byLevel.add(new ArrayList<>());
        }
        for (DataFileMeta f : files) {
            if (f.level() == 0) {
                l0.add(f);
            } else {
                byLevel.get(f.level() - 1).add(f);
            }
        }
        l0.sort(Comparator.comparingLong(DataFileMeta::maxSequence).reversed().thenComparing(DataFileMeta::fileName));
        List<SortedRun> runs = new ArrayList<>();
        for (List<DataFileMeta> level : byLevel) {
            level.sort((a, b) -> keyComparator.compare(a.minKey(), b.minKey()));
            runs.add(new SortedRun(level));
        }
        return new Levels(List.copyOf(l0), List.copyOf(runs), keyComparator);
    }

    public int numberOfLevels() {
        return levels.size() + 1;
    }

    public int maxLevel() {
        return levels.size();
    }

    public List<DataFileMeta> level0() {
        return level0;
    }

    public SortedRun runOfLevel(int level) {
        if (level == 0) {
            throw new IllegalArgumentException("level 0 holds one run per file");
        }
        return levels.get(level - 1);
    }

    /** Every sorted run, newest first: level-0 files by descending sequence, then levels 1, 2, ... */
    public List<LevelSortedRun> levelSortedRuns() {
        List<LevelSortedRun> out = new ArrayList<>();
        for (DataFileMeta f : level0) {
            out.add(new LevelSortedRun(0, new SortedRun(List.of(f))));
        }
        for (int i = 0; i < levels.size(); i++) {
            if (!levels.get(i).isEmpty()) {
                out.add(new LevelSortedRun(i + 1, levels.get(i)));
            }
        }
        return out;
    }

    public int numberOfSortedRuns() {
        int n = level0.size();
        for (SortedRun r : levels) {
            if (!r.isEmpty()) {
                n++;
            }
        }
        return n;
    }

    /** The highest level holding a file, or -1 when the bucket is empty. */
    public int nonEmptyHighestLevel() {
        for (int i = levels.size() - 1; i >= 0; i--) {
            if (!levels.get(i).isEmpty()) {
                return i + 1;
            }
        }
        return level0.isEmpty() ? -1 : 0;
    }

    public List<DataFileMeta> allFiles() {
        List<DataFileMeta> out = new ArrayList<>(level0);
        for (SortedRun r : levels) {
            out.addAll(r.files());
        }
        return out;
    }

    /** These levels with {@code before} removed and {@code after} added (identified by name and level). */
    public Levels apply(List<DataFileMeta> before, List<DataFileMeta> after) {
        Set<String> removed = new HashSet<>();
        for (DataFileMeta f : before) {
            removed.add(f.level() + "/" + f.fileName());
        }
        List<DataFileMeta> files = new ArrayList<>();
        for (DataFileMeta f : allFiles()) {
            if (!removed.contains(f.level() + "/" + f.fileName())) {
                files.add(f);
            }
        }
        files.addAll(after);
        return of(files, numberOfLevels(), keyComparator);
    }

    @Override
    public String toString() {
        return "Levels" + levelSortedRuns();
    }
}
