package io.strata.compaction;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * The local disk under the Hadoop scheme {@code refusing:}, refusing new files whose path contains
 * {@link #refuse}'s marker: at once (a read-only file system), or after a number of bytes (a full
 * disk), like the errors the operating system gives. The compaction job opens a warehouse by URI
 * alone, so its operators reach this class through the Hadoop configuration's
 * {@code fs.refusing.impl} ({@link #install}); the schedule is static because the MiniCluster's
 * operators run in the test's JVM. Root ignores file permissions, so a chmod cannot make these
 * errors.
 */
public final class RefusingFileSystem extends RawLocalFileSystem {
    public static final String SCHEME = "refusing";

    private static volatile String marker;
    private static volatile long bytesBeforeFull;

    /** Makes {@code refusing:} known to every {@code new Configuration()} of this JVM. */
    static void install() {
        Configuration.addDefaultResource("strata-refusing-fs-test-site.xml");
    }

    /**
     * From now on, new files whose path contains {@code pathMarker} fail: at creation when {@code
     * bytes} is 0 ("Read-only file system"), else once {@code bytes} were written ("No space left on
     * device").
     */
    static void refuse(String pathMarker, long bytes) {
        bytesBeforeFull = bytes;
        marker = pathMarker;
    }

    static void heal() {
        marker = null;
    }

    /** {@code file} as a warehouse URI of this file system. */
    static String uri(java.nio.file.Path file) {
        return SCHEME + "://" + file.toAbsolutePath();
    }

    @Override
    public URI getUri() {
        return URI.create(SCHEME + ":///");
    }

    @Override
    public String getScheme() {
        return SCHEME;
    }

    @Override
    public void initialize(URI uri, Configuration conf) throws IOException {
        super.initialize(uri, conf);
        setConf(conf);
    }

    @Override
    protected OutputStream createOutputStream(Path f, boolean append) throws IOException {
        return createOutputStreamWithMode(f, append, null);
    }

    /** Every new file of this file system is opened here (create, createNonRecursive). */
    @Override
    protected OutputStream createOutputStreamWithMode(Path f, boolean append, FsPermission permission)
            throws IOException {
        String m = marker;
        if (m == null || !f.toString().contains(m)) {
            return super.createOutputStreamWithMode(f, append, permission);
        }
        long limit = bytesBeforeFull;
        if (limit == 0) {
            throw new IOException(f + ": Read-only file system");
        }
        return new Full(super.createOutputStreamWithMode(f, append, permission), limit, f);
    }

    /** Takes {@code limit} bytes, then fails every write as a full disk does. */
    private static final class Full extends FilterOutputStream {
        private final long limit;
        private final Path path;
        private long written;

        Full(OutputStream out, long limit, Path path) {
            super(out);
            this.limit = limit;
            this.path = path;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (written + len > limit) {
                throw new IOException(path + ": No space left on device");
            }
            out.write(b, off, len);
            written += len;
        }
    }
}
