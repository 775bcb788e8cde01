package io.strata.compaction;

import io.strata.compaction.commit.CompactionEvent;
import java.util.function.Consumer;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;

/**
 * Runs the job on an embedded Flink (a local MiniCluster in this JVM) and hands every committer
 * event to a listener as it happens: the default way of running it ({@code strata compact},
 * {@code strata demo}, tests). {@link #stop} ends a streaming job cleanly: a final savepoint
 * commits what is complete, then the job finishes.
 */
public final class EmbeddedJobRunner implements AutoCloseable {
    private final JobSpec spec;
    private volatile JobClient client;
    private volatile boolean stopping;
    private final String savepointDir;

    /** @param savepointDir where {@link #stop} writes its final savepoint (a local scratch directory) */
    public EmbeddedJobRunner(JobSpec spec, String savepointDir) {
        this.spec = spec;
        this.savepointDir = savepointDir;
    }

    /** Runs to the end (batch) or until {@link #stop} (streaming); throws if the job fails. */
    public void run(Consumer<CompactionEvent> listener) throws Exception {
        Configuration conf = new Configuration();
        conf.set(CoreOptions.DEFAULT_PARALLELISM, spec.parallelism());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(spec.parallelism(), conf);
        CloseableIterator<CompactionEvent> events = CompactionPipeline.build(env, spec).collectAsync();
        client = env.executeAsync(CompactionJob.jobName(spec));
        try (events) {
            while (events.hasNext()) {
                listener.accept(events.next());
            }
        }
        try {
            client.getJobExecutionResult().get();
        } catch (Exception e) {
            if (!stopping) {
                throw e;
            }
        }
    }

    /** Stops a running streaming job with a final savepoint, which commits what is complete. */
    public void stop() throws Exception {
        JobClient c = client;
        stopping = true;
        if (c != null) {
            c.stopWithSavepoint(false, savepointDir, SavepointFormatType.CANONICAL).get();
        }
    }

    @Override
    public void close() throws Exception {
        JobClient c = client;
        if (c != null && !c.getJobStatus().get().isGloballyTerminalState()) {
            c.cancel().get();
        }
    }
}
