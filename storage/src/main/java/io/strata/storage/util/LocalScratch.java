package io.strata.storage.util;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-process local scratch directories (spill files, lookup files). Every file a process creates
 * under a scratch root lives in that process's own directory {@code strata-<pid>-<start>} (the
 * start time in epoch milliseconds tells a new process from an earlier one that had the same pid,
 * as a container's JVM always has). The owner deletes each file when it is done with it; a process
 * that crashed leaves its directory behind, and the first process that uses the same root
 * afterwards removes the directories of processes no longer alive.
 *
 * <p>Nothing is removed that does not match that name, so a root shared with other programs (the
 * default root is under {@code java.io.tmpdir}) loses only what Strata created. Thread-safe.
 */
public final class LocalScratch {
    private static final Logger LOG = LoggerFactory.getLogger(LocalScratch.class);
    private static final Pattern OWNED = Pattern.compile("strata-(\\d+)-(\\d+)");
    private static final String SELF =
            "strata-" + ProcessHandle.current().pid() + "-" + startMillis(ProcessHandle.current());

    /** Roots already swept by this process (canonical paths). */
    private static final Set<String> SWEPT = ConcurrentHashMap.newKeySet();

    private LocalScratch() {}

    /**
     * This process's directory under {@code root}, created if absent. The first call for a root
     * in this process first removes the directories of dead processes under it ({@link #sweep}).
     *
     * @throws UncheckedIOException naming the directory when it cannot be created
     */
    public static File processDir(File root) {
        Path dir = root.toPath().resolve(SELF);
        try {
            Files.createDirectories(root.toPath());
            if (SWEPT.add(root.getCanonicalPath())) {
                sweep(root.toPath());
            }
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the local scratch directory " + dir, e);
        }
        return dir.toFile();
    }

    /**
     * Removes, recursively, every directory under {@code root} named as a process's scratch
     * directory whose process is no longer alive: no process has its pid, or the one that has it
     * started at another time. A directory whose owner may be alive (its start time unknown) is
     * kept. Failures to delete are logged, never thrown: a leftover only costs disk.
     *
     * @return how many directories were removed
     */
    static int sweep(Path root) {
        int removed = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(root)) {
            for (Path p : entries) {
                String name = p.getFileName().toString();
                Matcher m = OWNED.matcher(name);
                if (!name.equals(SELF)
                        && m.matches()
                        && Files.isDirectory(p)
                        && !isAlive(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)))) {
                    if (deleteTree(p)) {
                        removed++;
                    }
                }
            }
        } catch (IOException e) {
            LOG.warn(
                    "cannot list the local scratch directory {} for leftovers of dead processes: {}",
                    root,
                    e.toString());
        }
        return removed;
    }

    private static boolean isAlive(long pid, long start) {
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty()) {
            return false;
        }
        long liveStart = startMillis(handle.get());
        return start == 0 || liveStart == 0 || liveStart == start;
    }

    /** The process's start time in epoch milliseconds, 0 when the platform does not tell. */
    static long startMillis(ProcessHandle p) {
        return p.info().startInstant().map(i -> i.toEpochMilli()).orElse(0L);
    }

    private static boolean deleteTree(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
                try {
                    Files.deleteIfExists(p);
                } catch (NoSuchFileException e) {
                    // another process sweeping the same root got there first
                }
            }
            LOG.info("removed {}, the local scratch files of a process that is no longer running", dir);
            return true;
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("cannot remove {}, the local scratch files of a dead process: {}", dir, e.toString());
            return false;
        }
    }

    /** The name of this process's directory under a root. */
    static String selfName() {
        return SELF;
    }
}
