package io.strata.compaction.job;

import io.strata.storage.fs.ProcessResources;
import org.apache.flink.api.common.functions.RuntimeContext;

/**
 * Ties Strata's per-process resources to the job's user-code class loader: when a TaskManager
 * drops the loader after the job, the threads that copy of Strata started stop, so nothing keeps
 * the loader (and every class of the job) alive in a session cluster that runs jobs all day. Every
 * operator that writes files registers it; Flink runs a hook of a name once per loader.
 */
public final class ProcessRelease {
    private static final String HOOK = "strata-process-resources";

    private ProcessRelease() {}

    public static void register(RuntimeContext context) {
        context.registerUserCodeClassLoaderReleaseHookIfAbsent(HOOK, ProcessResources::release);
    }
}
