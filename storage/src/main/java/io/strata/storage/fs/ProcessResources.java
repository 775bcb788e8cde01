package io.strata.storage.fs;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What Strata keeps per process rather than per table handle: today the threads that force
 * local data files to disk in the background. They stop by themselves when idle; {@link
 * #release} stops them at once.
 *
 * <p>A host that loads Strata in a class loader it later drops (a Flink TaskManager runs each job
 * in its own user-code class loader) calls {@link #release} when it drops it, so that no thread
 * started by that copy of Strata keeps the loader, and with it every class of the job, alive: the
 * compaction job registers it as a user-code class loader release hook. Using Strata again after
 * a release is allowed and starts the threads anew.
 */
public final class ProcessResources {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessResources.class);

    /** How long {@link #release} waits for forces already handed over. */
    static final Duration RELEASE_WAIT = Duration.ofSeconds(60);

    private ProcessResources() {
    }

    /**
     * Stops the background threads after the work already handed to them (waiting at most a
     * minute; a force still running after that finishes on its own thread, which then stops).
     * Never throws: a release hook that threw would hide the host's own shutdown.
     */
    public static void release() {
        try {
            if (!BackgroundSync.shutdown(RELEASE_WAIT)) {
                LOG.warn("background forces of local data files still running after {}; their threads stop once done",
                        RELEASE_WAIT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
