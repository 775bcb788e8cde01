package io.strata.compaction;

import io.strata.compaction.commit.CompactionEvent;
import io.strata.compaction.job.JobSpec;
import java.io.File;
import org.apache.flink.api.common.JobID;
import org.apache.flink.client.program.rest.RestClusterClient;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamGraph;

/**
 * Submits the job to a running Flink cluster through its REST API (what the scheduler uses): the
 * job graph is built here, the shaded job jar is uploaded with it, and the cluster runs it
 * detached. Returns once the cluster has accepted the job.
 */
public final class RestSubmitter {
    private RestSubmitter() {}

    /** Builds the job graph of {@code spec}, with {@code jobJar} (the shaded jar) attached when given. */
    public static JobGraph jobGraph(JobSpec spec, File jobJar) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        CompactionPipeline.build(env, spec)
                .sinkTo(new DiscardingSink<CompactionEvent>())
                .name("events")
                .setParallelism(1);
        StreamGraph graph = env.getStreamGraph();
        graph.setJobName(CompactionJob.jobName(spec));
        JobGraph job = graph.getJobGraph();
        if (jobJar != null) {
            if (!jobJar.isFile()) {
                throw new IllegalArgumentException("job jar " + jobJar + " does not exist (build it with mvn package)");
            }
            job.addJar(new Path(jobJar.toURI()));
        }
        return job;
    }

    public static JobID submit(RestClusterClient<?> client, JobSpec spec, File jobJar) throws Exception {
        return client.submitJob(jobGraph(spec, jobJar)).get();
    }

    /** Submits to the cluster whose REST endpoint is {@code host:port}. */
    public static JobID submit(String host, int port, JobSpec spec, File jobJar) throws Exception {
        Configuration conf = new Configuration();
        conf.set(RestOptions.ADDRESS, host);
        conf.set(RestOptions.PORT, port);
        try (RestClusterClient<String> client = new RestClusterClient<>(conf, "strata")) {
            return submit(client, spec, jobJar);
        }
    }
}
