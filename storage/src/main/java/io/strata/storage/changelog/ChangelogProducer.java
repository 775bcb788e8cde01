package io.strata.storage.changelog;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.ValueComparators;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.format.DataFilePathFactory;
import io.strata.storage.format.DataFileWriter;
import io.strata.storage.format.FileSource;
import io.strata.storage.format.RollingFileWriter;
import io.strata.storage.merge.MergeEngines;
import io.strata.storage.merge.MergeFunction;
import io.strata.storage.mergetree.BucketReader;
import io.strata.storage.mergetree.Levels;
import io.strata.storage.mergetree.MergingIterator;
import io.strata.storage.mergetree.RecordComparator;
import io.strata.storage.mergetree.TaggedKeyGroups;
import io.strata.storage.options.ChangelogOptions;
import io.strata.storage.options.ChangelogOptions.Producer;
import io.strata.storage.options.FileOptions;
import io.strata.storage.options.WriteOptions;
import io.strata.storage.schema.TableSchema;
import io.strata.storage.store.TableContext;
import io.strata.storage.util.CloseableIterator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Produces the changelog of a compaction for the {@code lookup} and {@code full-compaction}
 * producers, from one pass over every file of the bucket with each version tagged by its level
 * (see {@link ChangelogJoin}):
 * <ul>
 *   <li>lookup, when the compaction takes the level-0 files (it then takes all of them, since a
 *       compaction never writes level 0): before = the versions on levels >= 1 (each key's
 *       previous value), after = all versions; only keys present in level-0 files are emitted;</li>
 *   <li>full-compaction, when the compaction takes every run to the top level: before = the old
 *       top level alone (the state the previous full compaction left), after = all versions;
 *       every key is considered.</li>
 * </ul>
 * Streams, never loads: open runs are the levels plus the level-0 runs, pre-merged within the
 * merge bounds ({@code sort-spill-memory}, {@code sort-spill-threshold}). It reads the higher levels sequentially rather than probing a local lookup
 * cache.
 */
public final class ChangelogProducer {
    private final TableContext table;
    private final BucketReader reader;
    private final TableSchema schema;
    private final Producer producer;
    private final boolean rowDeduplicate;
    private final RecordComparator comparator;
    private final MergeEngines engines;
    private final long targetFileSize;
    private final DataFileWriter.Factory files;

    private final LookupCache lookupCache;

    /**
     * @param lookupCache the local lookup files of the bucket's higher levels (lookup producer),
     *                    kept by the caller across compactions of the bucket; null to stream the
     *                    higher levels instead
     */
    public ChangelogProducer(TableContext table, LookupCache lookupCache) {
        this.lookupCache = lookupCache;
        this.table = table;
        this.reader = new BucketReader(table);
        this.schema = table.schema();
        this.producer = schema.tableOptions().get(ChangelogOptions.CHANGELOG_PRODUCER);
        this.rowDeduplicate = schema.tableOptions().get(ChangelogOptions.ROW_DEDUPLICATE);
        this.engines = table.mergeEngines();
        this.comparator = new RecordComparator(schema, engines.sequenceFieldIndex());
        this.targetFileSize = schema.tableOptions().get(WriteOptions.TARGET_FILE_SIZE);
        this.files = DataFileWriter.forCommit(table.fileIO(), schema, table.formatConfig(), table.clock());
    }

    /**
     * Whether a compaction of the bucket {@code levels}, reading {@code inputFiles} into
     * {@code outputLevel}, must produce changelog under this table's producer.
     */
    public boolean applies(Levels levels, List<DataFileMeta> inputFiles, int outputLevel) {
        switch (producer) {
            case LOOKUP:
                return !levels.level0().isEmpty() && outputLevel > 0 && inputFiles.containsAll(levels.level0());
            case FULL_COMPACTION:
                return outputLevel == levels.maxLevel()
                        && inputFiles.size() == levels.allFiles().size();
            default:
                return false;
        }
    }

    /**
     * Writes the changelog files of a compaction of the bucket {@code levels} that
     * {@link #applies}; the caller commits them with the compaction.
     */
    public List<DataFileMeta> produce(Levels levels, DataFilePathFactory paths) throws IOException {
        if (producer == Producer.LOOKUP && lookupCache != null) {
            return produceByLookup(levels, paths);
        }
        int maxLevel = levels.maxLevel();
        // One pass over every file of the bucket, each run tagged with its level. Level-0 runs are
        // pre-merged among themselves when there are too many to keep open (they share tag 0).
        List<CloseableIterator<KeyValue>> runs = new ArrayList<>();
        List<Integer> tags = new ArrayList<>();
        try {
            if (!levels.level0().isEmpty()) {
                runs.add(reader.mergeFiles(paths, levels.level0(), MergingIterator.Mode.PARTIAL));
                tags.add(0);
            }
            for (int level = 1; level <= maxLevel; level++) {
                List<DataFileMeta> files = levels.runOfLevel(level).files();
                if (!files.isEmpty()) {
                    runs.add(reader.readRun(paths, files));
                    tags.add(level);
                }
            }
        } catch (RuntimeException e) {
            runs.forEach(CloseableIterator::close);
            throw e;
        }
        int[] tagArray = tags.stream().mapToInt(Integer::intValue).toArray();
        boolean lookup = producer == Producer.LOOKUP;
        RollingFileWriter out = new RollingFileWriter(
                files,
                paths.supplier(schema.tableOptions().get(FileOptions.CHANGELOG_FILE_PREFIX)),
                0,
                FileSource.COMPACT,
                targetFileSize,
                comparator.keys());
        try (ChangelogJoin join = new ChangelogJoin(
                new TaggedKeyGroups(runs, tagArray, comparator),
                lookup ? tag -> tag > 0 : tag -> tag == maxLevel,
                lookup ? tag -> tag == 0 : tag -> true,
                engines.functionFactory().get(),
                engines.functionFactory().get(),
                rowDeduplicate)) {
            while (join.hasNext()) {
                out.write(join.next());
            }
            return out.finish();
        } catch (IOException | RuntimeException e) {
            out.abort();
            throw e;
        }
    }

