package io.strata.scheduler.ops;

import io.strata.compaction.CompactionJob;
import io.strata.compaction.RestSubmitter;
import io.strata.scheduler.config.TableSettings.FlinkCluster;
import java.io.IOException;
import org.apache.flink.api.common.JobID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Flink cluster as this scheduler uses it: its REST connection and the id of the job jar
 * uploaded to it. The jar is uploaded on the first run and reused by every later one; a run the
 * cluster refuses because it no longer has the jar (a restarted JobManager cleans its upload
 * directory) uploads it again and is retried once. Safe for use by several threads.
 */
final class ClusterSession implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterSession.class);

    private final FlinkCluster cluster;
    private final RestSubmitter rest;
    /** Guarded by this; null until the first upload. */
    private String jarId;

    ClusterSession(FlinkCluster cluster, RestSubmitter rest) {
        this.cluster = cluster;
        this.rest = rest;
    }

    RestSubmitter rest() {
        return rest;
    }

    /** Runs the job of {@code args} as {@code jobId} from the uploaded jar, uploading it first if needed. */
    JobID run(CompactionJob.Args args, JobID jobId) throws IOException, InterruptedException {
        String jar = jar();
        try {
            return rest.runJar(jar, args, jobId);
        } catch (IOException refused) {
            if (!uploadAgainIfGone(jar)) {
                throw refused;
            }
            return rest.runJar(jar(), args, jobId);
        }
    }

    /** Uploads the jar unless this session did already; an interrupt here leaves nothing to cancel. */
    void upload() throws IOException, InterruptedException {
        jar();
    }

    private synchronized String jar() throws IOException, InterruptedException {
        if (jarId == null) {
            long start = System.nanoTime();
            jarId = rest.uploadJar(cluster.jobJar().toFile());
            LOG.info(
                    "uploaded job jar {} to the Flink cluster at {} as {} ({} ms)",
                    cluster.jobJar(),
                    cluster.address(),
                    jarId,
                    (System.nanoTime() - start) / 1_000_000);
        }
        return jarId;
    }

    /** Whether {@code stale} was gone from the cluster (then the next {@link #jar} uploads it again). */
    private synchronized boolean uploadAgainIfGone(String stale) throws IOException, InterruptedException {
        if (!stale.equals(jarId)) {
            return true; // another thread found it gone and uploaded it again
        }
        if (rest.hasJar(stale)) {
            return false;
        }
        LOG.warn("the Flink cluster at {} no longer has job jar {}; uploading it again", cluster.address(), stale);
        jarId = null;
        return true;
    }

    @Override
    public void close() {
        rest.close();
    }
}
