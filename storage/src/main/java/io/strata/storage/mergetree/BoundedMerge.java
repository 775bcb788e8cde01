package io.strata.storage.mergetree;

import io.strata.storage.data.KeyValue;
import io.strata.storage.merge.MergeFunction;
import io.strata.storage.util.CloseableIterator;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Merges any number of sorted runs within two bounds on what is open at once, a count of runs and
 * an estimate of their read memory: while the runs do not fit, adjacent runs chosen by
 * {@link SpillPlanner} are merged (partially, so nothing is lost) into local spill files, which take
 * their place. Memory therefore depends on the bounds, never on the number of runs (a bucket with
 * hundreds of level-0 files), and runs that fit are merged in one pass without spilling.
 *
 * <p>REQUIRES: {@code runs} ordered by age (newest first), such that for every key all versions
 * in a run are newer than all its versions in the runs after it, as the LSM levels guarantee.
 * Only then does a batch of adjacent runs hold, for each key, a contiguous range of its versions,
 * which is what a partial merge needs to be exact: pre-merging non-adjacent runs would fold
 * partial-update and aggregation versions out of order.
 */
public final class BoundedMerge {
    /** The read memory a spill file holds while open: its read buffer. */
    static final long SPILL_READ_MEMORY = SpillFile.BUFFER_BYTES;

    private BoundedMerge() {}

    /** A sorted run, opened only when merged, and the memory it holds while open (an estimate). */
    public record Run(Supplier<CloseableIterator<KeyValue>> open, long memory) {}

    /**
     * What a merge may hold open at once: at most {@code maxRuns} runs whose estimated memory adds
     * up to at most {@code maxMemory}; two runs are always allowed, whatever their size.
     */
    public record Bounds(int maxRuns, long maxMemory) {
        public Bounds {
            if (maxRuns < 2 || maxMemory <= 0) {
                throw new IllegalArgumentException(
                        "a merge needs at least 2 runs and some memory: " + maxRuns + " runs, " + maxMemory + " bytes");
            }
        }
    }

    /**
     * @param runs newest first
     * @param mode what the final merge emits
     */
    public static CloseableIterator<KeyValue> merge(
            List<Run> runs,
            Bounds bounds,
            File spillDir,
            RecordComparator comparator,
            Supplier<MergeFunction> functions,
            MergingIterator.Mode mode) {
        List<Run> pending = new ArrayList<>(runs);
        List<SpillFile> spills = new ArrayList<>();
        try {
            List<SpillPlanner.Window> round;
            while (!(round = SpillPlanner.nextRound(
                            memories(pending), bounds.maxRuns(), bounds.maxMemory(), SPILL_READ_MEMORY))
                    .isEmpty()) {
                List<Run> next = new ArrayList<>();
                int at = 0;
                for (SpillPlanner.Window w : round) {
                    next.addAll(pending.subList(at, w.from()));
                    try (MergingIterator merged = new MergingIterator(
                            open(pending.subList(w.from(), w.to())),
                            comparator,
                            functions.get(),
                            MergingIterator.Mode.PARTIAL)) {
                        SpillFile spill = SpillFile.write(spillDir, merged);
                        spills.add(spill);
                        next.add(new Run(
                                () -> {
                                    try {
                                        return spill.read();
                                    } catch (IOException e) {
                                        throw new UncheckedIOException(e);
                                    }
                                },
                                SPILL_READ_MEMORY));
                    }
                    at = w.to();
                }
                next.addAll(pending.subList(at, pending.size()));
                pending = next;
            }
            MergingIterator merged = new MergingIterator(open(pending), comparator, functions.get(), mode);
            return new CloseableIterator<>() {
                @Override
                public boolean hasNext() {
                    return merged.hasNext();
                }

                @Override
                public KeyValue next() {
                    return merged.next();
                }

                @Override
                public void close() {
                    try {
                        merged.close();
                    } finally {
                        spills.forEach(SpillFile::delete);
                    }
                }
            };
        } catch (IOException e) {
            spills.forEach(SpillFile::delete);
            throw new UncheckedIOException("cannot spill while merging sorted runs: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            spills.forEach(SpillFile::delete);
            throw e;
        }
    }

    private static long[] memories(List<Run> runs) {
        long[] m = new long[runs.size()];
        for (int i = 0; i < m.length; i++) {
            m[i] = runs.get(i).memory();
        }
        return m;
    }

    private static List<CloseableIterator<KeyValue>> open(List<Run> runs) {
        List<CloseableIterator<KeyValue>> out = new ArrayList<>();
        try {
            for (Run r : runs) {
                out.add(r.open().get());
            }
        } catch (RuntimeException e) {
            out.forEach(CloseableIterator::close);
            throw e;
        }
        return out;
    }
}
