package io.strata.storage.manifest;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Folds manifest entries into the set of live files: ADDs minus DELETEs, independent of the order
 * the entries come in (file names are unique, so a file is added at most once and deleted at most
 * once). Memory is proportional to the entries folded, i.e. to live files once manifests are
 * compacted.
 */
public final class LiveFiles {
    private final Map<ManifestEntry.Identifier, ManifestEntry> added = new LinkedHashMap<>();
    private final Map<ManifestEntry.Identifier, ManifestEntry> deletedWithoutAdd = new LinkedHashMap<>();

    public void add(ManifestEntry e) {
        ManifestEntry.Identifier id = e.identifier();
        if (e.kind() == FileKind.ADD) {
            if (deletedWithoutAdd.remove(id) == null) {
                added.put(id, e);
            }
        } else if (added.remove(id) == null) {
            deletedWithoutAdd.put(id, e);
        }
    }

    public void addAll(Collection<ManifestEntry> entries) {
        for (ManifestEntry e : entries) {
            add(e);
        }
    }

    /** The live ADD entries. */
    public List<ManifestEntry> live() {
        return new ArrayList<>(added.values());
    }

    /**
     * DELETE entries whose ADD was not among the folded entries. Within a full base manifest
     * list this is empty; when folding a subset of manifests they must be kept.
     */
    public List<ManifestEntry> unmatchedDeletes() {
        return new ArrayList<>(deletedWithoutAdd.values());
    }
}
