package io.strata.compaction.source;

import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.ValueCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * One unit of compaction work: a bucket of a table, to be planned with {@code strategy} from
 * snapshot {@code snapshotId}. The planner decided there is something to do there; the rewriter
 * re-derives the identical plan from the same snapshot (planning is pure), so only these few
 * fields travel. It is both the source's split and the record the source emits.
 *
 * <p>A Flink POJO: public fields and a no-argument constructor.
 */
public final class CompactionWork implements SourceSplit {
    public String table;
    /** The partition values, {@link ValueCodec#encodeTuple encoded}. */
    public byte[] partition;
    public int bucket;
    public long snapshotId;
    public String strategy;

    public CompactionWork() {
    }

    public CompactionWork(String table, Object[] partition, int bucket, long snapshotId, CompactStrategy strategy) {
        this.table = table;
        this.partition = ValueCodec.encodeTuple(partition);
        this.bucket = bucket;
        this.snapshotId = snapshotId;
        this.strategy = strategy.name();
    }

    public Object[] partitionValues() {
        try {
            return ValueCodec.decodeTuple(partition);
        } catch (IOException e) {
            throw new UncheckedIOException("corrupt partition of compaction work " + this, e);
        }
    }

    public CompactStrategy strategyValue() {
        return CompactStrategy.valueOf(strategy);
    }

    /** Identifies the bucket (not the snapshot): at most one work per bucket is in flight. */
    public String bucketKey() {
        return bucketKey(table, partition, bucket);
    }

    public static String bucketKey(String table, byte[] encodedPartition, int bucket) {
        return table + "/" + java.util.HexFormat.of().formatHex(encodedPartition) + "/" + bucket;
    }

    @Override
    public String splitId() {
        return bucketKey() + "@" + snapshotId;
    }

    @Override
    public String toString() {
        return "CompactionWork{" + table + ", partition=" + java.util.Arrays.toString(partitionValues()) + ", bucket="
                + bucket + ", snapshot=" + snapshotId + ", " + strategy + "}";
    }
}
