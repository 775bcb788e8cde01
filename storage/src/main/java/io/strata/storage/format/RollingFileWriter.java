package io.strata.storage.format;

import io.strata.storage.data.KeyValue;
import io.strata.storage.fs.FileIO;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;
import org.apache.hadoop.fs.Path;

/**
 * Writes a sorted record stream into data files of about {@code targetSize} bytes. Files roll only
 * between two different keys, so the files of one sorted run never share a key and their key
 * ranges do not overlap. {@link #abort()} deletes every file written so far.
 */
public final class RollingFileWriter implements Closeable {
    private static final int SIZE_CHECK_INTERVAL = 1024;

    private final DataFileWriter.Factory files;
    private final FileIO io;
    private final Supplier<Path> newPath;
    private final int level;
    private final FileSource source;
    private final long targetSize;
    private final Comparator<Object[]> keyComparator;

    private final List<DataFileMeta> finished = new ArrayList<>();
    private final List<Path> finishedPaths = new ArrayList<>();
    private DataFileWriter current;
    private boolean rollPending;

    /**
     * @param files         writes each file, and decides when it is durable ({@link
     *                      DataFileWriter#forCommit} for data and changelog files)
     * @param newPath       gives the path of each new file
     * @param keyComparator compares rows by primary key; null for append files (roll anywhere)
     */
    public RollingFileWriter(
            DataFileWriter.Factory files,
            Supplier<Path> newPath,
            int level,
            FileSource source,
            long targetSize,
            Comparator<Object[]> keyComparator) {
        this.files = files;
        this.io = files.fileIO();
        this.newPath = newPath;
        this.level = level;
        this.source = source;
        this.targetSize = targetSize;
        this.keyComparator = keyComparator;
    }

    public void write(KeyValue kv) throws IOException {
        if (current != null
                && rollPending
                && (keyComparator == null || keyComparator.compare(current.lastRow(), kv.row()) != 0)) {
            finishCurrent();
            rollPending = false;
        }
        if (current == null) {
            current = files.create(newPath.get(), level, source);
        }
        current.write(kv);
        if (current.rowCount() % SIZE_CHECK_INTERVAL == 0 && current.estimatedSize() >= targetSize) {
            rollPending = true;
        }
    }

    /** Closes the last file and returns all files, in key order. */
    public List<DataFileMeta> finish() throws IOException {
        if (current != null) {
            finishCurrent();
        }
        return List.copyOf(finished);
    }

    private void finishCurrent() throws IOException {
        DataFileWriter w = current;
        current = null;
        finishedPaths.add(w.path());
        try {
            finished.add(w.finish());
        } catch (IOException | RuntimeException e) {
            w.abort();
            throw e;
        }
    }

    /** Deletes everything written. Never throws. */
    public void abort() {
        if (current != null) {
            current.abort();
            current = null;
        }
        for (Path p : finishedPaths) {
            try {
                io.delete(p);
            } catch (IOException ignored) {
                // left for orphan cleanup
            }
        }
        finished.clear();
        finishedPaths.clear();
    }

    @Override
    public void close() {
        if (current != null) {
            abort();
        }
    }
}
