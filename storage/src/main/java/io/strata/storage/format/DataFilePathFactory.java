package io.strata.storage.format;

import io.strata.storage.fs.TablePaths;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.hadoop.fs.Path;

/**
 * Names new files of one bucket: {@code <prefix>-<uuid>-<n>.parquet}, where the uuid is unique to
 * this factory. Names are never reused, which is what lets manifests identify files by name.
 */
public final class DataFilePathFactory {

    private final TablePaths paths;
    private final String partitionPath;
    private final int bucket;
    private final String uuid = UUID.randomUUID().toString();
    private final AtomicInteger counter = new AtomicInteger();

    public DataFilePathFactory(TablePaths paths, String partitionPath, int bucket) {
        this.paths = paths;
        this.partitionPath = partitionPath;
        this.bucket = bucket;
    }

    /** A supplier of new paths with {@code prefix}, for a {@link RollingFileWriter}. */
    public Supplier<Path> supplier(String prefix) {
        return () -> newPath(prefix);
    }

    public Path newPath(String prefix) {
        return paths.dataFile(
                partitionPath, bucket, prefix + "-" + uuid + "-" + counter.getAndIncrement() + ".parquet");
    }

    public Path toPath(String fileName) {
        return paths.dataFile(partitionPath, bucket, fileName);
    }

    public Path bucketDir() {
        return paths.bucketDir(partitionPath, bucket);
    }
}
