package io.strata.storage.read;

import io.strata.storage.data.GenericRow;
import io.strata.storage.data.KeyValue;
import io.strata.storage.data.PartitionPath;
import io.strata.storage.data.RowKind;
import io.strata.storage.data.ValueComparators;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.format.DataFileReader;
import io.strata.storage.merge.MergeEngines;
import io.strata.storage.mergetree.ConcatIterator;
import io.strata.storage.mergetree.MergingIterator;
import io.strata.storage.mergetree.RecordComparator;
import io.strata.storage.mergetree.SortedRuns;
import io.strata.storage.options.MergeOptions.MergeEngine;
import io.strata.storage.schema.TableSchema;
import io.strata.storage.store.TableContext;
import io.strata.storage.util.CloseableIterator;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Merge-on-read of one split: the bucket's sorted runs (each level-0 file, and each level >= 1)
 * are merged key by key with the table's merge engine; the filter is applied to merged rows and
 * the projection last. Memory: one open file per sorted run and one key's versions.
 */
final class TableRead {
    private final TableContext table;
    private final TableSchema schema;
    private final Predicate filter;
    private final int[] projection;
    private final BitSet decode;
    private final Comparator<Object[]> keyTupleComparator;

    TableRead(TableContext table, Predicate filter, int[] projection) {
        this.table = table;
        this.schema = table.schema();
        this.filter = filter;
        this.projection = projection;
        this.decode = columnsToDecode();
        this.keyTupleComparator = ValueComparators.forTuple(schema.typesOf(schema.primaryKeyIndexes()));
    }

    /** Field ids a reader must decode, or null for all. */
    private BitSet columnsToDecode() {
        if (projection == null) {
            return null;
        }
        MergeEngines engines = table.mergeEngines();
        if (engines != null
                && engines.engine() != MergeEngine.DEDUPLICATE
                && engines.engine() != MergeEngine.FIRST_ROW) {
            return null; // partial-update and aggregation merge every field
        }
        BitSet ids = new BitSet();
        for (int i : projection) {
            ids.set(schema.fields().get(i).id());
        }
        for (int i : schema.primaryKeyIndexes()) {
            ids.set(schema.fields().get(i).id());
        }
        if (engines != null && engines.sequenceFieldIndex() >= 0) {
            ids.set(schema.fields().get(engines.sequenceFieldIndex()).id());
        }
        if (filter != null) {
            for (int i : filter.fields()) {
                ids.set(schema.fields().get(i).id());
            }
        }
        return ids;
    }

    CloseableIterator<GenericRow> read(Split split) {
        String partitionPath = PartitionPath.of(schema.partitionKeys(), split.partition());
        CloseableIterator<KeyValue> records;
        if (schema.hasPrimaryKey()) {
            List<CloseableIterator<KeyValue>> runs = new ArrayList<>();
            try {
                for (List<DataFileMeta> run : SortedRuns.of(split.files(), keyTupleComparator)) {
                    runs.add(new ConcatIterator<>(run, f -> open(partitionPath, split.bucket(), f)));
                }
            } catch (RuntimeException e) {
                runs.forEach(CloseableIterator::close);
                throw e;
            }
            MergeEngines engines = table.mergeEngines();
            records = new MergingIterator(
                    runs,
                    new RecordComparator(schema, engines.sequenceFieldIndex()),
                    engines.functionFactory().get(),
                    MergingIterator.Mode.FINAL);
        } else {
            records = new ConcatIterator<>(split.files(), f -> open(partitionPath, split.bucket(), f));
        }
        return new RowIterator(records);
    }

    private CloseableIterator<KeyValue> open(String partitionPath, int bucket, DataFileMeta f) {
        return DataFileReader.of(
                        table.fileIO(),
                        table.formatConfig().conf(),
                        table.paths().dataFile(partitionPath, bucket, f.fileName()),
                        schema)
                .projection(decode)
                .fileSize(f.fileSize())
                .open();
    }

    /** Applies the filter and projection to merged records. */
    private final class RowIterator implements CloseableIterator<GenericRow> {
        private final CloseableIterator<KeyValue> records;
        private GenericRow next;

        RowIterator(CloseableIterator<KeyValue> records) {
            this.records = records;
        }

        @Override
        public boolean hasNext() {
            while (next == null && records.hasNext()) {
                Object[] row = records.next().row();
                if (filter == null || filter.test(row)) {
                    next = new GenericRow(RowKind.INSERT, project(row));
                }
            }
            return next != null;
        }

        private Object[] project(Object[] row) {
            if (projection == null) {
                return row;
            }
            Object[] out = new Object[projection.length];
            for (int i = 0; i < out.length; i++) {
                out[i] = row[projection[i]];
            }
            return out;
        }

        @Override
        public GenericRow next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            GenericRow r = next;
            next = null;
            return r;
        }

        @Override
        public void close() {
            records.close();
        }
    }
}
