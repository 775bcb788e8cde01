package io.strata.storage.manifest;

import io.strata.storage.format.FileFormatConfig;
import io.strata.storage.fs.FileIO;
import io.strata.storage.fs.TablePaths;
import io.strata.storage.options.ManifestOptions;
import io.strata.storage.options.TableOptions;
import io.strata.storage.schema.DataType;
import java.time.Clock;
import java.util.List;

/** The manifest side of one table: manifests, manifest lists, live-file scans and manifest compaction. */
public final class ManifestStore {
    private final ManifestFile manifestFile;
    private final ManifestList manifestList;
    private final LiveFileScanner scanner;
    private final ManifestMerger merger;

    /**
     * @param clock stamps the creation time of manifest files
     * @param cache decoded manifests and lists shared with the other tables of the catalog
     */
    public ManifestStore(
            FileIO io,
            TablePaths paths,
            FileFormatConfig format,
            TableOptions options,
            List<DataType> partitionTypes,
            Clock clock,
            ManifestCache cache) {
        long target = options.get(ManifestOptions.TARGET_FILE_SIZE);
        this.manifestFile = new ManifestFile(io, paths, format, target, partitionTypes, clock, cache);
        this.manifestList = new ManifestList(io, paths, cache);
        this.scanner = new LiveFileScanner(manifestList, manifestFile);
        this.merger = new ManifestMerger(
                manifestFile,
                target,
                options.get(ManifestOptions.MERGE_MIN_COUNT),
                options.get(ManifestOptions.FULL_COMPACTION_GARBAGE_PERCENT));
    }

    public ManifestFile manifestFile() {
        return manifestFile;
    }

    public ManifestList manifestList() {
        return manifestList;
    }

    public LiveFileScanner scanner() {
        return scanner;
    }

    public ManifestMerger merger() {
        return merger;
    }
}
