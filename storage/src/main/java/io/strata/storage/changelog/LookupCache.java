package io.strata.storage.changelog;

import io.strata.storage.data.KeyValue;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.util.CloseableIterator;
import io.strata.storage.util.LocalScratch;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Local lookup files of a bucket's higher-level data files, kept across compactions (data files
 * are immutable, so an entry stays valid as long as its file lives) and evicted least recently
 * used beyond {@code lookup.cache-max-disk-size}. Heap use is one small object per cached file.
 * Not thread-safe: one cache per compaction thread.
 */
public final class LookupCache implements AutoCloseable {
    private final File dir;
    private final long maxDiskBytes;
    private final int[] keyIndexes;
    private final LinkedHashMap<String, LocalLookupFile> files = new LinkedHashMap<>(16, 0.75f, true);
    private long diskBytes;

    public LookupCache(File parent, long maxDiskBytes, int[] keyIndexes) {
        try {
            this.dir = Files.createTempDirectory(LocalScratch.processDir(parent).toPath(), "strata-lookup-")
                    .toFile();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the local lookup directory under " + parent, e);
        }
        this.maxDiskBytes = maxDiskBytes;
        this.keyIndexes = keyIndexes;
    }

    /** The versions of the key of {@code row} in {@code file}, building the file's lookup file on first use. */
    public List<KeyValue> get(DataFileMeta file, byte[] key, Function<DataFileMeta, CloseableIterator<KeyValue>> reader)
            throws IOException {
        LocalLookupFile local = files.get(file.fileName());
        if (local == null) {
            local = LocalLookupFile.build(new File(dir, file.fileName() + ".lookup"), reader.apply(file), keyIndexes);
            files.put(file.fileName(), local);
            diskBytes += local.diskSize();
            evict(file.fileName());
        }
        return local.get(key);
    }

    byte[] keyOf(Object[] row) {
        return LocalLookupFile.keyBytes(row, keyIndexes);
    }

    private void evict(String keep) throws IOException {
        Iterator<Map.Entry<String, LocalLookupFile>> it = files.entrySet().iterator();
        while (diskBytes > maxDiskBytes && it.hasNext()) {
            Map.Entry<String, LocalLookupFile> e = it.next();
            if (e.getKey().equals(keep)) {
                continue;
            }
            diskBytes -= e.getValue().diskSize();
            e.getValue().close();
            it.remove();
        }
    }

    /** Drops entries of files no longer in {@code live} (compacted away). */
    public void retainOnly(Set<String> live) throws IOException {
        Iterator<Map.Entry<String, LocalLookupFile>> it = files.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, LocalLookupFile> e = it.next();
            if (!live.contains(e.getKey())) {
                diskBytes -= e.getValue().diskSize();
                e.getValue().close();
                it.remove();
            }
        }
    }

    /**
     * Closes and deletes every lookup file, then the cache's directory; a file that fails to close
     * does not keep the others: the first failure is thrown after all were tried.
     */
    @Override
    public void close() throws IOException {
        IOException failure = null;
        for (LocalLookupFile f : files.values()) {
            try {
                f.close();
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        files.clear();
        diskBytes = 0;
        dir.delete();
        if (failure != null) {
            throw failure;
        }
    }
}
