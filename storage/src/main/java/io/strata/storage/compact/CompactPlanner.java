package io.strata.storage.compact;

import io.strata.storage.data.BucketId;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.mergetree.Levels;
import io.strata.storage.mergetree.SortedRun;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Plans one bucket's compaction (pure: no I/O). Picks runs with the strategy, splits the picked
 * files into key-disjoint sections, and decides per section:
 * <ul>
 *   <li>several runs: rewrite (merge);</li>
 *   <li>one run: its files move to the output level without rewriting (a metadata-only
 *       upgrade), except files smaller than {@code compaction.small-file-ratio} x target size,
 *       which are rewritten together, and files that must be rewritten anyway: files with
 *       delete rows when deletes are dropped;</li>
 *   <li>a run already on the output level with nothing to merge stays as it is.</li>
 * </ul>
 */
public final class CompactPlanner {
    private final UniversalCompaction universal;
    private final IntervalPartition partitioner;
    private final long smallFileSize;

    public CompactPlanner(
            UniversalCompaction universal,
            Comparator<Object[]> keyComparator,
            long targetFileSize,
            double smallFileRatio) {
        this.universal = universal;
        this.partitioner = new IntervalPartition(keyComparator);
        this.smallFileSize = (long) (targetFileSize * smallFileRatio);
    }

    public Optional<CompactPlan> plan(BucketId bucket, Levels levels, CompactStrategy strategy) {
        Optional<CompactUnit> picked = strategy.pick(levels, universal);
        if (picked.isEmpty()) {
            return Optional.empty();
        }
        CompactUnit unit = picked.get();
        boolean dropDelete = unit.outputLevel() != 0 && unit.outputLevel() >= levels.nonEmptyHighestLevel();
        List<CompactPlan.Section> sections = new ArrayList<>();
        for (List<SortedRun> section : partitioner.partition(unit.files())) {
            if (section.size() > 1) {
                sections.add(new CompactPlan.Section(section, true));
            } else {
                splitSingleRun(section.get(0), unit.outputLevel(), dropDelete, sections);
            }
        }
        if (sections.stream()
                .noneMatch(s -> s.rewrite() || s.files().stream().anyMatch(f -> f.level() != unit.outputLevel()))) {
            return Optional.empty(); // every file is already where it would go
        }
        return Optional.of(new CompactPlan(bucket, unit, dropDelete, sections, levels));
    }

    private void splitSingleRun(SortedRun run, int outputLevel, boolean dropDelete, List<CompactPlan.Section> out) {
        List<DataFileMeta> pendingRewrite = new ArrayList<>();
        for (DataFileMeta f : run.files()) {
            boolean mustRewrite = f.fileSize() < smallFileSize || (dropDelete && f.deleteRowCount() > 0);
            if (mustRewrite) {
                pendingRewrite.add(f);
            } else {
                if (!pendingRewrite.isEmpty()) {
                    out.add(new CompactPlan.Section(List.of(new SortedRun(pendingRewrite)), true));
                    pendingRewrite = new ArrayList<>();
                }
                out.add(new CompactPlan.Section(List.of(new SortedRun(List.of(f))), false));
            }
        }
        if (!pendingRewrite.isEmpty()) {
            out.add(new CompactPlan.Section(List.of(new SortedRun(pendingRewrite)), true));
        }
    }
}
