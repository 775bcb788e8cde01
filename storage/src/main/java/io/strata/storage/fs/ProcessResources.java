package io.strata.storage.fs;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What Strata keeps per process rather than per table handle: the threads that force local data
 * files to disk in the background (they also stop by themselves when idle) and, where Hadoop came
 * in the same class loader as Strata, Hadoop's own process-wide threads, caches and shutdown hook.
 *
 * <p>A host that loads Strata in a class loader it later drops (Flink runs each job in its own
 * user-code class loader, and a REST jar run calls the job's main in another) calls {@link
 * #release} when it is done with it, so that nothing started by that copy of Strata or Hadoop keeps
 * the loader, and with it every class of the job, alive: the compaction job registers it as a
 * user-code class loader release hook, and calls it when its main and its planner end. Using
 * Strata again after a release is allowed: the fsync threads start anew, Hadoop file systems are
 * opened anew.
 */
public final class ProcessResources {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessResources.class);

    /** How long {@link #release} waits for forces already handed over. */
    static final Duration RELEASE_WAIT = Duration.ofSeconds(60);

    private ProcessResources() {}

    /**
     * Stops the background threads after the work already handed to them (waiting at most a
     * minute; a force still running after that finishes on its own thread, which then stops), and
     * where Strata's class loader is a job's own with Hadoop in it, closes that Hadoop's file
     * systems and removes its threads and shutdown hook ({@link HadoopStatics}). REQUIRES: nothing
     * in this class loader uses a Hadoop file system any more. Never throws: a release hook that
     * threw would hide the host's own shutdown.
     */
    public static void release() {
        HadoopStatics.release();
        try {
            if (!BackgroundSync.shutdown(RELEASE_WAIT)) {
                LOG.warn(
                        "background forces of local data files still running after {}; their threads stop once done",
                        RELEASE_WAIT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
