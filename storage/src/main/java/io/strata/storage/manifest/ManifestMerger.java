package io.strata.storage.manifest;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a base manifest list proportional to live files. After a commit appends its delta
 * manifests to the base:
 * <ul>
 *   <li>if entries that describe no live file (DELETEs and the ADDs they cancel) exceed
 *       {@code garbagePercent} of live files (and 1,000 entries), every manifest is rewritten with
 *       the live ADDs only (full compaction);</li>
 *   <li>else, if at least {@code mergeMinCount} manifests are below the target size, those are
 *       folded into fewer (ADD/DELETE pairs inside them cancel; unmatched DELETEs are kept).</li>
 * </ul>
 * Manifests are immutable; merging writes new ones and the caller records which ones are new,
 * so that a commit that loses its race can delete them.
 */
public final class ManifestMerger {
    private static final Logger LOG = LoggerFactory.getLogger(ManifestMerger.class);
    private static final long MIN_GARBAGE_FOR_FULL = 1000;

    private final ManifestFile manifestFile;
    private final long targetSize;
    private final int mergeMinCount;
    private final int garbagePercent;

    public ManifestMerger(ManifestFile manifestFile, long targetSize, int mergeMinCount, int garbagePercent) {
        this.manifestFile = manifestFile;
        this.targetSize = targetSize;
        this.mergeMinCount = mergeMinCount;
        this.garbagePercent = garbagePercent;
    }

    /**
     * @param written receives every manifest this call wrote
     * @return the manifests of the new base list
     */
    public List<ManifestFileMeta> merge(List<ManifestFileMeta> manifests, List<ManifestFileMeta> written)
            throws IOException {
        long added = 0;
        long deleted = 0;
        for (ManifestFileMeta m : manifests) {
            added += m.numAdded();
            deleted += m.numDeleted();
        }
        long live = added - deleted;
        long garbage = 2 * deleted;
        if (garbage > Math.max(MIN_GARBAGE_FOR_FULL, live * garbagePercent / 100)) {
            return rewrite(manifests, manifests, written, true);
        }
        List<ManifestFileMeta> small = new ArrayList<>();
        for (ManifestFileMeta m : manifests) {
            if (m.fileSize() < targetSize) {
                small.add(m);
            }
        }
        if (small.size() >= mergeMinCount) {
            return rewrite(manifests, small, written, false);
        }
        return manifests;
    }

    private List<ManifestFileMeta> rewrite(
            List<ManifestFileMeta> all, List<ManifestFileMeta> chosen, List<ManifestFileMeta> written, boolean full)
            throws IOException {
        LiveFiles fold = new LiveFiles();
        for (ManifestFileMeta m : chosen) {
            fold.addAll(manifestFile.read(m));
        }
        List<ManifestEntry> keep = fold.live();
        if (full) {
            if (!fold.unmatchedDeletes().isEmpty()) {
                LOG.warn(
                        "{} DELETE entries matched no ADD during full manifest compaction; dropped: {}",
                        fold.unmatchedDeletes().size(),
                        fold.unmatchedDeletes());
            }
        } else {
            keep.addAll(fold.unmatchedDeletes());
        }
        List<ManifestFileMeta> result = new ArrayList<>();
        for (ManifestFileMeta m : all) {
            if (!chosen.contains(m)) {
                result.add(m);
            }
        }
        if (!keep.isEmpty()) {
            List<ManifestFileMeta> fresh = manifestFile.write(keep);
            written.addAll(fresh);
            result.addAll(fresh);
        }
        LOG.debug("{} manifest compaction: {} manifests -> {}", full ? "full" : "minor", all.size(), result.size());
        return result;
    }
}
