package io.strata.storage.testutil;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * An S3-compatible server for {@code s3a://} tests: s3proxy (jar-with-dependencies, its
 * filesystem backend) in a child JVM on 127.0.0.1, with one bucket, named after the port: Hadoop
 * caches file systems by scheme and bucket, so a server started later in the same JVM must not
 * share a bucket name with an earlier (stopped) one. Its jar bundles logback and
 * other versions of Guava and Jackson, so it never shares the test's class path; the build copies
 * it and names it in the system property {@code strata.s3proxy.jar}.
 *
 * <p>{@link #hadoopConf()} is what an S3A client needs to reach it. {@link #installAsDefault()}
 * also makes it the default of every {@code new Configuration()} in this JVM (through system
 * properties read by the test resource {@code strata-s3a-test-site.xml}), for code that opens
 * a warehouse by URI alone, as the compaction job's operators do: as a core-site.xml would on a
 * cluster.
 */
public final class S3ProxyServer implements AutoCloseable {
    public static final String ACCESS_KEY = "strata-test-access";
    public static final String SECRET_KEY = "strata-test-secret";

    private final Process process;
    private final int port;
    private final File log;
    private final File blobs;

    private S3ProxyServer(Process process, int port, File log, File blobs) {
        this.process = process;
        this.port = port;
        this.log = log;
        this.blobs = blobs;
    }

    /** The filesystem backend's directory: {@code <bucket>/<key>} is an object's file. */
    public File blobs() {
        return blobs;
    }

    /** Starts s3proxy with its blobs under {@code dir}; returns once it accepts connections. */
    public static S3ProxyServer start(File dir) throws IOException, InterruptedException {
        return start(dir, false);
    }

    /**
     * Starts s3proxy on its in-memory (transient) backend: objects appear only once written whole,
     * as on S3. The filesystem backend lists an object being uploaded under a temporary key
     * ({@code <key>-<uuid>}), which a long run of orphan cleanup would see as a file of the table.
     * {@link #blobs()} is then empty.
     */
    public static S3ProxyServer startInMemory(File dir) throws IOException, InterruptedException {
        return start(dir, true);
    }

    private static S3ProxyServer start(File dir, boolean inMemory) throws IOException, InterruptedException {
        String jar = System.getProperty("strata.s3proxy.jar");
        if (jar == null || !new File(jar).isFile()) {
            throw new IllegalStateException("s3proxy jar not found (system property strata.s3proxy.jar = " + jar
                    + "); the Maven build copies it to target/s3proxy/s3proxy.jar");
        }
        File blobs = new File(dir, "blobs");
        int port = freePort();
        Files.createDirectories(new File(blobs, bucket(port)).toPath());
        File props = new File(dir, "s3proxy.properties");
        try (PrintWriter w = new PrintWriter(props, StandardCharsets.UTF_8)) {
            w.println("s3proxy.endpoint=http://127.0.0.1:" + port);
            w.println("s3proxy.authorization=aws-v2-or-v4");
            w.println("s3proxy.identity=" + ACCESS_KEY);
            w.println("s3proxy.credential=" + SECRET_KEY);
            if (inMemory) {
                w.println("jclouds.provider=transient");
            } else {
                w.println("jclouds.provider=filesystem");
                w.println("jclouds.filesystem.basedir=" + blobs.getAbsolutePath());
            }
        }
        File log = new File(dir, "s3proxy.log");
        String java = new File(System.getProperty("java.home"), "bin/java").getPath();
        Process p = new ProcessBuilder(
                        List.of(java, inMemory ? "-Xmx768m" : "-Xmx256m", "-jar", jar, "--properties", props.getPath()))
                .redirectErrorStream(true)
                .redirectOutput(log)
                .start();
        S3ProxyServer server = new S3ProxyServer(p, port, log, blobs);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!server.accepts()) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                server.close();
                throw new IOException("s3proxy did not start on 127.0.0.1:" + port + "; its log " + log + ":\n"
                        + Files.readString(log.toPath()));
            }
            Thread.sleep(50);
        }
        if (inMemory) {
            server.createBucket();
        }
        return server;
    }

    /** The in-memory backend has no directory to stand for the bucket: it is created over the S3 API. */
    private void createBucket() {
        try (S3Client client = S3Client.builder()
                .endpointOverride(URI.create(endpoint()))
                .region(Region.US_EAST_1)
                .forcePathStyle(true)
                .credentialsProvider(
                        StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
                .build()) {
            client.createBucket(b -> b.bucket(bucket()));
        }
    }

    private static String bucket(int port) {
        return "strata-" + port;
    }

    public String bucket() {
        return bucket(port);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    private boolean accepts() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    public String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    /** {@code s3a://<bucket>/<path>}. */
    public String uri(String path) {
        return "s3a://" + bucket() + "/" + path;
    }

    /** The S3A settings for this server: endpoint, path-style access, credentials, no TLS. */
    public Map<String, String> hadoopConf() {
        return hadoopConf(endpoint());
    }

    /** {@link #hadoopConf()} for reaching this server through {@code endpoint} (a proxy in front of it). */
    public Map<String, String> hadoopConf(String endpoint) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("fs.s3a.endpoint", endpoint);
        m.put("fs.s3a.endpoint.region", "us-east-1");
        m.put("fs.s3a.path.style.access", "true");
        m.put("fs.s3a.connection.ssl.enabled", "false");
        m.put("fs.s3a.access.key", ACCESS_KEY);
        m.put("fs.s3a.secret.key", SECRET_KEY);
        m.put("fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
        m.put("fs.s3a.bucket.probe", "0");
        // fail fast when the server is gone instead of retrying for minutes
        m.put("fs.s3a.attempts.maximum", "2");
        m.put("fs.s3a.retry.limit", "2");
        return m;
    }

    public Configuration configuration() {
        Configuration c = new Configuration();
        hadoopConf().forEach(c::set);
        return c;
    }

    /** The settings as a core-site.xml in {@code dir} (for a HADOOP_CONF_DIR), plus {@code extra}. */
    public File writeCoreSite(File dir, Map<String, String> extra) throws IOException {
        Map<String, String> all = new LinkedHashMap<>(hadoopConf());
        all.putAll(extra);
        Files.createDirectories(dir.toPath());
        File f = new File(dir, "core-site.xml");
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
        all.forEach((k, v) -> xml.append("  <property><name>")
                .append(k)
                .append("</name><value>")
                .append(v.replace("&", "&amp;").replace("<", "&lt;"))
                .append("</value></property>\n"));
        xml.append("</configuration>\n");
        try (OutputStream out = Files.newOutputStream(f.toPath())) {
            out.write(xml.toString().getBytes(StandardCharsets.UTF_8));
        }
        return f;
    }

    /**
     * Makes this server the S3A default of every {@code new Configuration()} in this JVM. Global
     * on purpose (the code under test builds its own configurations); tests only.
     */
    public void installAsDefault() {
        defaultProperties().forEach(System::setProperty);
        Configuration.addDefaultResource("strata-s3a-test-site.xml");
    }

    /**
     * The system properties of {@link #installAsDefault()} as {@code -D} arguments, for a child JVM
     * that adds the test resource {@code strata-s3a-test-site.xml} itself.
     */
    public List<String> defaultJvmArgs() {
        List<String> args = new ArrayList<>();
        defaultProperties().forEach((k, v) -> args.add("-D" + k + "=" + v));
        return args;
    }

    /** What {@code strata-s3a-test-site.xml} reads. */
    private Map<String, String> defaultProperties() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("strata.test.s3a.endpoint", endpoint());
        m.put("strata.test.s3a.access-key", ACCESS_KEY);
        m.put("strata.test.s3a.secret-key", SECRET_KEY);
        return m;
    }

    /** The server's output so far, for failure messages. */
    public String log() throws IOException {
        return Files.readString(log.toPath());
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
