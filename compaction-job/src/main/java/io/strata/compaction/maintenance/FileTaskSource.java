package io.strata.compaction.maintenance;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * The maintenance job's source (FLIP-27, bounded): the driver's tasks, handed to the subtasks one
 * at a time as each asks (a subtask that got large directories or slow deletes takes fewer), and
 * emitted to the chained {@link FileTaskOperator}, which works inside {@code collect}.
 */
final class FileTaskSource implements Source<FileTask, FileTask, List<FileTask>> {
    private static final long serialVersionUID = 1L;

    private final List<FileTask> tasks;

    FileTaskSource(List<FileTask> tasks) {
        this.tasks = new ArrayList<>(tasks);
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public SplitEnumerator<FileTask, List<FileTask>> createEnumerator(SplitEnumeratorContext<FileTask> ctx) {
        return new Enumerator(ctx, tasks);
    }

    @Override
    public SplitEnumerator<FileTask, List<FileTask>> restoreEnumerator(
            SplitEnumeratorContext<FileTask> ctx, List<FileTask> pending) {
        return new Enumerator(ctx, pending);
    }

    @Override
    public SimpleVersionedSerializer<FileTask> getSplitSerializer() {
        return new FileTaskSerializer();
    }

    @Override
    public SimpleVersionedSerializer<List<FileTask>> getEnumeratorCheckpointSerializer() {
        return new FileTaskSerializer.Pending();
    }

    @Override
    public SourceReader<FileTask, FileTask> createReader(SourceReaderContext ctx) {
        return new Reader(ctx);
    }

    /** Hands out the tasks, one per request; a task given back by a failed subtask goes out again. */
    private static final class Enumerator implements SplitEnumerator<FileTask, List<FileTask>> {
        private final SplitEnumeratorContext<FileTask> context;
        private final Deque<FileTask> pending;

        Enumerator(SplitEnumeratorContext<FileTask> context, List<FileTask> tasks) {
            this.context = context;
            this.pending = new ArrayDeque<>(tasks);
        }

        @Override
        public void start() {}

        @Override
        public void handleSplitRequest(int subtask, String host) {
            FileTask t = pending.poll();
            if (t == null) {
                context.signalNoMoreSplits(subtask);
            } else {
                context.assignSplit(t, subtask);
            }
        }

        @Override
        public void addSplitsBack(List<FileTask> splits, int subtask) {
            splits.forEach(pending::addFirst);
        }

        @Override
        public void addReader(int subtask) {}

        @Override
        public List<FileTask> snapshotState(long checkpointId) {
            return new ArrayList<>(pending);
        }

        @Override
        public void close() {}
    }

    /** Emits each task it is given and asks for the next only once the last was emitted (worked on). */
    private static final class Reader implements SourceReader<FileTask, FileTask> {
        private final SourceReaderContext context;
        private final Deque<FileTask> queue = new ArrayDeque<>();
        private CompletableFuture<Void> available = new CompletableFuture<>();
        private boolean noMore;

        Reader(SourceReaderContext context) {
            this.context = context;
        }

        @Override
        public void start() {
            context.sendSplitRequest();
        }

        @Override
        public InputStatus pollNext(ReaderOutput<FileTask> output) {
            FileTask t = queue.poll();
            if (t != null) {
                output.collect(t);
                if (queue.isEmpty() && !noMore) {
                    context.sendSplitRequest();
                }
            }
            if (!queue.isEmpty()) {
                return InputStatus.MORE_AVAILABLE;
            }
            return noMore ? InputStatus.END_OF_INPUT : InputStatus.NOTHING_AVAILABLE;
        }

        @Override
        public List<FileTask> snapshotState(long checkpointId) {
            return new ArrayList<>(queue);
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            if (!queue.isEmpty() || noMore) {
                return CompletableFuture.completedFuture(null);
            }
            if (available.isDone()) {
                available = new CompletableFuture<>();
            }
            return available;
        }

        @Override
        public void addSplits(List<FileTask> splits) {
            queue.addAll(splits);
            available.complete(null);
        }

        @Override
        public void notifyNoMoreSplits() {
            noMore = true;
            available.complete(null);
        }

        @Override
        public void close() {}
    }
}
