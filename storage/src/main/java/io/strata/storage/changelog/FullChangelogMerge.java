package io.strata.storage.changelog;

import io.strata.storage.data.KeyValue;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.format.DataFilePathFactory;
import io.strata.storage.format.RollingFileWriter;
import io.strata.storage.merge.MergeFunction;
import io.strata.storage.mergetree.BucketReader;
import io.strata.storage.mergetree.Levels;
import io.strata.storage.mergetree.MergingIterator;
import io.strata.storage.mergetree.TaggedKeyGroups;
import io.strata.storage.store.TableContext;
import io.strata.storage.util.CloseableIterator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@code full-compaction} changelog producer inside the compaction's own merge: one pass over
 * a rewritten section's files, each version tagged with its level, gives per key both the
 * compacted records (the merge engine's top-level or partial result over all versions, exactly
 * what the plain rewrite writes) and the changelog between the old top level and the new state
 * ({@link ChangelogJoin#diff}, as {@link ChangelogProducer} computes it in a separate pass).
 *
 * <p>Only valid when the compaction rewrites every file of the bucket (every section rewritten):
 * then the sections, being key-disjoint, together visit every key once, as the separate pass does.
 * Streams like the rewrite: open runs are the section's levels plus the level-0 runs, pre-merged
 * within the merge bounds as in {@link BucketReader#mergeFiles}.
 */
public final class FullChangelogMerge {
    private final TableContext table;
    private final BucketReader reader;
    private final DataFilePathFactory paths;
    private final int maxLevel;
    private final boolean dropDelete;
    private final boolean rowDeduplicate;
    private final Levels levels;
    private final MergeFunction before;
    private final MergeFunction after;

    public FullChangelogMerge(
            TableContext table, DataFilePathFactory paths, Levels levels, boolean dropDelete, boolean rowDeduplicate) {
        this.table = table;
        this.reader = new BucketReader(table);
        this.paths = paths;
        this.levels = levels;
        this.maxLevel = levels.maxLevel();
        this.dropDelete = dropDelete;
        this.rowDeduplicate = rowDeduplicate;
        this.before = table.mergeEngines().functionFactory().get();
        this.after = table.mergeEngines().functionFactory().get();
    }

    /**
     * Merges {@code sectionFiles} into {@code data} and their changelog into {@code changelog}.
     * Returns the number of records written to {@code data}.
     */
    public long merge(List<DataFileMeta> sectionFiles, RollingFileWriter data, RollingFileWriter changelog)
            throws IOException {
        Set<String> inSection = new HashSet<>();
        List<DataFileMeta> level0 = new ArrayList<>();
        for (DataFileMeta f : sectionFiles) {
            inSection.add(f.fileName());
            if (f.level() == 0) {
                level0.add(f);
            }
        }
        List<CloseableIterator<KeyValue>> runs = new ArrayList<>();
        List<Integer> tags = new ArrayList<>();
        try {
            if (!level0.isEmpty()) {
                runs.add(reader.mergeFilesForRewrite(paths, level0, MergingIterator.Mode.PARTIAL));
                tags.add(0);
            }
            for (int level = 1; level <= maxLevel; level++) {
                List<DataFileMeta> files = new ArrayList<>();
                for (DataFileMeta f : levels.runOfLevel(level).files()) {
                    if (inSection.contains(f.fileName())) {
                        files.add(f);
                    }
                }
                if (!files.isEmpty()) {
                    runs.add(reader.readRunForRewrite(paths, files));
                    tags.add(level);
                }
            }
        } catch (RuntimeException e) {
            runs.forEach(CloseableIterator::close);
            throw e;
        }
        long written = 0;
        List<KeyValue> ready = new ArrayList<>(2);
        try (TaggedKeyGroups groups = new TaggedKeyGroups(
                runs, tags.stream().mapToInt(Integer::intValue).toArray(), reader.rewriteComparator())) {
            while (groups.hasNext()) {
                List<TaggedKeyGroups.Version> versions = groups.next();
                boolean anyBefore = false;
                long beforeSeq = 0;
                long afterSeq = 0;
                before.reset();
                after.reset();
                for (TaggedKeyGroups.Version v : versions) {
                    if (v.tag == maxLevel) {
                        before.add(v.kv);
                        anyBefore = true;
                        beforeSeq = v.kv.sequence();
                    }
                    after.add(v.kv);
                    afterSeq = v.kv.sequence();
                }
                for (KeyValue kv : dropDelete ? after.topLevelResult() : after.partialResult()) {
                    data.write(kv);
                    written++;
                }
                ready.clear();
                ChangelogJoin.diff(anyBefore ? before : null, beforeSeq, after, afterSeq, rowDeduplicate, ready);
                for (KeyValue kv : ready) {
                    changelog.write(kv);
                }
            }
        }
        return written;
    }
}
