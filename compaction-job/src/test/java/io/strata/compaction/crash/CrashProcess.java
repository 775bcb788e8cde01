package io.strata.compaction.crash;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One {@link CrashChild} in its own JVM on this JVM's class path, killed with SIGKILL ({@link
 * Process#destroyForcibly} on Linux) at a {@link KillPoint}, or left to finish.
 */
final class CrashProcess {
    /** How a run ended and the last step the child reported before that. */
    record Outcome(boolean killed, String lastStep, String log) {}

    /**
     * Kill once the child has reported {@code steps} steps after {@code READY}, {@code delayMillis}
     * later: counting steps instead of time puts the kills in every phase, however long the JVM and
     * the embedded Flink take to start on a loaded machine.
     */
    record KillPoint(int steps, long delayMillis) {
        static final KillPoint NEVER = new KillPoint(-1, -1);

        @Override
        public String toString() {
            return steps < 0 ? "never" : "after " + steps + " steps + " + delayMillis + " ms";
        }
    }

    /** A child that reports no step for this long is killed where it is, its kill point unreached. */
    private static final long IDLE_SECONDS = 15;

    private CrashProcess() {}

    /**
     * @param jvmArgs system properties for the child ({@code -Dk=v})
     * @param kill where the child is killed; {@link KillPoint#NEVER} lets it finish (it must then exit
     *     0 within {@code timeoutSeconds})
     */
    static Outcome run(File log, KillPoint kill, long timeoutSeconds, List<String> jvmArgs, List<String> args)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(
                new File(System.getProperty("java.home"), "bin/java").getPath(),
                "-Xmx768m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
                "-Dlog4j2.configurationFile=classpath:crash/log4j2-crash-child.xml"));
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), CrashChild.class.getName()));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(log)
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        try {
            while (!read(log).contains(" READY\n")) {
                if (!p.isAlive()) {
                    return finished(p, log, args);
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("child " + args + " not ready in " + timeoutSeconds + " s:\n" + read(log));
                }
                Thread.sleep(5);
            }
            if (kill.steps() >= 0) {
                // a streaming job goes quiet once it has compacted everything: then it is killed idle
                int seen = 0;
                long lastProgress = System.nanoTime();
                for (int n; (n = stepsAfterReady(read(log))) < kill.steps() && p.isAlive(); ) {
                    if (n > seen) {
                        seen = n;
                        lastProgress = System.nanoTime();
                    } else if (System.nanoTime() - lastProgress > TimeUnit.SECONDS.toNanos(IDLE_SECONDS)) {
                        break;
                    }
                    Thread.sleep(2);
                }
                if (!p.waitFor(kill.delayMillis(), TimeUnit.MILLISECONDS)) {
                    String before = lastStep(read(log));
                    p.destroyForcibly();
                    p.waitFor(30, TimeUnit.SECONDS);
                    return new Outcome(true, before, read(log));
                }
                return finished(p, log, args);
            }
            if (!p.waitFor(Math.max(1, (deadline - System.nanoTime()) / 1_000_000), TimeUnit.MILLISECONDS)) {
                throw new AssertionError(
                        "child " + args + " did not finish in " + timeoutSeconds + " s:\n" + read(log));
            }
            return finished(p, log, args);
        } finally {
            if (p.isAlive()) {
                p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    private static Outcome finished(Process p, File log, List<String> args) throws IOException, InterruptedException {
        p.waitFor();
        String out = read(log);
        if (p.exitValue() != 0) {
            throw new AssertionError("child " + args + " exited " + p.exitValue() + ":\n" + out);
        }
        return new Outcome(false, lastStep(out), out);
    }

    private static int stepsAfterReady(String log) {
        int n = 0;
        boolean ready = false;
        for (String line : log.split("\n")) {
            if (line.startsWith("STEP ")) {
                if (ready) {
                    n++;
                } else {
                    ready = line.endsWith(" READY");
                }
            }
        }
        return n;
    }

    /** The last {@code STEP <millis> <what>} line's {@code what}, or "starting" before any. */
    static String lastStep(String log) {
        String last = "starting";
        for (String line : log.split("\n")) {
            if (line.startsWith("STEP ")) {
                int space = line.indexOf(' ', 5);
                last = line.substring(space + 1);
            }
        }
        return last;
    }

    private static String read(File log) throws IOException {
        return log.exists() ? Files.readString(log.toPath(), StandardCharsets.UTF_8) : "";
    }
}
