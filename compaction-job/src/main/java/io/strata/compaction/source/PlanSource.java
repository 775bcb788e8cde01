package io.strata.compaction.source;

import io.strata.compaction.job.JobSpec;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * The planning source (FLIP-27): its enumerator reads manifests and plans per bucket; its readers
 * emit {@link CompactionWork}s to the chained rewrite operator. Bounded in batch mode (plans once
 * from the latest snapshot), unbounded in streaming mode (follows new snapshots).
 */
public final class PlanSource implements Source<CompactionWork, CompactionWork, PlanCheckpoint> {
    private static final long serialVersionUID = 1L;

    private final JobSpec spec;

    public PlanSource(JobSpec spec) {
        this.spec = spec;
    }

    @Override
    public Boundedness getBoundedness() {
        return spec.mode() == JobSpec.Mode.BATCH ? Boundedness.BOUNDED : Boundedness.CONTINUOUS_UNBOUNDED;
    }

    @Override
    public SplitEnumerator<CompactionWork, PlanCheckpoint> createEnumerator(
            SplitEnumeratorContext<CompactionWork> ctx) {
        return new PlanEnumerator(ctx, spec, getBoundedness() == Boundedness.BOUNDED);
    }

    @Override
    public SplitEnumerator<CompactionWork, PlanCheckpoint> restoreEnumerator(
            SplitEnumeratorContext<CompactionWork> ctx, PlanCheckpoint checkpoint) {
        return createEnumerator(ctx);
    }

    @Override
    public SimpleVersionedSerializer<CompactionWork> getSplitSerializer() {
        return new CompactionWorkSerializer();
    }

    @Override
    public SimpleVersionedSerializer<PlanCheckpoint> getEnumeratorCheckpointSerializer() {
        return new PlanCheckpoint.Serializer();
    }

    @Override
    public SourceReader<CompactionWork, CompactionWork> createReader(SourceReaderContext ctx) {
        return new WorkReader(ctx);
    }
}
