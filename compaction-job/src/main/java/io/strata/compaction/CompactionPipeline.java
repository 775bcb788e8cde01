package io.strata.compaction;

import io.strata.compaction.commit.CommitOperator;
import io.strata.compaction.commit.CompactionEvent;
import io.strata.compaction.job.JobSpec;
import io.strata.compaction.job.JobTables;
import io.strata.compaction.rewrite.CompactionCommittable;
import io.strata.compaction.rewrite.RewriteOperator;
import io.strata.compaction.source.CompactionWork;
import io.strata.compaction.source.PlanSource;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The job's topology, the same for every way of running it (cluster, REST submission, embedded):
 *
 * <pre>
 *   PlanSource (enumerator plans per bucket; p readers)
 *     -> RewriteOperator (p subtasks, chained: a subtask asks for work when idle)
 *     -> global -> CommitOperator (1 subtask) -> events
 * </pre>
 */
public final class CompactionPipeline {
    private CompactionPipeline() {}

    /** Configures {@code env} for the spec's mode and adds the topology; returns the committer's events. */
    public static DataStream<CompactionEvent> build(StreamExecutionEnvironment env, JobSpec spec) {
        // fail on the client, naming the table, rather than in the first planning round
        new JobTables(spec, 0).resolve();
        configure(env, spec);
        return commit(rewrite(plan(env, spec), spec), spec);
    }

    /**
     * Both modes run on Flink's streaming runtime: batch mode is a bounded job (the planner plans
     * once and ends) without checkpoints, committing every N results and at the end of input.
     * Flink's batch runtime would hold the results in blocking exchanges until every rewrite had
     * finished, so a failure late in a long full compaction would lose all of it; pipelined, the
     * committer sees each result as it comes. Streaming mode checkpoints and commits per checkpoint.
     */
    public static void configure(StreamExecutionEnvironment env, JobSpec spec) {
        Configuration conf = new Configuration();
        conf.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.STREAMING);
        if (spec.mode() == JobSpec.Mode.STREAMING) {
            env.enableCheckpointing(spec.checkpointIntervalMillis(), CheckpointingMode.EXACTLY_ONCE);
        }
        env.configure(conf);
    }

    public static DataStream<CompactionWork> plan(StreamExecutionEnvironment env, JobSpec spec) {
        return env.fromSource(
                        new PlanSource(spec),
                        WatermarkStrategy.noWatermarks(),
                        "plan compactions",
                        TypeInformation.of(CompactionWork.class))
                .setParallelism(spec.parallelism())
                .uid("strata-plan");
    }

    /**
     * Chained to the source (same parallelism, forward): a subtask asks for work when it is idle.
     * Each result is sent to the committer as soon as it is emitted (buffer timeout 0): results are
     * few and small, and with Flink's default timeout each one waited up to 100 ms in a network
     * buffer, which delayed partial commits and the progress the embedded runner reports.
     */
    public static DataStream<CompactionCommittable> rewrite(DataStream<CompactionWork> works, JobSpec spec) {
        return works.process(new RewriteOperator(spec), TypeInformation.of(CompactionCommittable.class))
                .name("rewrite sorted runs")
                .uid("strata-rewrite")
                .setParallelism(spec.parallelism())
                .setBufferTimeout(0);
    }

    public static DataStream<CompactionEvent> commit(DataStream<CompactionCommittable> results, JobSpec spec) {
        return results.global()
                .transform("commit", TypeInformation.of(CompactionEvent.class), new CommitOperator(spec))
                .uid("strata-commit")
                .setParallelism(1)
                .setMaxParallelism(1);
    }
}
