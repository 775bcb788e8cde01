package io.strata.storage.fs;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Collection;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;

/**
 * A local warehouse's FileIO on which publishing {@code snapshot-<id>} succeeds but its caller
 * hears a failure (the reply was lost), and from then on the store cannot say whether that
 * snapshot exists: the one case in which a committer cannot know the outcome of its publish.
 */
public final class LostReplyFileIO extends FileIO {
    private final FileIO local;
    private final String snapshotName;
    private volatile boolean published;

    public LostReplyFileIO(String warehouse, long snapshotId) {
        this(FileIO.forWarehouse(warehouse, java.util.Map.of()), snapshotId);
    }

    private LostReplyFileIO(FileIO local, long snapshotId) {
        super(local.conf());
        this.local = local;
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

    @Override public String scheme() { return local.scheme(); }
    @Override public InputStream open(Path path) throws IOException { return local.open(path); }
    @Override public OutputStream create(Path path) throws IOException { return local.create(path); }
    @Override public long length(Path path) throws IOException { return local.length(path); }
    @Override public boolean delete(Path path, boolean recursive) throws IOException { return local.delete(path, recursive); }
    @Override public void mkdirs(Path path) throws IOException { local.mkdirs(path); }
    @Override public List<FileEntry> list(Path dir) throws IOException { return local.list(dir); }
    @Override public InputFile inputFile(Path path, long knownLength) { return local.inputFile(path, knownLength); }
    @Override public OutputFile outputFile(Path path) { return local.outputFile(path); }
    @Override public OutputFile dataOutputFile(Path path) { return local.dataOutputFile(path); }
    @Override public void makeDurable(Collection<Path> files) throws IOException { local.makeDurable(files); }
}
