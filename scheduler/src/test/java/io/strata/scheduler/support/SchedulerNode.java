package io.strata.scheduler.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A {@link SchedulerNodeMain} in a child JVM, as the test sees it: the lines it printed, waiting
 * for one, a graceful stop (its standard input closed) or a SIGKILL.
 */
public final class SchedulerNode implements AutoCloseable {
    private final Process process;
    private final Path log;
    private final List<String> lines = new CopyOnWriteArrayList<>();

    private SchedulerNode(Process process, Path log) {
        this.process = process;
        this.log = log;
        Thread reader = new Thread(this::read, "scheduler-node-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts a node on {@code config}; its standard error goes to {@code log}. */
    public static SchedulerNode start(Path config, Path log, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
                "-cp",
                System.getProperty("java.class.path"),
                SchedulerNodeMain.class.getName(),
                config.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectError(log.toFile()).start();
        return new SchedulerNode(p, log);
    }

    /**
     * Starts a node on {@code config} whose compactions block, has it trigger the full compaction
     * of {@code db.t}, and returns once that compaction runs: the node holds the table's lease and
     * a RUNNING run, to be killed or stopped in the middle of them.
     */
    public static SchedulerNode startCompactingAndBlocked(Path config, Path log)
            throws IOException, InterruptedException {
        SchedulerNode node = start(config, log, "blocking", "trigger:full-compaction:db.t");
        try {
            node.await("COMPACTING db.t", Duration.ofSeconds(60));
            return node;
        } catch (RuntimeException | Error | InterruptedException e) {
            node.close();
            throw e;
        }
    }

    private void read() {
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                lines.add(line);
            }
        } catch (IOException e) {
            // the process died; what it printed is kept
        }
    }

    /** The first line printed that starts with {@code prefix}, waiting up to {@code timeout} for it. */
    public String await(String prefix, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (String l : lines) {
                if (l.startsWith(prefix)) {
                    return l;
                }
            }
            if (!process.isAlive() && lines.stream().noneMatch(l -> l.startsWith(prefix))) {
                Thread.sleep(200); // let the reader drain
                for (String l : lines) {
                    if (l.startsWith(prefix)) {
                        return l;
                    }
                }
                throw new AssertionError("the node exited (" + process.exitValue() + ") without printing '" + prefix
                        + "'; its log: " + log);
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no line '" + prefix + "' within " + timeout + "; printed " + lines + "; log: " + log);
    }

    public List<String> lines() {
        return List.copyOf(lines);
    }

    /** The fires it printed. */
    public List<FireLog.Fired> fired() {
        return lines.stream()
                .filter(l -> l.startsWith(FireLog.Fired.PREFIX))
                .map(FireLog.Fired::parse)
                .toList();
    }

    /** Stops it gracefully and waits for its exit. */
    public void stop() throws Exception {
        process.getOutputStream().close();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new AssertionError("the node did not stop within 60 s; its log: " + log);
        }
        if (process.exitValue() != 0) {
            throw new AssertionError("the node exited with " + process.exitValue() + "; its log: " + log);
        }
    }

    /** SIGKILL: no shutdown hook, no release of its leases, its runs left RUNNING. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            throw new AssertionError("the node did not die within 10 s of SIGKILL");
        }
    }

    public Path log() {
        return log;
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }

    @Override
    public String toString() {
        return "SchedulerNode[pid " + process.pid() + ", log " + log + "]";
    }
}
