package io.strata.storage.mergetree;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.ValueComparators;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.format.DataFilePathFactory;
import io.strata.storage.format.DataFileReader;
import io.strata.storage.merge.MergeEngines;
import io.strata.storage.options.CompactionOptions;
import io.strata.storage.options.FileOptions;
import io.strata.storage.schema.TableSchema;
import io.strata.storage.store.TableContext;
import io.strata.storage.util.CloseableIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Reads the files of one table's buckets as key-value records: one sorted run, or several files
 * merged with the table's merge engine in LSM order. The readers of compaction, changelog
 * production and merge-on-read share it. Holds no open files; every iterator it returns must be
 * closed.
 */
public final class BucketReader {
    private final TableContext table;
    private final TableSchema schema;
    private final MergeEngines mergeEngines;

    public BucketReader(TableContext table) {
        this.table = table;
        this.schema = table.schema();
        this.mergeEngines = table.mergeEngines();
    }

    /** The records of {@code run} (files of one bucket, read one after another), laid out in this schema. */
    public CloseableIterator<KeyValue> readRun(DataFilePathFactory paths, List<DataFileMeta> run) {
        return new ConcatIterator<>(
                run,
                f -> DataFileReader.of(table.fileIO(), table.formatConfig().conf(), paths.toPath(f.fileName()), schema)
                        .fileSize(f.fileSize())
                        .open());
    }

    /**
     * Whether compactions of this table may carry STRING values as their UTF-8 bytes
     * ({@link DataFileReader.Options#rawStrings()}): true unless the merge engine looks into string values
     * (aggregation of a STRING field).
     */
    public boolean rewritesRawStrings() {
        return mergeEngines != null && mergeEngines.acceptsRawStrings();
    }

    /** {@link #readRun} for rewriting: STRING values are raw UTF-8 bytes when {@link #rewritesRawStrings()}. */
    public CloseableIterator<KeyValue> readRunForRewrite(DataFilePathFactory paths, List<DataFileMeta> run) {
        if (!rewritesRawStrings()) {
            return readRun(paths, run);
        }
        return new ConcatIterator<>(
                run,
                f -> DataFileReader.of(table.fileIO(), table.formatConfig().conf(), paths.toPath(f.fileName()), schema)
                        .fileSize(f.fileSize())
                        .rawStrings()
                        .open());
    }

    /** The order of records read for rewriting (see {@link #readRunForRewrite}). */
    public RecordComparator rewriteComparator() {
        return new RecordComparator(schema, mergeEngines.sequenceFieldIndex(), rewritesRawStrings());
    }

    /**
     * Heap an open data file holds per byte of its current row group on disk: the row group's
     * column chunks, read whole into power-of-two pool buffers (up to twice their size), and one
     * decompressed page per column, which for compressible rows is as large again.
     */
    static final int OPEN_FILE_MEMORY = 4;

    /** What a merge of this table may open at once (sort-spill-threshold, sort-spill-memory). */
    private BoundedMerge.Bounds mergeBounds() {
        Integer maxRuns = schema.tableOptions().get(CompactionOptions.SORT_SPILL_THRESHOLD);
        return new BoundedMerge.Bounds(
                maxRuns == null ? Integer.MAX_VALUE : maxRuns,
                schema.tableOptions().get(CompactionOptions.SORT_SPILL_MEMORY));
    }

    /** {@link #mergeFiles} over {@link #readRunForRewrite} runs, for compaction. */
    public CloseableIterator<KeyValue> mergeFilesForRewrite(
            DataFilePathFactory paths, List<DataFileMeta> files, MergingIterator.Mode mode) {
        return mergeFiles(files, run -> readRunForRewrite(paths, run), rewriteComparator(), mode);
    }

    /**
     * Merges files of one bucket with the merge engine: grouped into sorted runs in LSM order
     * (level-0 files newest first, then each level), as many open at once as {@link #mergeBounds}
     * allow. The LSM order is what {@link BoundedMerge} requires of its batches.
     */
    public CloseableIterator<KeyValue> mergeFiles(
            DataFilePathFactory paths, List<DataFileMeta> files, MergingIterator.Mode mode) {
        return mergeFiles(
                files,
                run -> readRun(paths, run),
                new RecordComparator(schema, mergeEngines.sequenceFieldIndex()),
                mode);
    }

    private CloseableIterator<KeyValue> mergeFiles(
            List<DataFileMeta> files,
            Function<List<DataFileMeta>, CloseableIterator<KeyValue>> reader,
            RecordComparator comparator,
            MergingIterator.Mode mode) {
        long rowGroup = schema.tableOptions().get(FileOptions.BLOCK_SIZE);
        List<BoundedMerge.Run> runs = new ArrayList<>();
        for (List<DataFileMeta> run :
                SortedRuns.of(files, ValueComparators.forTuple(schema.typesOf(schema.primaryKeyIndexes())))) {
            long largest = run.stream().mapToLong(DataFileMeta::fileSize).max().orElse(0);
            runs.add(new BoundedMerge.Run(() -> reader.apply(run), OPEN_FILE_MEMORY * Math.min(largest, rowGroup)));
        }
        return BoundedMerge.merge(
                runs, mergeBounds(), table.spillDir(), comparator, mergeEngines.functionFactory(), mode);
    }
}
