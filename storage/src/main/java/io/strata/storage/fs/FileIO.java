package io.strata.storage.fs;

import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The file system of one warehouse: a Hadoop {@link FileSystem} (local, HDFS, S3A, ...). On the
 * local file system the raw (checksum-free) implementation is used, so no {@code .crc} side
 * files appear beside table files.
 *
 * <p>Everything a table writes is written once and never modified, except the LATEST/EARLIEST
 * hints, which readers treat as hints only.
 */
public final class FileIO {
    private final FileSystem fs;
    private final Configuration conf;

    private FileIO(FileSystem fs, Configuration conf) {
        this.fs = fs;
        this.conf = conf;
    }

    /** The file system for {@code warehouse}; {@code hadoopConf} entries are added to a fresh Configuration. */
    public static FileIO forWarehouse(String warehouse, Map<String, String> hadoopConf) {
        Configuration conf = new Configuration();
        hadoopConf.forEach(conf::set);
        return forWarehouse(warehouse, conf);
    }

    public static FileIO forWarehouse(String warehouse, Configuration conf) {
        try {
            URI uri = qualify(warehouse);
            FileSystem fs = FileSystem.get(uri, conf);
            if (fs instanceof LocalFileSystem) {
                fs = ((LocalFileSystem) fs).getRawFileSystem();
            }
            return new FileIO(fs, conf);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open file system of warehouse " + warehouse + ": " + e.getMessage(), e);
        }
    }

    /** A warehouse given as a plain local path becomes a file: URI (made absolute). */
    public static URI qualify(String warehouse) {
        URI uri = URI.create(warehouse.replace(" ", "%20"));
        if (uri.getScheme() == null) {
            return new java.io.File(warehouse).getAbsoluteFile().toURI();
        }
        return uri;
    }

    public FileSystem fileSystem() {
        return fs;
    }

    public Configuration conf() {
        return conf;
    }

    public String scheme() {
        return fs.getUri().getScheme();
    }

    public boolean exists(Path path) throws IOException {
        return fs.exists(path);
    }

    public FSDataInputStream open(Path path) throws IOException {
        return fs.open(path);
    }

    /** Creates a new file; fails if it exists. */
    public FSDataOutputStream create(Path path) throws IOException {
        return fs.create(path, false);
    }

    public long length(Path path) throws IOException {
        return fs.getFileStatus(path).getLen();
    }

    public boolean delete(Path path, boolean recursive) throws IOException {
        return fs.delete(path, recursive);
    }

    public void mkdirs(Path path) throws IOException {
        fs.mkdirs(path);
    }

    /** The entries of a directory, or none if it does not exist. */
    public FileStatus[] list(Path dir) throws IOException {
        try {
            return fs.listStatus(dir);
        } catch (FileNotFoundException e) {
            return new FileStatus[0];
        }
    }

    public byte[] readFully(Path path) throws IOException {
        try (InputStream in = fs.open(path)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            return out.toByteArray();
        }
    }

    public String readUtf8(Path path) throws IOException {
        return new String(readFully(path), StandardCharsets.UTF_8);
    }

    /** Writes a new file with {@code content} and makes it durable before returning; fails if it exists. */
    public void writeNew(Path path, byte[] content) throws IOException {
        try (FSDataOutputStream out = fs.create(path, false)) {
            out.write(content);
            out.hsync();
        }
    }

    /**
     * Replaces a hint file (LATEST, EARLIEST). Best effort: a crash may leave the old content or
     * no file, which readers tolerate.
     */
    public void overwriteHint(Path path, String content) throws IOException {
        Path tmp = tempSibling(path);
        writeNew(tmp, content.getBytes(StandardCharsets.UTF_8));
        if (!fs.rename(tmp, path)) {
            fs.delete(path, false);
            if (!fs.rename(tmp, path)) {
                fs.delete(tmp, false);
            }
        }
    }

    /** A unique hidden name beside {@code path}, for write-then-publish. */
    public static Path tempSibling(Path path) {
        return new Path(path.getParent(), "." + path.getName() + "." + UUID.randomUUID() + ".tmp");
    }
}
