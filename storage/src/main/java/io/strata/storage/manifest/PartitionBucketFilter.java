package io.strata.storage.manifest;

import io.strata.storage.data.BucketId;
import io.strata.storage.data.ValueComparators;
import io.strata.storage.schema.DataType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Accepts the entries of an explicit set of (partition, bucket) pairs. */
public final class PartitionBucketFilter implements EntryFilter {
    private final List<Object[]> partitions = new ArrayList<>();
    private final Set<BucketId> buckets = new HashSet<>();
    private final List<Comparator<Object>> fieldComparators = new ArrayList<>();

    public PartitionBucketFilter(List<DataType> partitionTypes) {
        for (DataType t : partitionTypes) {
            fieldComparators.add(ValueComparators.forType(t));
        }
    }

    /** Accepts {@code bucket} too. Returns this. */
    public PartitionBucketFilter add(BucketId bucket) {
        if (buckets.add(bucket)) {
            partitions.add(bucket.partition());
        }
        return this;
    }

    @Override
    public boolean mayContainPartitions(Object[] min, Object[] max) {
        if (min.length == 0) {
            return true;
        }
        for (Object[] p : partitions) {
            boolean inside = true;
            for (int i = 0; i < p.length && inside; i++) {
                Comparator<Object> c = fieldComparators.get(i);
                inside = c.compare(p[i], min[i]) >= 0 && c.compare(p[i], max[i]) <= 0;
            }
            if (inside) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean accept(Object[] partition, int bucket) {
        return buckets.contains(BucketId.of(partition, bucket));
    }
}
