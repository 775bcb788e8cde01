package io.strata.storage.mergetree;

import io.strata.storage.format.DataFileMeta;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Groups a bucket's files into sorted runs: every level-0 file is a run of its own (newest
 * first), and all files of a level >= 1 form one run, ordered by key (they never overlap).
 */
public final class SortedRuns {
    private SortedRuns() {}

    /**
     * @param keyComparator compares key tuples ({@link DataFileMeta#minKey()})
     */
    public static List<List<DataFileMeta>> of(List<DataFileMeta> files, Comparator<Object[]> keyComparator) {
        List<List<DataFileMeta>> runs = new ArrayList<>();
        List<DataFileMeta> level0 = new ArrayList<>();
        Map<Integer, List<DataFileMeta>> levels = new TreeMap<>();
        for (DataFileMeta f : files) {
            if (f.level() == 0) {
                level0.add(f);
            } else {
                levels.computeIfAbsent(f.level(), l -> new ArrayList<>()).add(f);
            }
        }
        level0.sort(Comparator.comparingLong(DataFileMeta::maxSequence).reversed());
        for (DataFileMeta f : level0) {
            runs.add(List.of(f));
        }
        for (List<DataFileMeta> level : levels.values()) {
            level.sort((a, b) -> keyComparator.compare(a.minKey(), b.minKey()));
            runs.add(level);
        }
        return runs;
    }
}
