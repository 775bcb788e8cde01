package io.strata.storage.compact;

import io.strata.storage.data.BucketId;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.mergetree.Levels;

/**
 * The shape of one bucket's LSM tree in one snapshot, for ranking backlog and for metrics without
 * reading manifests again: how many sorted runs a read merges, how many of them are level-0 files,
 * and how many files and bytes the bucket holds.
 */
public record BucketShape(BucketId bucket, int sortedRuns, int level0Files, int files, long bytes) {

    public static BucketShape of(BucketId bucket, Levels levels) {
        long bytes = 0;
        int files = 0;
        for (DataFileMeta f : levels.allFiles()) {
            bytes += f.fileSize();
            files++;
        }
        return new BucketShape(
                bucket, levels.numberOfSortedRuns(), levels.level0().size(), files, bytes);
    }
}
