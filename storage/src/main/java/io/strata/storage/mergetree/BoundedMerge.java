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
 * Merges any number of sorted runs with at most {@code maxRuns} open at once: while there are
 * more, adjacent batches of runs are merged (partially, so nothing is lost) into local spill
 * files, which take their batch's place. Memory therefore depends on {@code maxRuns}, never on
 * the number of runs (a bucket with hundreds of level-0 files).
 *
 * <p>REQUIRES: {@code runs} ordered by age (newest first), such that for every key all versions
 * in a run are newer than all its versions in the runs after it, as the LSM levels guarantee.
 * Only then does a batch of adjacent runs hold, for each key, a contiguous range of its versions,
 * which is what a partial merge needs to be exact: pre-merging non-adjacent runs would fold
 * partial-update and aggregation versions out of order.
 */
public final class BoundedMerge {
    private BoundedMerge() {}

    /**
     * @param runs    suppliers of the runs' iterators, newest first, each opened only when merged
     * @param mode    what the final merge emits
     */
    public static CloseableIterator<KeyValue> merge(
            List<Supplier<CloseableIterator<KeyValue>>> runs,
            int maxRuns,
            File spillDir,
            RecordComparator comparator,
            Supplier<MergeFunction> functions,
            MergingIterator.Mode mode) {
        int fanIn = Math.max(2, maxRuns);
        List<Supplier<CloseableIterator<KeyValue>>> pending = new ArrayList<>(runs);
        List<SpillFile> spills = new ArrayList<>();
        try {
            while (pending.size() > fanIn) {
                List<Supplier<CloseableIterator<KeyValue>>> next = new ArrayList<>();
                for (int from = 0; from < pending.size(); from += fanIn) {
                    List<Supplier<CloseableIterator<KeyValue>>> batch =
                            pending.subList(from, Math.min(pending.size(), from + fanIn));
                    if (batch.size() == 1) {
                        next.add(batch.get(0));
                        continue;
                    }
                    try (MergingIterator merged = new MergingIterator(
                            open(batch), comparator, functions.get(), MergingIterator.Mode.PARTIAL)) {
                        SpillFile spill = SpillFile.write(spillDir, merged);
                        spills.add(spill);
                        next.add(() -> {
                            try {
                                return spill.read();
                            } catch (IOException e) {
                                throw new UncheckedIOException(e);
                            }
                        });
                    }
                }
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

    private static List<CloseableIterator<KeyValue>> open(List<Supplier<CloseableIterator<KeyValue>>> runs) {
        List<CloseableIterator<KeyValue>> out = new ArrayList<>();
        try {
            for (Supplier<CloseableIterator<KeyValue>> r : runs) {
                out.add(r.get());
            }
        } catch (RuntimeException e) {
            out.forEach(CloseableIterator::close);
            throw e;
        }
        return out;
    }
}
