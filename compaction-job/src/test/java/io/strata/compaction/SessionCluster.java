package io.strata.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real Flink session cluster for tests: a JobManager ({@code StandaloneSessionClusterEntrypoint})
 * and one TaskManager ({@code TaskManagerRunner}), each in its own JVM, started from the Flink
 * artifacts the job has as {@code provided} (there is no Flink distribution here) and bound to
 * 127.0.0.1. Jobs reach it as users' jobs do: the shaded jar uploaded over REST and run inside
 * the JobManager, or {@code flink run} (Flink's {@code CliFrontend}) from a client JVM. Public for
 * the integration tests of other modules (the scheduler's), which get it from this module's test
 * jar and must set {@code strata.flink.classpath} as this module's failsafe does.
 */
public final class SessionCluster implements AutoCloseable {
    /** What Flink's scripts pass to every JVM on Java 17 ({@code env.java.opts.all}). */
    static final List<String> JAVA_17_OPTS = List.of(
            "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
            "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.net=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens=java.base/java.text=ALL-UNNAMED",
            "--add-opens=java.base/java.time=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final Path confDir;
    private final int restPort;
    private final List<String> classPath;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private Process jobManager;
    private Process taskManager;

    private SessionCluster(Path dir, List<String> extraClassPath) throws IOException {
        this.dir = dir;
        this.confDir = Files.createDirectories(dir.resolve("conf"));
        this.restPort = freePort();
        this.classPath = flinkClassPath();
        this.classPath.addAll(extraClassPath);
    }

    /** Starts the JobManager and the TaskManager and returns once the TaskManager has registered. */
    public static SessionCluster start(Path dir) throws Exception {
        return start(dir, List.of());
    }

    /**
     * Like {@link #start(Path)}, with {@code extraClassPath} on the cluster's class path (as in a
     * distribution's lib/, or {@code HADOOP_CLASSPATH}).
     */
    public static SessionCluster start(Path dir, List<String> extraClassPath) throws Exception {
        SessionCluster c = new SessionCluster(dir, extraClassPath);
        c.writeConfig();
        c.jobManager = c.launch(
                "jobmanager",
                "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint",
                List.of("-Xmx512m", "-XX:MaxMetaspaceSize=256m"));
        c.taskManager = c.launch(
                "taskmanager",
                "org.apache.flink.runtime.taskexecutor.TaskManagerRunner",
                List.of("-Xmx512m", "-Xms512m", "-XX:MaxDirectMemorySize=192m", "-XX:MaxMetaspaceSize=256m"));
        c.awaitTaskManager(Duration.ofSeconds(90));
        return c;
    }

    private void writeConfig() throws IOException {
        String conf = String.join(
                        "\n",
                        "jobmanager.rpc.address: 127.0.0.1",
                        "jobmanager.rpc.port: " + freePort(),
                        "jobmanager.bind-host: 127.0.0.1",
                        "rest.address: 127.0.0.1",
                        "rest.bind-address: 127.0.0.1",
                        "rest.port: " + restPort,
                        "taskmanager.host: 127.0.0.1",
                        "taskmanager.bind-host: 127.0.0.1",
                        "taskmanager.numberOfTaskSlots: 2",
                        "jobmanager.memory.process.size: 1024m",
                        // what Flink's start-up scripts would compute and pass to a TaskManager of this size;
                        // the JVM options in start() match (heap = framework + task heap, direct = the rest)
                        "taskmanager.cpu.cores: 2",
                        "taskmanager.memory.framework.heap.size: 128m",
                        "taskmanager.memory.task.heap.size: 384m",
                        "taskmanager.memory.framework.off-heap.size: 128m",
                        "taskmanager.memory.task.off-heap.size: 0m",
                        "taskmanager.memory.network.min: 64m",
                        "taskmanager.memory.network.max: 64m",
                        "taskmanager.memory.managed.size: 64m",
                        "taskmanager.memory.jvm-metaspace.size: 256m",
                        "taskmanager.memory.jvm-overhead.min: 192m",
                        "taskmanager.memory.jvm-overhead.max: 192m",
                        "parallelism.default: 1",
                        "web.upload.dir: " + dir.resolve("uploads"),
                        "io.tmp.dirs: " + dir.resolve("tmp"),
                        "")
                + "\n";
        Files.createDirectories(dir.resolve("uploads"));
        Files.createDirectories(dir.resolve("tmp"));
        Files.writeString(confDir.resolve("config.yaml"), conf);
        Files.writeString(
                confDir.resolve("log4j.properties"),
                String.join(
                                "\n",
                                "rootLogger.level = INFO",
                                "rootLogger.appenderRef.file.ref = File",
                                "appender.file.name = File",
                                "appender.file.type = File",
                                "appender.file.fileName = ${sys:log.file}",
                                "appender.file.layout.type = PatternLayout",
                                "appender.file.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c{1} [%t] - %m%n",
                                "logger.hadoop.name = org.apache.hadoop",
                                "logger.hadoop.level = WARN",
                                "")
                        + "\n");
    }

    private Process launch(String name, String mainClass, List<String> jvmOptions) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(java()));
        cmd.addAll(jvmOptions);
        cmd.addAll(JAVA_17_OPTS);
        cmd.addAll(List.of(
                "-Dlog.file=" + log(name),
                "-Dlog4j.configurationFile=" + confDir.resolve("log4j.properties"),
                "-Djava.io.tmpdir=" + dir.resolve("tmp"),
                "-cp",
                String.join(File.pathSeparator, classPath),
                mainClass,
                "--configDir",
                confDir.toString()));
        return new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".out").toFile())
                .start();
    }

    Path log(String name) {
        return dir.resolve(name + ".log");
    }

    /**
     * Flink from the job's {@code provided} dependencies, which Maven lists in a file at package
     * time, plus the logging jars a distribution's lib/ carries.
     */
    private static List<String> flinkClassPath() throws IOException {
        String listed = System.getProperty("strata.flink.classpath");
        assertThat(listed).as("-Dstrata.flink.classpath (set by failsafe)").isNotNull();
        List<String> cp =
                new ArrayList<>(List.of(Files.readString(Path.of(listed)).trim().split(File.pathSeparator)));
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (e.contains("/org/apache/logging/log4j/") || e.contains("/org/slf4j/slf4j-api/")) {
                cp.add(e);
            }
        }
        return cp;
    }

    /** The JVM a client of this cluster runs in: Flink's class path and its Java 17 options. */
    List<String> clientCommand(String mainClass) {
        List<String> cmd = new ArrayList<>(List.of(java(), "-Xmx512m"));
        cmd.addAll(JAVA_17_OPTS);
        cmd.addAll(List.of(
                "-Dlog4j.configurationFile=" + confDir.resolve("log4j.properties"),
                "-Dlog.file=" + log("client"),
                "-cp",
                String.join(File.pathSeparator, classPath),
                mainClass));
        return cmd;
    }

    /** The directory of config.yaml, for a client's {@code FLINK_CONF_DIR}. */
    Path confDir() {
        return confDir;
    }

    /** The port of the cluster's REST endpoint on 127.0.0.1. */
    public int restPort() {
        return restPort;
    }

    public boolean isUp() {
        if (!jobManager.isAlive() || !taskManager.isAlive()) {
            return false;
        }
        try {
            return get("/overview").path("taskmanagers").asInt() == 1;
        } catch (IOException e) {
            return false;
        }
    }

    private void awaitTaskManager(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            assertThat(jobManager.isAlive()).as("the JobManager runs (%s)", dir).isTrue();
            assertThat(taskManager.isAlive())
                    .as("the TaskManager runs (%s)", dir)
                    .isTrue();
            if (isUp()) {
                return;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("no TaskManager registered within " + timeout + "; see " + dir);
    }

    /** Uploads a jar through {@code POST /jars/upload}, as the web UI does; returns its id. */
    public String uploadJar(Path jar) throws IOException, InterruptedException {
        String boundary = "----strata" + UUID.randomUUID();
        byte[] head = ("--" + boundary + "\r\nContent-Disposition: form-data; name=\"jarfile\"; filename=\""
                        + jar.getFileName() + "\"\r\nContent-Type: application/x-java-archive\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8);
        byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(uri("/jars/upload"))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.concat(
                        HttpRequest.BodyPublishers.ofByteArray(head),
                        HttpRequest.BodyPublishers.ofFile(jar),
                        HttpRequest.BodyPublishers.ofByteArray(tail)))
                .timeout(Duration.ofMinutes(2))
                .build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        String file = JSON.readTree(response.body()).path("filename").asText();
        return file.substring(file.lastIndexOf('/') + 1);
    }

    /** {@code POST /jars/<id>/run}: the status code and the body (a job id, or Flink's errors). */
    public HttpResponse<String> runJar(String jarId, String entryClass, List<String> args)
            throws IOException, InterruptedException {
        String body = JSON.writeValueAsString(Map.of("entryClass", entryClass, "programArgsList", args));
        HttpRequest request = HttpRequest.newBuilder(uri("/jars/" + jarId + "/run"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .timeout(Duration.ofMinutes(2))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** Waits for the job to reach a terminal state and returns it (FINISHED, FAILED, CANCELED). */
    public String awaitJob(String jobId, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            String state = get("/jobs/" + jobId).path("state").asText();
            if (state.equals("FINISHED") || state.equals("FAILED") || state.equals("CANCELED")) {
                return state;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("job " + jobId + " not done within " + timeout);
    }

    public JsonNode get(String path) throws IOException {
        try {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(uri(path))
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IOException("GET " + path + ": " + r.statusCode() + " " + r.body());
            }
            return JSON.readTree(r.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /** {@code DELETE path} (a jar's {@code /jars/<id>}); returns the status code. */
    public int delete(String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(uri(path))
                .DELETE()
                .timeout(Duration.ofSeconds(10))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    /** {@code PATCH /jobs/<id>?mode=cancel}; returns the status code. */
    public int cancel(String jobId) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(uri("/jobs/" + jobId + "?mode=cancel"))
                .method("PATCH", HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofSeconds(10))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + restPort + path);
    }

    /** What a TaskManager or JobManager JVM holds, after a full GC. */
    record JvmCensus(long classes, long threads, long userCodeClassLoaders, Map<String, Integer> threadNames) {
        @Override
        public String toString() {
            return "classes=" + classes + " threads=" + threads + " userCodeClassLoaders=" + userCodeClassLoaders;
        }
    }

    JvmCensus taskManagerCensus() throws IOException, InterruptedException {
        return census(taskManager.pid());
    }

    JvmCensus jobManagerCensus() throws IOException, InterruptedException {
        return census(jobManager.pid());
    }

    /**
     * A class histogram (which runs a full GC first, unloading what is unreachable), then the JVM's
     * counters: loaded minus unloaded classes, live threads, and Flink user-code class loaders.
     */
    private static JvmCensus census(long pid) throws IOException, InterruptedException {
        String histogram = jcmd(pid, "GC.class_histogram");
        long loaders = 0;
        Matcher m = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+\\d+\\s+(\\S+)", Pattern.MULTILINE)
                .matcher(histogram);
        while (m.find()) {
            if (m.group(2).equals("org.apache.flink.util.ChildFirstClassLoader")
                    || m.group(2).equals("org.apache.flink.util.FlinkUserCodeClassLoaders$ParentFirstClassLoader")) {
                loaders += Long.parseLong(m.group(1));
            }
        }
        String counters = jcmd(pid, "PerfCounter.print");
        Map<String, Integer> names = new TreeMap<>();
        Matcher t = Pattern.compile("^\"([^\"]*)\"", Pattern.MULTILINE).matcher(jcmd(pid, "Thread.print"));
        while (t.find()) {
            names.merge(t.group(1).replaceAll("\\d+", "#"), 1, Integer::sum);
        }
        return new JvmCensus(
                counter(counters, "java.cls.loadedClasses") - counter(counters, "java.cls.unloadedClasses"),
                counter(counters, "java.threads.live"),
                loaders,
                names);
    }

    private static long counter(String counters, String name) {
        Matcher m = Pattern.compile("^" + Pattern.quote(name) + "=(\\d+)", Pattern.MULTILINE)
                .matcher(counters);
        assertThat(m.find()).as("counter %s in jcmd PerfCounter.print", name).isTrue();
        return Long.parseLong(m.group(1));
    }

    private static String jcmd(long pid, String command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(System.getProperty("java.home") + "/bin/jcmd", String.valueOf(pid), command)
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("jcmd %s", command).isTrue();
        assertThat(p.exitValue()).as("jcmd %s: %s", command, out).isZero();
        return out;
    }

    private static String java() {
        return System.getProperty("java.home") + "/bin/java";
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
        for (Process p : new Process[] {taskManager, jobManager}) {
            if (p != null) {
                p.destroy();
                try {
                    if (!p.waitFor(20, TimeUnit.SECONDS)) {
                        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    p.destroyForcibly();
                }
            }
        }
    }

    /** The log of a cluster process, for assertion messages. */
    public String tail(String name) {
        try {
            List<String> lines = Files.readAllLines(log(name));
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
