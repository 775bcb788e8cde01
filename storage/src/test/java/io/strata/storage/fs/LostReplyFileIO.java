package io.strata.storage.fs;

import java.io.IOException;
import org.apache.hadoop.fs.Path;

/**
 * A local warehouse's FileIO on which publishing {@code snapshot-<id>} succeeds but its caller
 * hears a failure (the reply was lost), and from then on the store cannot say whether that
 * snapshot exists: the one case in which a committer cannot know the outcome of its publish.
 */
public final class LostReplyFileIO extends DelegatingFileIO {
    private final String snapshotName;
    private volatile boolean published;

    public LostReplyFileIO(String warehouse, long snapshotId) {
        super(warehouse);
        this.snapshotName = "snapshot-" + snapshotId;
    }

    @Override
    protected void replace(Path src, Path dst) throws IOException {
        local.replace(src, dst);
        if (dst.getName().equals(snapshotName)) {
            published = true;
            throw new IOException("injected: the reply to moving " + snapshotName + " in was lost");
        }
    }

    @Override
    public boolean exists(Path path) throws IOException {
        if (published && path.getName().equals(snapshotName)) {
            throw new IOException("injected: the store cannot be reached to look for " + snapshotName);
        }
        return local.exists(path);
    }
}
