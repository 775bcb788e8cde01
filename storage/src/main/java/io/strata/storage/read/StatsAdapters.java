package io.strata.storage.read;

import io.strata.storage.format.ColumnStats;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.schema.TableSchema;

/** {@link Predicate.Stats} views of file statistics and partition ranges. */
final class StatsAdapters {
    private StatsAdapters() {}

    /** A data file's column statistics; a column the file predates reads as all null. */
    static Predicate.Stats ofFile(TableSchema schema, DataFileMeta file) {
        return new Predicate.Stats() {
            private ColumnStats stats(int index) {
                return file.statsOf(schema.fields().get(index).id());
            }

            @Override
            public Object min(int index) {
                ColumnStats s = stats(index);
                return s == null ? null : s.min();
            }

            @Override
            public Object max(int index) {
                ColumnStats s = stats(index);
                return s == null ? null : s.max();
            }

            @Override
            public long nullCount(int index) {
                ColumnStats s = stats(index);
                return s == null ? file.rowCount() : s.nullCount();
            }

            @Override
            public long rowCount() {
                return file.rowCount();
            }
        };
    }

    /** Per-field partition ranges of a manifest, placed at the partition fields' positions. */
    static Predicate.Stats ofPartitionRange(int[] partitionIndexes, Object[] min, Object[] max) {
        return new Predicate.Stats() {
            private int pos(int index) {
                for (int i = 0; i < partitionIndexes.length; i++) {
                    if (partitionIndexes[i] == index) {
                        return i;
                    }
                }
                return -1;
            }

            @Override
            public Object min(int index) {
                int p = pos(index);
                return p < 0 || p >= min.length ? null : min[p];
            }

            @Override
            public Object max(int index) {
                int p = pos(index);
                return p < 0 || p >= max.length ? null : max[p];
            }

            @Override
            public long nullCount(int index) {
                return -1;
            }

            @Override
            public long rowCount() {
                return Long.MAX_VALUE;
            }
        };
    }
}
