package io.strata.storage.maintenance;

import io.strata.storage.fs.FileIO;
import io.strata.storage.table.FileStoreTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * When each data, changelog, manifest and manifest-list file of a table was written, by a model's
 * clock. {@link #stampNew} gives every file it has not seen the clock's time as its modification
 * time (through the Hadoop file system of the table's FileIO, so on a local disk and on HDFS
 * alike), so that a file's age to orphan cleanup is the model time since the step that wrote it,
 * whatever the file system's own clock says.
 */
final class FileAges {
    private final FileStoreTable table;
    private final Clock clock;
    private final Map<String, Long> writtenAt = new HashMap<>();

    FileAges(FileStoreTable table, Clock clock) {
        this.table = table;
        this.clock = clock;
    }

    /**
     * Stamps the files written since the last call with the clock's time. REQUIRES: called after
     * every step that may write files, before the clock moves.
     */
    void stampNew() {
        long now = clock.millis();
        try {
            for (FileIO.FileEntry e : TableFiles.entriesOnDisk(table)) {
                String name = e.path().getName();
                if (!writtenAt.containsKey(name)) {
                    e.path().getFileSystem(table.fileIO().conf()).setTimes(e.path(), now, -1);
                    writtenAt.put(name, now);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The distinct ages now of the files {@code names} that were stamped, oldest last. */
    List<Duration> agesOf(Set<String> names) {
        long now = clock.millis();
        TreeSet<Long> ages = new TreeSet<>();
        for (String name : names) {
            Long at = writtenAt.get(name);
            if (at != null) {
                ages.add(now - at);
            }
        }
        return ages.stream().map(Duration::ofMillis).toList();
    }

    /** The names of the files written at or after {@code cutoffMillis}: younger than a threshold ending there. */
    Set<String> writtenSince(long cutoffMillis) {
        Set<String> young = new HashSet<>();
        writtenAt.forEach((name, at) -> {
            if (at >= cutoffMillis) {
                young.add(name);
            }
        });
        return young;
    }
}
