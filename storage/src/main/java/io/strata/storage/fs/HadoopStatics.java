package io.strata.storage.fs;

import java.io.IOException;
import java.lang.reflect.Field;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a copy of Hadoop keeps for the life of its class loader, released when that loader is
 * Strata's own and is going away (a Flink job's loader, holding the Hadoop classes of the job's
 * shaded jar): the cached file systems (their clients and threads), the thread that cleans file
 * system statistics (started by Hadoop's static initialiser, never stopped) and the JVM shutdown
 * hook of Hadoop's {@code ShutdownHookManager}. The last two are referenced from outside the
 * loader (a live thread, the JVM's hook table), so either alone keeps every class of the job
 * loaded for ever; so do Hadoop's daemon threads, such as the HDFS client's peer cache expiry.
 *
 * <p>Where Hadoop is shared (on the cluster's class path, loaded parent-first by Flink), only this
 * loader's classes are removed from Hadoop's static caches ({@link #forgetClassesOf}); its file
 * systems and threads serve every job. Where Strata was loaded by the system class loader (the
 * CLI, the embedded runner, tests) nothing is done: nothing of it is unloaded.
 */
final class HadoopStatics {
    private static final Logger LOG = LoggerFactory.getLogger(HadoopStatics.class);

    private HadoopStatics() {}

    /**
     * The (cached) Hadoop file system of {@code uri}. Hadoop's cache is static in Hadoop's class
     * loader and keeps the file system's configuration, whose class loader is the thread's context
     * loader when the configuration was made: where Hadoop is shared (the cluster's class path)
     * that would be a job's loader, kept by every later job. So the file system gets a copy of
     * {@code conf} that loads through Hadoop's own loader, and is created with Hadoop's loader as
     * the context loader, which the threads Hadoop starts then inherit.
     */
    static FileSystem fileSystem(URI uri, Configuration conf) throws IOException {
        ClassLoader hadoop = FileSystem.class.getClassLoader();
        Configuration fsConf = new Configuration(conf);
        fsConf.setClassLoader(hadoop);
        Thread thread = Thread.currentThread();
        ClassLoader context = thread.getContextClassLoader();
        thread.setContextClassLoader(hadoop);
        try {
            return FileSystem.get(uri, fsConf);
        } finally {
            thread.setContextClassLoader(context);
        }
    }

    /** True if this loader is a job's own and Hadoop came with it. */
    static boolean ownedByDisposableLoader() {
        ClassLoader ours = HadoopStatics.class.getClassLoader();
        return ours != ClassLoader.getSystemClassLoader() && FileSystem.class.getClassLoader() == ours;
    }

    /** Releases what {@link HadoopStatics} describes; never throws. */
    static void release() {
        ClassLoader ours = HadoopStatics.class.getClassLoader();
        if (ours == ClassLoader.getSystemClassLoader()) {
            return;
        }
        forgetClassesOf(ours);
        if (ownedByDisposableLoader()) {
            releaseOwned();
        }
    }

    /**
     * Removes this loader's classes from Hadoop's static caches, which a shared Hadoop keeps for
     * the life of the process: the constructors {@code ReflectionUtils.newInstance} cached
     * (Parquet's codecs, created through Hadoop's codec machinery, are classes of the job's jar)
     * and the pooled compressors of {@code CodecPool}.
     */
    private static void forgetClassesOf(ClassLoader loader) {
        try {
            removeClassKeys(staticField("org.apache.hadoop.util.ReflectionUtils", "CONSTRUCTOR_CACHE"), loader);
            removeClassKeys(staticField("org.apache.hadoop.io.compress.CodecPool", "compressorPool"), loader);
            removeClassKeys(staticField("org.apache.hadoop.io.compress.CodecPool", "decompressorPool"), loader);
            Class<?> cache = Class.forName(
                    "org.apache.hadoop.thirdparty.com.google.common.cache.Cache",
                    false,
                    FileSystem.class.getClassLoader());
            for (String counts : new String[] {"compressorCounts", "decompressorCounts"}) {
                Object c = staticField("org.apache.hadoop.io.compress.CodecPool", counts);
                removeClassKeys(cache.getMethod("asMap").invoke(c), loader);
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn(
                    "cannot remove the job's classes from Hadoop's caches ({}): each job keeps its classes loaded",
                    e.toString());
        }
    }

    private static Object staticField(String className, String field) throws ReflectiveOperationException {
        Field f = Class.forName(className, false, FileSystem.class.getClassLoader())
                .getDeclaredField(field);
        f.setAccessible(true);
        return f.get(null);
    }

    /** Removes the entries keyed by classes of {@code loader}; holds the map's lock as its owner does. */
    private static void removeClassKeys(Object map, ClassLoader loader) {
        Map<?, ?> m = (Map<?, ?>) map;
        synchronized (m) {
            m.keySet().removeIf(k -> k instanceof Class<?> c && c.getClassLoader() == loader);
        }
    }

    /** Closes the file systems of Hadoop's own copy in this loader and stops its threads and hook. */
    private static void releaseOwned() {
        try {
            FileSystem.closeAll();
        } catch (IOException | RuntimeException e) {
            LOG.warn("closing Hadoop file systems of an unloading job failed: {}", e.toString());
        }
        stopStatisticsCleaner();
        interruptThreadsOf(HadoopStatics.class.getClassLoader());
        removeShutdownHooks(HadoopStatics.class.getClassLoader());
    }

    /**
     * Interrupts the live threads whose class this loader defined: Hadoop's {@code Daemon}s, such
     * as the expiry thread of each HDFS client context's peer cache (a static cache no close
     * reaches), which stop when interrupted.
     */
    private static void interruptThreadsOf(ClassLoader loader) {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t != Thread.currentThread() && t.isAlive() && t.getClass().getClassLoader() == loader) {
                t.interrupt();
            }
        }
    }

    /** Hadoop's cleaner thread stops when interrupted (its loop checks the interrupt). */
    private static void stopStatisticsCleaner() {
        try {
            Field f = FileSystem.Statistics.class.getDeclaredField("STATS_DATA_CLEANER");
            f.setAccessible(true);
            Thread cleaner = (Thread) f.get(null);
            cleaner.interrupt();
            cleaner.join(5_000);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn(
                    "cannot stop Hadoop's statistics cleaner thread ({}): each job keeps its classes loaded; put "
                            + "Hadoop on the cluster's class path instead of the job's jar",
                    e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Removes the JVM shutdown hooks whose class this loader defined (Hadoop's, which would close
     * the file systems closed above). Reading the JVM's hook table needs {@code
     * --add-opens=java.base/java.lang=ALL-UNNAMED}, which Flink passes to its JVMs.
     */
    private static void removeShutdownHooks(ClassLoader loader) {
        try {
            Class<?> hooksClass = Class.forName("java.lang.ApplicationShutdownHooks");
            Field f = hooksClass.getDeclaredField("hooks");
            f.setAccessible(true);
            List<Thread> ours = new ArrayList<>();
            synchronized (hooksClass) {
                Map<?, ?> hooks = (Map<?, ?>) f.get(null);
                if (hooks == null) {
                    return; // the JVM is shutting down
                }
                for (Object hook : hooks.keySet()) {
                    if (hook.getClass().getClassLoader() == loader) {
                        ours.add((Thread) hook);
                    }
                }
            }
            for (Thread hook : ours) {
                Runtime.getRuntime().removeShutdownHook(hook);
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn(
                    "cannot remove Hadoop's JVM shutdown hook ({}): each job keeps its classes loaded; start the "
                            + "JVM with --add-opens=java.base/java.lang=ALL-UNNAMED or put Hadoop on the cluster's class path",
                    e.toString());
        }
    }
}
