package io.strata.compaction.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.compaction.JobTestSupport;
import io.strata.compaction.job.JobSpec;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.testutil.TableModel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.metrics.groups.SplitEnumeratorMetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The streaming planner's bookkeeping of buckets in flight across a subtask's restart, without Flink running. */
class PlanEnumeratorTest {
    @TempDir
    Path dir;

    /** Runs planning rounds when told to, on the calling thread, and records assignments. */
    private static final class Context implements SplitEnumeratorContext<CompactionWork> {
        final Map<Integer, List<CompactionWork>> assigned = new HashMap<>();
        final Map<Integer, ReaderInfo> readers = new HashMap<>();
        private Callable<Object> round;
        private BiConsumer<Object, Throwable> onRound;

        @SuppressWarnings("unchecked")
        @Override
        public <T> void callAsync(
                Callable<T> callable, BiConsumer<T, Throwable> handler, long initialDelay, long period) {
            round = (Callable<Object>) callable;
            onRound = (BiConsumer<Object, Throwable>) handler;
        }

        @Override
        public <T> void callAsync(Callable<T> callable, BiConsumer<T, Throwable> handler) {
            callAsync(callable, handler, 0, 0);
        }

        void runRound() throws Exception {
            onRound.accept(round.call(), null);
        }

        @Override
        public void assignSplits(SplitsAssignment<CompactionWork> a) {
            a.assignment()
                    .forEach((s, works) ->
                            assigned.computeIfAbsent(s, x -> new ArrayList<>()).addAll(works));
        }

        @Override
        public SplitEnumeratorMetricGroup metricGroup() {
            return UnregisteredMetricsGroup.createSplitEnumeratorMetricGroup();
        }

        @Override
        public void sendEventToSourceReader(int subtask, SourceEvent event) {}

        @Override
        public int currentParallelism() {
            return 2;
        }

        @Override
        public Map<Integer, ReaderInfo> registeredReaders() {
            return readers;
        }

        @Override
        public void signalNoMoreSplits(int subtask) {}

        @Override
        public void runInCoordinatorThread(Runnable runnable) {
            runnable.run();
        }
    }

    @Test
    void aRestartedSubtasksBucketsArePlannedAgainThoughNoNewSnapshotCame() throws Exception {
        FileStoreTable t = JobTestSupport.create(dir.toString(), "t", false, 2, Map.of());
        JobTestSupport.ingest(t, new TableModel(TableModel.Mode.DEDUPLICATE), new Random(3), 5, 200, 500, "w", 1);
        JobSpec spec = JobTestSupport.spec(dir.toString(), "minor", "streaming", 2, "--table", "t");
        Context ctx = new Context();
        PlanEnumerator e = new PlanEnumerator(ctx, spec, false);
        for (int s = 0; s < 2; s++) {
            ctx.readers.put(s, new ReaderInfo(s, "localhost"));
            e.addReader(s);
        }
        e.start();
        ctx.runRound();
        e.handleSplitRequest(0, "localhost");
        e.handleSplitRequest(1, "localhost");
        assertThat(ctx.assigned.get(0)).hasSize(1);
        assertThat(ctx.assigned.get(1)).hasSize(1);
        String lost = ctx.assigned.get(0).get(0).bucketKey();

        // both buckets are in flight: another round plans nothing, and subtask 1 asks in vain
        ctx.runRound();
        e.handleSplitRequest(1, "localhost");
        assertThat(ctx.assigned.get(1)).hasSize(1);

        // subtask 0 fails after a checkpoint that came after its work was handed out: Flink gives
        // nothing back, the restarted reader registers again with no state, and no snapshot comes
        e.addSplitsBack(List.of(), 0);
        e.addReader(0);
        ctx.runRound();
        e.handleSplitRequest(0, "localhost");

        List<String> handedOut = new ArrayList<>();
        ctx.assigned.values().forEach(ws -> ws.forEach(w -> handedOut.add(w.bucketKey())));
        assertThat(handedOut)
                .as("the restarted subtask's bucket is planned again (to whichever subtask asks first), "
                        + "the other stays in flight with subtask 1")
                .hasSize(3);
        assertThat(handedOut.stream().filter(lost::equals).count()).isEqualTo(2);
    }
}
