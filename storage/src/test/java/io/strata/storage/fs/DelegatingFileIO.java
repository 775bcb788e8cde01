package io.strata.storage.fs;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;

/**
 * A local warehouse's FileIO that does everything through the real one: the base of the test
 * FileIOs that inject one failure by overriding the call it breaks.
 */
public abstract class DelegatingFileIO extends FileIO {
    protected final FileIO local;

    protected DelegatingFileIO(String warehouse) {
        this(FileIO.forWarehouse(warehouse, Map.of()));
    }

    private DelegatingFileIO(FileIO local) {
        super(local.conf());
        this.local = local;
    }

    @Override
    public String scheme() {
        return local.scheme();
    }

    @Override
    public boolean exists(Path path) throws IOException {
        return local.exists(path);
    }

    @Override
    public InputStream open(Path path) throws IOException {
        return local.open(path);
    }

    @Override
    public OutputStream create(Path path) throws IOException {
        return local.create(path);
    }

    @Override
    public long length(Path path) throws IOException {
        return local.length(path);
    }

    @Override
    public boolean delete(Path path) throws IOException {
        return local.delete(path);
    }

    @Override
    public void mkdirs(Path path) throws IOException {
        local.mkdirs(path);
    }

    @Override
    public List<FileEntry> list(Path dir) throws IOException {
        return local.list(dir);
    }

    @Override
    protected void replace(Path src, Path dst) throws IOException {
        local.replace(src, dst);
    }

    @Override
    public InputFile inputFile(Path path, long knownLength) {
        return local.inputFile(path, knownLength);
    }

    @Override
    public OutputFile outputFile(Path path) {
        return local.outputFile(path);
    }

    @Override
    public OutputFile dataOutputFile(Path path) {
        return local.dataOutputFile(path);
    }

    @Override
    public void makeDurable(Collection<Path> files) throws IOException {
        local.makeDurable(files);
    }
}
