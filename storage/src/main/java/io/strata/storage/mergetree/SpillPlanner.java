package io.strata.storage.mergetree;

import java.util.ArrayList;
import java.util.List;

/**
 * Decides which adjacent sorted runs a bounded merge pre-merges into local spill files before its
 * final merge: pure, from each run's estimated read memory (what the run holds while open: one row
 * group of its current file) and the two bounds of a merge, the most runs and the most memory
 * open at once.
 *
 * <p>A round returns nothing when the runs fit the bounds (or are two or fewer: a merge always
 * opens two runs, whatever their size). Otherwise it returns the one window of adjacent runs whose
 * pre-merge makes the rest fit at the least estimated cost (the window's memory, which for these
 * estimates tracks the bytes it re-writes), or, when no single window can, consecutive batches of
 * as many runs as fit (two at least). Every window holds two runs or more, so each round leaves
 * fewer runs and the rounds end.
 */
final class SpillPlanner {
    private SpillPlanner() {}

    /** A window {@code [from, to)} of adjacent runs to merge into one spill file. */
    record Window(int from, int to) {
        int size() {
            return to - from;
        }
    }

    /**
     * @param memory      each run's estimated read memory, in merge order
     * @param spillMemory the estimated read memory of a spill file
     */
    static List<Window> nextRound(long[] memory, int maxRuns, long maxMemory, long spillMemory) {
        int n = memory.length;
        long total = 0;
        for (long m : memory) {
            total += m;
        }
        if (n <= 2 || (n <= maxRuns && total <= maxMemory)) {
            return List.of();
        }
        Window best = null;
        long bestCost = Long.MAX_VALUE;
        for (int from = 0; from < n - 1; from++) {
            long window = memory[from];
            for (int to = from + 1; to < n; to++) {
                window += memory[to];
                int size = to - from + 1;
                if (size > 2 && (size > maxRuns || window > maxMemory)) {
                    break; // the window itself could not be merged at once
                }
                if (n - size + 1 <= maxRuns && total - window + spillMemory <= maxMemory) {
                    if (window < bestCost) {
                        best = new Window(from, to + 1);
                        bestCost = window;
                    }
                    break; // longer windows from here only cost more
                }
            }
        }
        if (best != null) {
            return List.of(best);
        }
        List<Window> batches = new ArrayList<>();
        int from = 0;
        while (from < n) {
            int to = from;
            long window = 0;
            while (to < n && (to - from < 2 || (to - from < maxRuns && window + memory[to] <= maxMemory))) {
                window += memory[to++];
            }
            if (to - from >= 2) {
                batches.add(new Window(from, to));
            }
            from = to;
        }
        return batches;
    }
}
