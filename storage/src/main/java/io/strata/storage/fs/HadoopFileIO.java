package io.strata.storage.fs;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BulkDelete;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.functional.FutureIO;
import org.apache.parquet.hadoop.util.HadoopStreams;
import org.apache.parquet.io.DelegatingPositionOutputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A warehouse on a Hadoop file system (HDFS, S3A, ...).
 *
 * <p>Every call into the file system, and the writes and closes of its streams, run with Hadoop's
 * own class loader as the thread's context loader. File systems start pool threads lazily, when a
 * call first needs one (S3A's listing, multipart upload and drain pool), and a new thread inherits
 * the context loader of the thread that made it: on a Flink cluster whose Hadoop is shared that is
 * a job's loader, closed when the job ends while the cached file system and its threads serve the
 * next jobs ("Trying to access closed classloader", or every job's classes kept loaded).
 */
final class HadoopFileIO extends FileIO {
    private final FileSystem fs;
    /** Conditional-create probe verdicts by warehouse root, for this FileIO's lifetime. */
    private final Map<Path, Boolean> conditionalCreate = new ConcurrentHashMap<>();

    HadoopFileIO(FileSystem fs, Configuration conf) {
        super(conf);
        this.fs = fs;
    }

    FileSystem fileSystem() {
        return fs;
    }

    /** A call into the file system. */
    @FunctionalInterface
    private interface HadoopCall<T> {
        T call() throws IOException;
    }

    /** Runs {@code call} with Hadoop's class loader as the context loader (see the class comment). */
    private static <T> T inHadoop(HadoopCall<T> call) throws IOException {
        Thread thread = Thread.currentThread();
        ClassLoader context = thread.getContextClassLoader();
        ClassLoader hadoop = FileSystem.class.getClassLoader();
        if (context == hadoop) {
            return call.call();
        }
        thread.setContextClassLoader(hadoop);
        try {
            return call.call();
        } finally {
            thread.setContextClassLoader(context);
        }
    }

    private static void runInHadoop(HadoopCall<Void> call) throws IOException {
        inHadoop(call);
    }

    @Override
    public String scheme() {
        return fs.getUri().getScheme();
    }

    @Override
    public boolean exists(Path path) throws IOException {
        return inHadoop(() -> fs.exists(path));
    }

    @Override
    public InputStream open(Path path) throws IOException {
        InputStream in = inHadoop(() -> fs.open(path));
        return new java.io.FilterInputStream(in) {
            @Override
            public void close() throws IOException {
                runInHadoop(() -> {
                    in.close(); // S3A may drain the rest of the object in its pool
                    return null;
                });
            }
        };
    }

    @Override
    public OutputStream create(Path path) throws IOException {
        FSDataOutputStream out = inHadoop(() -> fs.create(path, false));
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                out.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                runInHadoop(() -> {
                    out.write(b, off, len); // a full block is uploaded in S3A's pool
                    return null;
                });
            }

            @Override
            public void close() throws IOException {
                closeSynced(out);
            }
        };
    }

    private void closeSynced(FSDataOutputStream out) throws IOException {
        runInHadoop(() -> {
            try {
                syncBeforeClose(out);
            } finally {
                out.close();
            }
            return null;
        });
    }

    /**
     * hsync on HDFS, so a closed file survives a data node crash. Object stores have nothing to
     * sync: the object exists, durably, once close() has PUT it (S3A's hsync only warns).
     */
    private void syncBeforeClose(FSDataOutputStream out) throws IOException {
        if (!putIsAtomic()) {
            out.hsync();
        }
    }

    @Override
    public long length(Path path) throws IOException {
        return inHadoop(() -> fs.getFileStatus(path).getLen());
    }

    @Override
    public boolean delete(Path path) throws IOException {
        return inHadoop(() -> fs.delete(path, false));
    }

    /**
     * Uses the file system's bulk delete (Hadoop 3.4, {@link CommonPathCapabilities#BULK_DELETE}) where
     * it deletes more than one file a request (S3A: a page of objects per request); otherwise one by one.
     */
    @Override
    public List<Map.Entry<Path, String>> deleteFiles(Path base, List<Path> files) throws IOException {
        return inHadoop(() -> bulkDelete(base, files));
    }

    private List<Map.Entry<Path, String>> bulkDelete(Path base, List<Path> files) throws IOException {
        if (files.isEmpty() || !fs.hasPathCapability(base, CommonPathCapabilities.BULK_DELETE)) {
            return super.deleteFiles(base, files);
        }
        try (BulkDelete bulk = fs.createBulkDelete(base)) {
            if (bulk.pageSize() <= 1) {
                return super.deleteFiles(base, files);
            }
            List<Map.Entry<Path, String>> failed = new ArrayList<>();
            for (int i = 0; i < files.size(); i += bulk.pageSize()) {
                List<Path> page = new ArrayList<>();
                for (Path f : files.subList(i, Math.min(files.size(), i + bulk.pageSize()))) {
                    page.add(fs.makeQualified(f));
                }
                failed.addAll(bulk.bulkDelete(page));
            }
            return failed;
        } catch (UnsupportedOperationException notHere) {
            return super.deleteFiles(base, files);
        }
    }

    @Override
    public void mkdirs(Path path) throws IOException {
        inHadoop(() -> fs.mkdirs(path));
    }

    @Override
    public List<FileEntry> list(Path dir) throws IOException {
        return inHadoop(() -> listNow(dir));
    }

    private List<FileEntry> listNow(Path dir) throws IOException {
        List<FileEntry> out = new ArrayList<>();
        try {
            for (FileStatus st : fs.listStatus(dir)) {
                out.add(
                        st.isSymlink()
                                ? FileEntry.symbolicLink(st.getPath(), st.getModificationTime())
                                : new FileEntry(st.getPath(), st.getLen(), st.isDirectory(), st.getModificationTime()));
            }
        } catch (FileNotFoundException e) {
            return out;
        }
        return out;
    }

    /** Rename that never overwrites: false if {@code dst} exists (HDFS semantics). */
    boolean renameNoOverwrite(Path src, Path dst) throws IOException {
        return inHadoop(() -> fs.rename(src, dst));
    }

    /**
     * The conditional-create publisher for tables under {@code warehouseRoot}, or empty when the
     * client does not offer it there. The store is probed once per warehouse root by this FileIO.
     *
     * @throws IllegalArgumentException naming the warehouse and the lock options when the client
     *                                  offers it and the store does not honour it
     */
    Optional<AtomicPublisher> conditionalCreatePublisher(Path warehouseRoot) throws IOException {
        if (!ConditionalCreatePublisher.offered(fs, warehouseRoot)) {
            return Optional.empty();
        }
        ConditionalCreatePublisher publisher = new ConditionalCreatePublisher(fs);
        Boolean honoured = conditionalCreate.get(warehouseRoot);
        if (honoured == null) {
            honoured = publisher.honoured(warehouseRoot);
            conditionalCreate.put(warehouseRoot, honoured);
        }
        if (!honoured) {
            throw new IllegalArgumentException("warehouse " + warehouseRoot + ": the object store accepted a second "
                    + "conditional create (If-None-Match: *) of one object, so it does not honour it and a commit there "
                    + "could overwrite another's snapshot; commit under a lock instead: set commit.lock.jdbc.url (or "
                    + "commit.lock.class), as a table option or as strata.commit.lock.jdbc.url in the Hadoop "
                    + "configuration (see docs/FORMAT.md)");
        }
        return Optional.of(publisher);
    }

    /** Object stores whose single PUT makes an object visible whole. */
    private static final Set<String> OBJECT_STORES =
            Set.of("s3", "s3a", "s3n", "gs", "oss", "abfs", "abfss", "wasb", "wasbs", "cos", "cosn", "obs");

    @Override
    protected boolean putIsAtomic() {
        return OBJECT_STORES.contains(scheme());
    }

    /**
     * HDFS's rename returns false when {@code dst} exists; S3A's throws {@link
     * org.apache.hadoop.fs.FileAlreadyExistsException}. Either way {@code dst} is deleted and the
     * rename tried once more; a second failure throws, naming both paths.
     */
    @Override
    protected void replace(Path src, Path dst) throws IOException {
        runInHadoop(() -> {
            replaceNow(src, dst);
            return null;
        });
    }

    private void replaceNow(Path src, Path dst) throws IOException {
        try {
            if (fs.rename(src, dst)) {
                return;
            }
        } catch (FileAlreadyExistsException exists) {
            // the object store's way of saying what HDFS says with false
        }
        fs.delete(dst, false);
        if (!fs.rename(src, dst)) {
            throw new IOException(
                    "cannot move " + src + " to " + dst + " (rename returned false after deleting the target)");
        }
    }

    /**
     * On object stores one PUT with overwrite replaces the hint atomically (readers see the old
     * or the new object, never a part), in one request; rename is a copy and a delete there, and
     * S3A's refuses an existing target.
     */
    @Override
    public void overwriteHint(Path path, String content) throws IOException {
        if (!putIsAtomic()) {
            super.overwriteHint(path, content);
            return;
        }
        runInHadoop(() -> {
            try (FSDataOutputStream out = fs.create(path, true)) {
                out.write(content.getBytes(StandardCharsets.UTF_8));
            }
            return null;
        });
    }

    @Override
    public InputFile inputFile(Path path, long knownLength) {
        return new InputFile() {
            @Override
            public long getLength() throws IOException {
                return knownLength >= 0 ? knownLength : length(path);
            }

            @Override
            public SeekableInputStream newStream() throws IOException {
                return new ClosingInHadoop(inHadoop(this::openNow));
            }

            private SeekableInputStream openNow() throws IOException {
                if (knownLength < 0) {
                    return HadoopStreams.wrap(fs.open(path));
                }
                // the status open() would fetch anyway (S3A: one HEAD), checked, then handed to the open
                FileStatus status = fs.getFileStatus(path);
                if (status.getLen() != knownLength) {
                    throw new FileSizeMismatchException(path.toString(), knownLength, status.getLen());
                }
                return HadoopStreams.wrap(FutureIO.awaitFuture(
                        fs.openFile(path).withFileStatus(status).build()));
            }

            @Override
            public String toString() {
                return path.toString();
            }
        };
    }

    @Override
    public OutputFile outputFile(Path path) {
        return new NoOverwriteOutputFile(path) {
            @Override
            public PositionOutputStream create(long blockSizeHint) throws IOException {
                FSDataOutputStream out = inHadoop(() -> fs.create(path, false));
                return new DelegatingPositionOutputStream(out) {
                    @Override
                    public long getPos() throws IOException {
                        return out.getPos();
                    }

                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        runInHadoop(() -> {
                            out.write(b, off, len); // a full block is uploaded in S3A's pool
                            return null;
                        });
                    }

                    @Override
                    public void close() throws IOException {
                        closeSynced(out);
                    }
                };
            }
        };
    }

    /** A stream whose close (S3A may drain the rest of the object in its pool) runs in Hadoop's loader. */
    private static final class ClosingInHadoop extends SeekableInputStream {
        private final SeekableInputStream in;

        ClosingInHadoop(SeekableInputStream in) {
            this.in = in;
        }

        @Override
        public long getPos() throws IOException {
            return in.getPos();
        }

        @Override
        public void seek(long newPos) throws IOException {
            in.seek(newPos);
        }

        @Override
        public void readFully(byte[] bytes) throws IOException {
            in.readFully(bytes);
        }

        @Override
        public void readFully(byte[] bytes, int start, int len) throws IOException {
            in.readFully(bytes, start, len);
        }

        @Override
        public int read(java.nio.ByteBuffer buf) throws IOException {
            return in.read(buf);
        }

        @Override
        public void readFully(java.nio.ByteBuffer buf) throws IOException {
            in.readFully(buf);
        }

        @Override
        public void readVectored(
                List<org.apache.parquet.io.ParquetFileRange> ranges,
                org.apache.parquet.bytes.ByteBufferAllocator allocate)
                throws IOException {
            runInHadoop(() -> {
                in.readVectored(ranges, allocate); // the ranges are read in the file system's pool
                return null;
            });
        }

        @Override
        public boolean readVectoredAvailable(org.apache.parquet.bytes.ByteBufferAllocator allocate) {
            return in.readVectoredAvailable(allocate);
        }

        @Override
        public int read() throws IOException {
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return in.read(b, off, len);
        }

        @Override
        public long skip(long n) throws IOException {
            return in.skip(n);
        }

        @Override
        public int available() throws IOException {
            return in.available();
        }

        @Override
        public void close() throws IOException {
            runInHadoop(() -> {
                in.close();
                return null;
            });
        }
    }
}