    /**
     * Lookup producer with the local lookup cache: streams only the level-0 versions, and for
     * each of their keys probes, per higher level, the one file whose key range holds the key.
     */
    private List<DataFileMeta> produceByLookup(Levels levels, DataFilePathFactory paths) throws IOException {
        List<List<DataFileMeta>> higher = new ArrayList<>();
        Set<String> live = new HashSet<>();
        for (int level = 1; level <= levels.maxLevel(); level++) {
            List<DataFileMeta> files = levels.runOfLevel(level).files();
            if (!files.isEmpty()) {
                higher.add(files);
                files.forEach(f -> live.add(f.fileName()));
            }
        }
        lookupCache.retainOnly(live);
        // rows as the compaction reads them (STRING values may be raw UTF-8): the lookup files are
        // built and probed in that form, and the level-0 versions must compare equal to them
        RecordComparator rewriteOrder = reader.rewriteComparator();
        Comparator<Object[]> keyTuples =
                ValueComparators.forTuple(schema.typesOf(schema.primaryKeyIndexes()), reader.rewritesRawStrings());
        int[] keyIdx = schema.primaryKeyIndexes();
        MergeFunction before = engines.functionFactory().get();
        MergeFunction after = engines.functionFactory().get();
        Comparator<KeyValue> order = rewriteOrder.records();
        RollingFileWriter out = new RollingFileWriter(
                files,
                paths.supplier(schema.tableOptions().get(FileOptions.CHANGELOG_FILE_PREFIX)),
                0,
                FileSource.COMPACT,
                targetFileSize,
                rewriteOrder.keys());
        List<KeyValue> ready = new ArrayList<>(2);
        try (TaggedKeyGroups level0 = new TaggedKeyGroups(
                List.of(reader.mergeFilesForRewrite(paths, levels.level0(), MergingIterator.Mode.PARTIAL)),
                new int[] {0},
                rewriteOrder)) {
            while (level0.hasNext()) {
                List<TaggedKeyGroups.Version> group = level0.next();
                Object[] row = group.get(0).kv.row();
                Object[] keyTuple = ValueComparators.project(row, keyIdx);
                byte[] key = lookupCache.keyOf(row);
                List<KeyValue> versions = new ArrayList<>();
                for (List<DataFileMeta> run : higher) {
                    DataFileMeta f = fileHolding(run, keyTuple, keyTuples);
                    if (f != null) {
                        versions.addAll(
                                lookupCache.get(f, key, file -> reader.readRunForRewrite(paths, List.of(file))));
                    }
                }
                versions.sort(order);
                List<KeyValue> all = new ArrayList<>(versions);
                for (TaggedKeyGroups.Version v : group) {
                    all.add(v.kv);
                }
                // under sequence.field a level-0 version may order before a higher-level one
                all.sort(order);
                before.reset();
                after.reset();
                versions.forEach(before::add);
                all.forEach(after::add);
                long bSeq = versions.isEmpty()
                        ? 0
                        : versions.get(versions.size() - 1).sequence();
                ready.clear();
                ChangelogJoin.diff(
                        versions.isEmpty() ? null : before,
                        bSeq,
                        after,
                        all.get(all.size() - 1).sequence(),
                        rowDeduplicate,
                        ready);
                for (KeyValue kv : ready) {
                    out.write(kv);
                }
            }
            return out.finish();
        } catch (IOException | RuntimeException e) {
            out.abort();
            throw e;
        }
    }

    /** The file of a sorted run whose key range holds {@code key}, or null (binary search on min keys). */
    private static DataFileMeta fileHolding(List<DataFileMeta> run, Object[] key, Comparator<Object[]> keyTuples) {
        int lo = 0;
        int hi = run.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            DataFileMeta f = run.get(mid);
            if (keyTuples.compare(key, f.minKey()) < 0) {
                hi = mid - 1;
            } else if (keyTuples.compare(key, f.maxKey()) > 0) {
                lo = mid + 1;
            } else {
                return f;
            }
        }
        return null;
    }
}
