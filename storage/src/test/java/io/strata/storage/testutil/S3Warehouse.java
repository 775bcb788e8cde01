package io.strata.storage.testutil;

import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;

/**
 * The S3 half of the tests that run tables on HDFS ({@link MiniHdfs}) and on S3A: s3proxy on
 * 127.0.0.1 on its in-memory backend ({@link S3ProxyServer#startInMemory}: objects appear only
 * once written whole, as on S3), under {@code target/<prefix>-<uuid>}, and the commit lock S3
 * tables need there. s3proxy ignores {@code If-None-Match}, so conditional create is refused and
 * every commit takes a JDBC lock: an H2 database file in that directory, in server mode, so that
 * child processes committing to the same tables share it with the test's JVM.
 */
public final class S3Warehouse implements AutoCloseable {
    private final S3ProxyServer server;
    private final String lockUrl;

    private S3Warehouse(S3ProxyServer server, File dir) {
        this.server = server;
        this.lockUrl = "jdbc:h2:file:" + new File(dir, "locks").getAbsolutePath() + ";AUTO_SERVER=TRUE";
    }

    /** Starts s3proxy under {@code target/<prefix>-<uuid>}; returns once it accepts connections. */
    public static S3Warehouse start(String prefix) throws IOException, InterruptedException {
        File dir = new File("target", prefix + "-" + UUID.randomUUID()).getAbsoluteFile();
        return new S3Warehouse(S3ProxyServer.startInMemory(dir), dir);
    }

    /** {@code s3a://<bucket>/<path>}. */
    public String uri(String path) {
        return server.uri(path);
    }

    /**
     * The S3A settings for this server plus the commit lock for every table of its warehouses
     * ({@code strata.commit.lock.jdbc.url}), for a test that opens catalogs with a configuration.
     */
    public Configuration configuration() {
        Configuration c = server.configuration();
        c.set("strata.commit.lock.jdbc.url", lockUrl);
        return c;
    }

    /**
     * The commit lock as a table option ({@code commit.lock.jdbc.url}), for tables whose
     * warehouse is opened by URI alone, with {@link #installAsDefault()}'s settings (the
     * compaction job's operators, child processes).
     */
    public Map<String, String> commitLockOptions() {
        return Map.of("commit.lock.jdbc.url", lockUrl);
    }

    /** {@link S3ProxyServer#installAsDefault()}: this server in every {@code new Configuration()} of this JVM. */
    public void installAsDefault() {
        server.installAsDefault();
    }

    /** The same for a child JVM that installs the test resource itself, as {@code -D} arguments. */
    public List<String> defaultJvmArgs() {
        return server.defaultJvmArgs();
    }

    @Override
    public void close() {
        server.close();
    }
}
