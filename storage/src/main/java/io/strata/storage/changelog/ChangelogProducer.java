package io.strata.storage.changelog;

import io.strata.storage.compact.CompactPlan;
import io.strata.storage.data.KeyValue;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.format.DataFilePathFactory;
import io.strata.storage.format.DataFileReader;
import io.strata.storage.format.FileSource;
import io.strata.storage.format.RollingFileWriter;
import io.strata.storage.merge.MergeEngines;
import io.strata.storage.mergetree.BoundedMerge;
import io.strata.storage.mergetree.ConcatIterator;
import io.strata.storage.mergetree.Levels;
import io.strata.storage.mergetree.MergingIterator;
import io.strata.storage.mergetree.RecordComparator;
import io.strata.storage.mergetree.SortedRuns;
import io.strata.storage.options.ChangelogOptions;
import io.strata.storage.options.ChangelogOptions.Producer;
import io.strata.storage.options.CompactionOptions;
import io.strata.storage.options.WriteOptions;
import io.strata.storage.schema.TableSchema;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.util.CloseableIterator;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

/**
 * Produces the changelog of a compaction for the {@code lookup} and {@code full-compaction}
 * producers, by joining the bucket's state before and after (see {@link ChangelogJoin}):
 * <ul>
 *   <li>lookup, when the compaction takes the level-0 files (it then takes all of them, since a
 *       compaction never writes level 0): before = the merge of every file on levels >= 1 (each
 *       key's previous value), after = the merge of every file; only keys present in level-0
 *       files are emitted;</li>
 *   <li>full-compaction, when the compaction takes every run to the top level: before = the old
 *       top level alone (the state the previous full compaction left), after = the merge of
 *       every file; every key is considered.</li>
 * </ul>
 * Streams, never loads: memory is bounded by {@code sort-spill-threshold} open runs per state.
 * This reads the higher levels sequentially rather than probing a local lookup cache.
 */
public final class ChangelogProducer {
    private final FileStoreTable table;
    private final TableSchema schema;
    private final Producer producer;
    private final boolean rowDeduplicate;
    private final RecordComparator comparator;
    private final MergeEngines engines;
    private final Comparator<Object[]> keyTuples;
    private final int maxRuns;
    private final File spillDir;
    private final long targetFileSize;

    public ChangelogProducer(FileStoreTable table) {
        this.table = table;
        this.schema = table.schema();
        this.producer = schema.tableOptions().get(ChangelogOptions.CHANGELOG_PRODUCER);
        this.rowDeduplicate = schema.tableOptions().get(ChangelogOptions.ROW_DEDUPLICATE);
        this.engines = table.mergeEngines();
        this.comparator = new RecordComparator(schema, engines.sequenceFieldIndex());
        this.keyTuples = io.strata.storage.data.ValueComparators.forTuple(schema.typesOf(schema.primaryKeyIndexes()));
        this.maxRuns = schema.tableOptions().get(CompactionOptions.SORT_SPILL_THRESHOLD);
        String dir = schema.tableOptions().get(WriteOptions.SPILL_DIR);
        this.spillDir = new File(dir != null ? dir : System.getProperty("java.io.tmpdir"), "strata-spill");
        this.targetFileSize = schema.tableOptions().get(WriteOptions.TARGET_FILE_SIZE);
    }

    /** Whether {@code plan} must produce changelog under this table's producer. */
    public boolean applies(CompactPlan plan) {
        Levels levels = plan.levels();
        switch (producer) {
            case LOOKUP:
                return !levels.level0().isEmpty() && plan.outputLevel() > 0
                        && plan.inputFiles().containsAll(levels.level0());
            case FULL_COMPACTION:
                return plan.outputLevel() == levels.maxLevel()
                        && plan.inputFiles().size() == levels.allFiles().size();
            default:
                return false;
        }
    }

    /** Writes the changelog files of {@code plan}; the caller commits them with the compaction. */
    public List<DataFileMeta> produce(CompactPlan plan, DataFilePathFactory paths) throws IOException {
        Levels levels = plan.levels();
        List<DataFileMeta> beforeFiles = new ArrayList<>();
        CloseableIterator<KeyValue> touched = null;
        if (producer == Producer.LOOKUP) {
            for (DataFileMeta f : levels.allFiles()) {
                if (f.level() > 0) {
                    beforeFiles.add(f);
                }
            }
            touched = merge(levels.level0(), paths, MergingIterator.Mode.PARTIAL);
        } else {
            beforeFiles.addAll(levels.runOfLevel(levels.maxLevel()).files());
        }
        RollingFileWriter out = new RollingFileWriter(table.fileIO(), paths.supplier("changelog"), schema,
                table.formatConfig(), 0, FileSource.COMPACT, targetFileSize, comparator.keys());
        try (ChangelogJoin join = new ChangelogJoin(merge(beforeFiles, paths, MergingIterator.Mode.FINAL),
                merge(levels.allFiles(), paths, MergingIterator.Mode.FINAL), touched, comparator.keys(),
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

    private CloseableIterator<KeyValue> merge(List<DataFileMeta> files, DataFilePathFactory paths,
                                              MergingIterator.Mode mode) {
        List<Supplier<CloseableIterator<KeyValue>>> runs = new ArrayList<>();
        for (List<DataFileMeta> run : SortedRuns.of(files, keyTuples)) {
            runs.add(() -> new ConcatIterator(run, f -> DataFileReader.open(table.fileIO(),
                    table.formatConfig().conf(), paths.toPath(f.fileName()), schema, null, true, f.fileSize())));
        }
        return BoundedMerge.merge(runs, maxRuns, spillDir, comparator, engines.functionFactory(), mode);
    }
}
