package io.strata.storage.fs;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;

/**
 * The file system of one warehouse. {@code file:} warehouses use {@link LocalFileIO} (java.nio:
 * no checksum side files, no forked {@code chmod} per file, real {@code fsync}); every other
 * scheme uses a Hadoop {@link FileSystem} ({@link HadoopFileIO}: HDFS, S3A, ...).
 *
 * <p>Everything a table writes is written once and never modified, except the LATEST/EARLIEST
 * hints, which readers treat as hints only. Files written by {@link #create} are durable once
 * closed (fsync on local disks, hsync on HDFS), so a snapshot never names a file an OS crash
 * could lose.
 */
public abstract class FileIO {
    private final Configuration conf;

    protected FileIO(Configuration conf) {
        this.conf = conf;
    }

    /**
     * One entry of a directory listing: a file, a directory, or a symbolic link, which listings
     * report as such and never follow (maintenance must not walk or delete through one).
     */
    public static final class FileEntry {
        private final Path path;
        private final long length;
        private final boolean directory;
        private final boolean symbolicLink;
        private final long modificationTime;

        public FileEntry(Path path, long length, boolean directory, long modificationTime) {
            this(path, length, directory, false, modificationTime);
        }

        private FileEntry(Path path, long length, boolean directory, boolean symbolicLink, long modificationTime) {
            this.path = path;
            this.length = length;
            this.directory = directory;
            this.symbolicLink = symbolicLink;
            this.modificationTime = modificationTime;
        }

        /** A symbolic link at {@code path} (neither a file nor a directory to the caller). */
        public static FileEntry symbolicLink(Path path, long modificationTime) {
            return new FileEntry(path, 0, false, true, modificationTime);
        }

        public boolean isSymbolicLink() {
            return symbolicLink;
        }

        public Path path() {
            return path;
        }

        public long length() {
            return length;
        }

        public boolean isDirectory() {
            return directory;
        }

        public long modificationTime() {
            return modificationTime;
        }
    }

    public static FileIO forWarehouse(String warehouse, Map<String, String> hadoopConf) {
        Configuration conf = new Configuration();
        hadoopConf.forEach(conf::set);
        return forWarehouse(warehouse, conf);
    }

    public static FileIO forWarehouse(String warehouse, Configuration conf) {
        URI uri = qualify(warehouse);
        if ("file".equals(uri.getScheme())) {
            return new LocalFileIO(conf);
        }
        try {
            FileSystem fs = HadoopStatics.fileSystem(uri, conf);
            if (fs instanceof LocalFileSystem) {
                fs = ((LocalFileSystem) fs).getRawFileSystem();
            }
            return new HadoopFileIO(fs, conf);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot open file system of warehouse " + warehouse + ": " + e.getMessage(), e);
        }
    }

    /** A warehouse given as a plain local path becomes a file: URI (made absolute). */
    public static URI qualify(String warehouse) {
        URI uri = URI.create(warehouse.replace(" ", "%20"));
        if (uri.getScheme() == null) {
            return new File(warehouse).getAbsoluteFile().toURI();
        }
        return uri;
    }

    /** Hadoop configuration for Parquet codecs and Hadoop file systems. */
    public Configuration conf() {
        return conf;
    }

    public abstract String scheme();

    public abstract boolean exists(Path path) throws IOException;

    public abstract InputStream open(Path path) throws IOException;

    /** Creates a new file (and missing parents); fails if it exists. Durable once closed. */
    public abstract OutputStream create(Path path) throws IOException;

    public abstract long length(Path path) throws IOException;

    /** Deletes a file (or an empty directory); false if there was nothing at {@code path}. */
    public abstract boolean delete(Path path) throws IOException;

    public abstract void mkdirs(Path path) throws IOException;

    /** The entries of a directory, or none if it does not exist. */
    public abstract List<FileEntry> list(Path dir) throws IOException;

    /**
     * Deletes {@code files}, all under {@code base}, never a directory. A file already gone counts
     * as deleted. Object stores that delete many objects in one request (S3A's bulk delete) do so
     * here; elsewhere files are deleted one by one.
     *
     * @return the files that could not be deleted, with the reason; empty when all went
     */
    public List<Map.Entry<Path, String>> deleteFiles(Path base, List<Path> files) throws IOException {
        List<Map.Entry<Path, String>> failed = new ArrayList<>();
        for (Path f : files) {
            delete(f);
        }
        return failed;
    }

