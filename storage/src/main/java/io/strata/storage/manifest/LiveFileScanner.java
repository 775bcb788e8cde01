package io.strata.storage.manifest;

import java.util.ArrayList;
import java.util.List;

/** Reads the live files of a base manifest list, skipping manifests and entries a filter rules out. */
public final class LiveFileScanner {
    private final ManifestList manifestList;
    private final ManifestFile manifestFile;

    public LiveFileScanner(ManifestList manifestList, ManifestFile manifestFile) {
        this.manifestList = manifestList;
        this.manifestFile = manifestFile;
    }

    /** The live ADD entries of the manifests in {@code manifestListName} that pass {@code filter}. */
    public List<ManifestEntry> scan(String manifestListName, EntryFilter filter) {
        return fold(manifestList.read(manifestListName), filter).live();
    }

    /** Folds the entries of {@code manifests} (all ADD and DELETE entries passing the filter). */
    public LiveFiles fold(List<ManifestFileMeta> manifests, EntryFilter filter) {
        LiveFiles live = new LiveFiles();
        for (ManifestFileMeta m : manifests) {
            if (!filter.mayContainPartitions(m.partitionMin(), m.partitionMax())) {
                continue;
            }
            for (ManifestEntry e : manifestFile.read(m)) {
                if (filter.accept(e.partition(), e.bucket())) {
                    live.add(e);
                }
            }
        }
        return live;
    }

    /** Every entry, ADD and DELETE, of a manifest list (e.g. a snapshot's delta). */
    public List<ManifestEntry> entries(String manifestListName) {
        List<ManifestEntry> out = new ArrayList<>();
        for (ManifestFileMeta m : manifestList.read(manifestListName)) {
            out.addAll(manifestFile.read(m));
        }
        return out;
    }
}
