package io.strata.storage.format;

import io.strata.storage.fs.TablePaths;
import java.util.function.Supplier;
import org.apache.hadoop.fs.Path;

/**
 * Names new files of one bucket: {@code <prefix>-<uuid>-<n>.parquet}, the {@code <uuid>-<n>} from
 * {@link DataFileNames} (this factory's own, or its writer's, shared by the writer's buckets). Names
 * are never reused, which is what lets manifests identify files by name.
 */
public final class DataFilePathFactory {

    private final TablePaths paths;
    private final String partitionPath;
    private final int bucket;
    private final DataFileNames names;

    /** A factory with names of its own, which no writer registration protects. */
    public DataFilePathFactory(TablePaths paths, String partitionPath, int bucket) {
        this(paths, partitionPath, bucket, DataFileNames.unregistered());
    }

    public DataFilePathFactory(TablePaths paths, String partitionPath, int bucket, DataFileNames names) {
        this.paths = paths;
        this.partitionPath = partitionPath;
        this.bucket = bucket;
        this.names = names;
    }

    /** A supplier of new paths with {@code prefix}, for a {@link RollingFileWriter}. */
    public Supplier<Path> supplier(String prefix) {
        return () -> newPath(prefix);
    }

    public Path newPath(String prefix) {
        return paths.dataFile(partitionPath, bucket, prefix + "-" + names.next() + ".parquet");
    }

    public Path toPath(String fileName) {
        return paths.dataFile(partitionPath, bucket, fileName);
    }

    public Path bucketDir() {
        return paths.bucketDir(partitionPath, bucket);
    }
}