    /** Whether {@code path} is a symbolic link (found by listing its parent; false when absent). */
    public boolean isSymbolicLink(Path path) throws IOException {
        Path parent = path.getParent();
        if (parent == null) {
            return false;
        }
        for (FileEntry e : list(parent)) {
            if (e.path().getName().equals(path.getName())) {
                return e.isSymbolicLink();
            }
        }
        return false;
    }

    /** Moves {@code src} over {@code dst}, replacing it (hints only). */
    protected abstract void replace(Path src, Path dst) throws IOException;

    /**
     * Parquet's view of a file to read. With {@code knownLength} >= 0 (the length a manifest or
     * manifest list recorded) no round trip asks for the length, and opening a stream fails with
     * {@link FileSizeMismatchException} when the file has another length: a truncated or replaced
     * file is never read as the one recorded.
     */
    public abstract InputFile inputFile(Path path, long knownLength);

    /** Parquet's view of a new file; never overwrites; durable once closed. */
    public abstract OutputFile outputFile(Path path);

    /**
     * Like {@link #outputFile(Path)}, for a data or changelog file that only a commit will name:
     * it need not be durable when its stream closes, only once {@link #makeDurable} has returned
     * for it, which {@code TableCommit} calls before it publishes a snapshot naming the file.
     * This default is {@link #outputFile(Path)}: on HDFS and object stores a closed file is
     * already durable.
     */
    public OutputFile dataOutputFile(Path path) {
        return outputFile(path);
    }

    /**
     * Returns once {@code files} are on stable storage (files written through {@link
     * #dataOutputFile}, by this process or another). A file that does not exist is skipped: it is
     * not this method's business to judge a commit. Default: nothing to do (close is durable).
     *
     * @throws IOException naming the file that could not be made durable
     */
    public void makeDurable(Collection<Path> files) throws IOException {}

    /**
     * The whole content of a small file (metadata: snapshots, consumers, tags, schemas). Files that
     * are replaced in place (a consumer's position) may change while being read; on an object store
     * S3A then refuses to return a mix of two versions, and the read is repeated from the start, up
     * to {@value #REPLACED_WHILE_READ_ATTEMPTS} times a little later each time, so the caller gets
     * one whole version.
     */
    public byte[] readFully(Path path) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try (InputStream in = open(path)) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                in.transferTo(out);
                return out.toByteArray();
            } catch (IOException e) {
                if (attempt >= REPLACED_WHILE_READ_ATTEMPTS || !S3aErrors.isRemoteFileChanged(e)) {
                    throw e;
                }
                try {
                    Thread.sleep(5L * attempt); // let the replacing write finish
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException("interrupted re-reading " + path);
                }
            }
        }
    }

    private static final int REPLACED_WHILE_READ_ATTEMPTS = 10;

    public String readUtf8(Path path) throws IOException {
        return new String(readFully(path), StandardCharsets.UTF_8);
    }

    /** Writes a new file with {@code content}, durable before returning; fails if it exists. */
    public void writeNew(Path path, byte[] content) throws IOException {
        try (OutputStream out = create(path)) {
            out.write(content);
        }
    }

    /**
     * Writes a new file that readers see whole or not at all. The caller guarantees that no one
     * else writes {@code path} concurrently (a commit lock). Where a single PUT is already atomic
     * (object stores) the file is written directly; elsewhere it is written beside and moved in.
     */
    public void writeNewWhole(Path path, byte[] content) throws IOException {
        if (putIsAtomic()) {
            writeNew(path, content);
            return;
        }
        Path tmp = tempSibling(path);
        writeNew(tmp, content);
        try {
            replace(tmp, path);
        } finally {
            delete(tmp);
        }
    }

    /** True where a new file becomes visible only once complete (object stores' single PUT). */
    protected boolean putIsAtomic() {
        return false;
    }

    /**
     * Replaces a hint file (LATEST, EARLIEST). Best effort: a crash may leave the old content or
     * no file, which readers tolerate.
     */
    public void overwriteHint(Path path, String content) throws IOException {
        Path tmp = tempSibling(path);
        writeNew(tmp, content.getBytes(StandardCharsets.UTF_8));
        try {
            replace(tmp, path);
        } finally {
            delete(tmp);
        }
    }

    /** A unique hidden name beside {@code path}, for write-then-publish. */
    public static Path tempSibling(Path path) {
        return new Path(path.getParent(), "." + path.getName() + "." + UUID.randomUUID() + ".tmp");
    }
}
