package io.strata.storage.compact;

import io.strata.storage.format.DataFileMeta;
import io.strata.storage.mergetree.SortedRun;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Splits files into sections: groups whose key ranges overlap (transitively), so that different
 * sections share no key and can be rewritten independently, in parallel. Inside a section the
 * files are packed into as few sorted runs as possible (greedy: a file joins the run whose last
 * file ends before it starts, choosing the run that ends earliest), because merge cost grows
 * with the number of runs, not files.
 */
public final class IntervalPartition {
    private final Comparator<Object[]> keyComparator;

    public IntervalPartition(Comparator<Object[]> keyComparator) {
        this.keyComparator = keyComparator;
    }

    /** Sections in key order, each a list of sorted runs. */
    public List<List<SortedRun>> partition(List<DataFileMeta> files) {
        List<DataFileMeta> sorted = new ArrayList<>(files);
        sorted.sort((a, b) -> {
            int c = keyComparator.compare(a.minKey(), b.minKey());
            return c != 0 ? c : keyComparator.compare(a.maxKey(), b.maxKey());
        });
        List<List<SortedRun>> sections = new ArrayList<>();
        List<DataFileMeta> section = new ArrayList<>();
        Object[] sectionMax = null;
        for (DataFileMeta f : sorted) {
            if (!section.isEmpty() && keyComparator.compare(f.minKey(), sectionMax) > 0) {
                sections.add(packRuns(section));
                section = new ArrayList<>();
                sectionMax = null;
            }
            section.add(f);
            if (sectionMax == null || keyComparator.compare(f.maxKey(), sectionMax) > 0) {
                sectionMax = f.maxKey();
            }
        }
        if (!section.isEmpty()) {
            sections.add(packRuns(section));
        }
        return sections;
    }

    private List<SortedRun> packRuns(List<DataFileMeta> section) {
        // heap of runs by the max key of their last file
        PriorityQueue<List<DataFileMeta>> runs = new PriorityQueue<>((a, b) -> keyComparator.compare(
                a.get(a.size() - 1).maxKey(), b.get(b.size() - 1).maxKey()));
        for (DataFileMeta f : section) {
            List<DataFileMeta> earliest = runs.peek();
            if (earliest != null
                    && keyComparator.compare(earliest.get(earliest.size() - 1).maxKey(), f.minKey()) < 0) {
                runs.poll();
                earliest.add(f);
                runs.add(earliest);
            } else {
                List<DataFileMeta> run = new ArrayList<>();
                run.add(f);
                runs.add(run);
            }
        }
        List<SortedRun> out = new ArrayList<>();
        for (List<DataFileMeta> r : runs) {
            out.add(new SortedRun(r));
        }
        return out;
    }
}
