package io.strata.compaction.maintenance;

/**
 * One result of a maintenance task, sent back to the driver: a file deleted (its kind, path and
 * size), a file listed (path, size, modification time), a path the listing refused, or a task
 * that failed ({@link #note} says why, naming the file or directory).
 *
 * <p>A Flink POJO: public fields and a no-argument constructor.
 */
public final class TaskOutcome {
    static final String DELETED = "deleted";
    static final String LISTED = "listed";
    static final String REFUSED = "refused";
    static final String FAILED = "failed";

    /** The {@link FileTask#index} of the task this came from. */
    public int index;

    public String type;
    public String kind;
    public String path;
    public long size;
    public long modificationTime;
    public String note;

    public TaskOutcome() {}

    static TaskOutcome of(int index, String type, String path, String note) {
        TaskOutcome o = new TaskOutcome();
        o.index = index;
        o.type = type;
        o.path = path;
        o.note = note;
        return o;
    }
}
