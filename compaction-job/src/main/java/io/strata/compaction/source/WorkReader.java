package io.strata.compaction.source;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.core.io.InputStatus;

/**
 * Emits the works the planner assigns and asks for the next one only when the last was emitted.
 * The rewrite operator is chained to it and rewrites synchronously inside {@code collect}, so a
 * subtask asks for new work exactly when it is idle.
 *
 * <p>Works are not checkpointed ({@link #snapshotState} is empty): see {@link PlanCheckpoint}.
 */
final class WorkReader implements SourceReader<CompactionWork, CompactionWork> {
    private final SourceReaderContext context;
    private final ArrayDeque<CompactionWork> queue = new ArrayDeque<>();
    private CompletableFuture<Void> available = new CompletableFuture<>();
    private boolean noMoreWork;

    WorkReader(SourceReaderContext context) {
        this.context = context;
    }

    @Override
    public void start() {
        context.sendSplitRequest();
    }

    @Override
    public InputStatus pollNext(ReaderOutput<CompactionWork> output) {
        CompactionWork w = queue.poll();
        if (w != null) {
            output.collect(w);
            if (queue.isEmpty() && !noMoreWork) {
                context.sendSplitRequest();
            }
        }
        if (!queue.isEmpty()) {
            return InputStatus.MORE_AVAILABLE;
        }
        return noMoreWork ? InputStatus.END_OF_INPUT : InputStatus.NOTHING_AVAILABLE;
    }

    @Override
    public List<CompactionWork> snapshotState(long checkpointId) {
        return List.of();
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        if (!queue.isEmpty() || noMoreWork) {
            return CompletableFuture.completedFuture(null);
        }
        if (available.isDone()) {
            available = new CompletableFuture<>();
        }
        return available;
    }

    @Override
    public void addSplits(List<CompactionWork> splits) {
        queue.addAll(splits);
        available.complete(null);
    }

    @Override
    public void notifyNoMoreSplits() {
        noMoreWork = true;
        available.complete(null);
    }

    @Override
    public void close() {}
}
