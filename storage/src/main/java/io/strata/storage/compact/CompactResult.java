package io.strata.storage.compact;

import io.strata.storage.commit.CommitMessage;
import io.strata.storage.format.DataFileMeta;
import java.util.List;

/** The outcome of one bucket's compaction: files it replaces and files that replace them. */
public final class CompactResult {
    private final CompactPlan plan;
    private final List<DataFileMeta> before;
    private final List<DataFileMeta> after;
    private final long rowsRead;
    private final long rowsWritten;
    private final List<DataFileMeta> changelog;

    public CompactResult(CompactPlan plan, List<DataFileMeta> before, List<DataFileMeta> after, long rowsRead,
                         long rowsWritten, List<DataFileMeta> changelog) {
        this.changelog = List.copyOf(changelog);
        this.plan = plan;
        this.before = List.copyOf(before);
        this.after = List.copyOf(after);
        this.rowsRead = rowsRead;
        this.rowsWritten = rowsWritten;
    }

    public CompactPlan plan() { return plan; }
    public List<DataFileMeta> before() { return before; }
    public List<DataFileMeta> after() { return after; }
    public long rowsRead() { return rowsRead; }
    public long rowsWritten() { return rowsWritten; }
    public List<DataFileMeta> changelog() { return changelog; }

    public CommitMessage toCommitMessage(int totalBuckets) {
        return new CommitMessage(plan.partition(), plan.bucket(), totalBuckets, List.of(), before, after, List.of(),
                changelog);
    }
}
