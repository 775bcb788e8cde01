package io.strata.storage.manifest;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.hadoop.fs.Path;

/**
 * Decoded manifests and manifest lists by path, shared by the tables of one catalog
 * ({@code Catalog.withManifestCache}), least recently used first out, bounded by the number of
 * entries it holds (a manifest's entries, a list's manifests), so its heap does not grow with the
 * tables or the polls.
 *
 * <p>Safe because both kinds of file are immutable: a name carries a UUID and is never reused, so
 * a cached copy is the file's content for as long as the file exists. What a cache cannot give is
 * the news that a file went missing: a catalog that must notice a deleted or damaged manifest
 * (maintenance, commits) reads without one. A reader that fails is not cached.
 *
 * <p>Owned by whoever opened the catalog (no static instance): it goes with it. Thread-safe.
 */
public final class ManifestCache {
    private static final ManifestCache DISABLED = new ManifestCache(0);

    private final long maxEntries;
    private final LinkedHashMap<String, List<?>> byPath = new LinkedHashMap<>(16, 0.75f, true);
    private long entries;
    private long hits;
    private long misses;

    private ManifestCache(long maxEntries) {
        this.maxEntries = maxEntries;
    }

    /** No caching: every read goes to the file system. */
    public static ManifestCache disabled() {
        return DISABLED;
    }

    /** A cache of at most {@code maxEntries} entries; a single file larger than that is not kept. */
    public static ManifestCache ofEntries(long maxEntries) {
        if (maxEntries <= 0) {
            throw new IllegalArgumentException("a manifest cache holds at least one entry, got " + maxEntries);
        }
        return new ManifestCache(maxEntries);
    }

    public boolean isEnabled() {
        return maxEntries > 0;
    }

    /** The cached content of {@code path}, or what {@code read} returns (then cached, if it fits). */
    @SuppressWarnings("unchecked")
    <T> List<T> get(Path path, Supplier<List<T>> read) {
        if (!isEnabled()) {
            return read.get();
        }
        String key = path.toString();
        synchronized (this) {
            List<?> cached = byPath.get(key);
            if (cached != null) {
                hits++;
                return (List<T>) cached;
            }
            misses++;
        }
        // read outside the lock: two threads may read one file, both get its (identical) content
        List<T> loaded = List.copyOf(read.get());
        synchronized (this) {
            if (loaded.size() <= maxEntries && !byPath.containsKey(key)) {
                byPath.put(key, loaded);
                entries += loaded.size();
                evict();
            }
        }
        return loaded;
    }

    private void evict() {
        Iterator<Map.Entry<String, List<?>>> it = byPath.entrySet().iterator();
        while (entries > maxEntries && it.hasNext()) {
            entries -= it.next().getValue().size();
            it.remove();
        }
    }

    /** Entries held now. */
    public synchronized long entries() {
        return entries;
    }

    /** Files held now. */
    public synchronized int files() {
        return byPath.size();
    }

    public synchronized long hits() {
        return hits;
    }

    public synchronized long misses() {
        return misses;
    }
}
