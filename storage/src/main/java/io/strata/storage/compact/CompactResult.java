package io.strata.storage.compact;

import io.strata.storage.commit.CommitMessage;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.mergetree.BucketEdit;
import java.util.List;

/** The outcome of one bucket's compaction: the plan it executed and the edit it makes to the bucket. */
public final class CompactResult {
    private final CompactPlan plan;
    private final BucketEdit edit;
    private final long rowsRead;
    private final long rowsWritten;

    public CompactResult(CompactPlan plan, BucketEdit edit, long rowsRead, long rowsWritten) {
        this.plan = plan;
        this.edit = edit;
        this.rowsRead = rowsRead;
        this.rowsWritten = rowsWritten;
    }

    public CompactPlan plan() {
        return plan;
    }

    public BucketEdit edit() {
        return edit;
    }

    public List<DataFileMeta> before() {
        return edit.deletedFiles();
    }

    public List<DataFileMeta> after() {
        return edit.addedFiles();
    }

    public List<DataFileMeta> changelog() {
        return edit.changelogFiles();
    }

    public long rowsRead() {
        return rowsRead;
    }

    public long rowsWritten() {
        return rowsWritten;
    }

    public CommitMessage toCommitMessage(int totalBuckets) {
        return CommitMessage.compaction(plan.bucketId(), totalBuckets, edit);
    }
}
