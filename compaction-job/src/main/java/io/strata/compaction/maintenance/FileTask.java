package io.strata.compaction.maintenance;

import java.io.Serializable;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * One unit of a maintenance job's work, both the source's split and the record it emits: files of
 * one deletion stage to delete ({@link #kinds} and {@link #sizes} set), or one directory to list
 * ({@link #paths} alone). {@link #index} orders the tasks of a job, so that the driver puts the
 * results back in the order it asked for them.
 *
 * <p>A Flink POJO: public fields and a no-argument constructor; serializable, as the source that
 * holds the job's tasks is.
 */
public final class FileTask implements SourceSplit, Serializable {
    private static final long serialVersionUID = 1L;

    public int index;
    public String[] paths;
    /** The {@code TableFile.Kind} of each path; null when listing. */
    public String[] kinds;
    /** The size of each path in bytes (-1 when unknown); null when listing. */
    public long[] sizes;

    public FileTask() {}

    FileTask(int index, String[] paths, String[] kinds, long[] sizes) {
        this.index = index;
        this.paths = paths;
        this.kinds = kinds;
        this.sizes = sizes;
    }

    @Override
    public String splitId() {
        return Integer.toString(index);
    }
}
