package io.strata.scheduler.support;

import io.strata.storage.fs.DelegatingFileIO;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;

/**
 * A local warehouse's FileIO whose listings report each file's modification time as a {@link
 * ShortenedClock} reads it: a table opened through it with that clock ({@code Catalog.withClock})
 * judges file ages (orphan cleanup's {@code older-than}) on the shortened clock, so an hour passes
 * for a file in {@code 3600 / speed} seconds, as it does for snapshots and heartbeats stamped by
 * that clock. Everything else goes to the real FileIO.
 */
public final class ShortenedAgeFileIO extends DelegatingFileIO {
    private final ShortenedClock clock;

    public ShortenedAgeFileIO(String warehouse, ShortenedClock clock) {
        super(warehouse);
        this.clock = clock;
    }

    @Override
    public List<FileEntry> list(Path dir) throws IOException {
        List<FileEntry> out = new ArrayList<>();
        for (FileEntry e : local.list(dir)) {
            long at = clock.stamp(e.modificationTime());
            out.add(
                    e.isSymbolicLink()
                            ? FileEntry.symbolicLink(e.path(), at)
                            : new FileEntry(e.path(), e.length(), e.isDirectory(), at));
        }
        return out;
    }
}
