package io.strata.compaction;

import io.strata.compaction.commit.CompactionEvent;
import io.strata.compaction.job.JobSpec;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

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
    /** The job reached a terminal state (a MiniCluster started for it shuts down with it). */
    private volatile boolean finished;

    private final String savepointDir;
    private final Supplier<StreamExecutionEnvironment> environment;

    /**
     * Runs on a local MiniCluster started for this run and shut down with it.
     *
     * @param savepointDir where {@link #stop} writes its final savepoint (a local scratch directory)
     */
    public EmbeddedJobRunner(JobSpec spec, String savepointDir) {
        this(spec, savepointDir, () -> {
            Configuration conf = new Configuration();
            conf.set(CoreOptions.DEFAULT_PARALLELISM, spec.parallelism());
            return StreamExecutionEnvironment.createLocalEnvironment(spec.parallelism(), conf);
        });
    }

    /**
     * Runs on the cluster {@code environment} submits to, which must run in this JVM (the events
     * reach the listener through it): a MiniCluster started once for several jobs, as the job
     * benchmark does to keep cluster start-up out of what it measures.
     */
    public EmbeddedJobRunner(JobSpec spec, String savepointDir, Supplier<StreamExecutionEnvironment> environment) {
        this.spec = spec;
        this.savepointDir = savepointDir;
        this.environment = environment;
    }

    /** Runs to the end (batch) or until {@link #stop} (streaming); throws if the job fails. */
    public void run(Consumer<CompactionEvent> listener) throws Exception {
        StreamExecutionEnvironment env = environment.get();
        env.setParallelism(spec.parallelism());
        String relay = LISTENERS.register(listener);
        try {
            CompactionPipeline.build(env, spec)
                    .sinkTo(new RelaySink(relay))
                    .name("events")
                    .setParallelism(1);
            client = env.executeAsync(CompactionJob.jobName(spec));
            try {
                client.getJobExecutionResult().get();
            } catch (Exception e) {
                if (!stopping) {
                    throw e;
                }
            } finally {
                finished = true;
            }
        } finally {
            LISTENERS.remove(relay);
        }
    }

    /** Listeners of embedded jobs, by id: the embedded MiniCluster runs in this JVM. */
    private static final class Listeners {
        private final Map<String, Consumer<CompactionEvent>> byId = new ConcurrentHashMap<>();

        String register(Consumer<CompactionEvent> l) {
            String id = UUID.randomUUID().toString();
            byId.put(id, l);
            return id;
        }

        void remove(String id) {
            byId.remove(id);
        }

        Consumer<CompactionEvent> get(String id) {
            return byId.getOrDefault(id, e -> {});
        }
    }

    private static final Listeners LISTENERS = new Listeners();

    /** Hands each event to the listener registered under its id, in the same JVM. */
    private static final class RelaySink implements Sink<CompactionEvent> {
        private static final long serialVersionUID = 1L;
        private final String id;

        RelaySink(String id) {
            this.id = id;
        }

        @Override
        public SinkWriter<CompactionEvent> createWriter(WriterInitContext context) {
            Consumer<CompactionEvent> listener = LISTENERS.get(id);
            return new SinkWriter<>() {
                @Override
                public void write(CompactionEvent e, Context ctx) {
                    listener.accept(e);
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }

    /** Stops a running streaming job with a final savepoint, which commits what is complete. */
    public void stop() throws Exception {
        JobClient c = client;
        stopping = true;
        if (c != null && !finished) {
            c.stopWithSavepoint(false, savepointDir, SavepointFormatType.CANONICAL)
                    .get();
        }
    }

    @Override
    public void close() throws Exception {
        JobClient c = client;
        if (c != null && !finished) {
            c.cancel().get();
        }
    }
}
