package io.strata.compaction.crash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.GenericRow;
import io.strata.storage.maintenance.OrphanFilesClean;
import io.strata.storage.maintenance.TableFiles;
import io.strata.storage.options.ChangelogOptions;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.testutil.ChangelogReplay;
import io.strata.storage.testutil.MiniHdfs;
import io.strata.storage.testutil.S3Warehouse;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TestTables;
import io.strata.storage.util.CloseableIterator;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Crash points: the compaction job (batch and streaming, every changelog producer), the writer,
 * snapshot expiration and orphan cleanup, each in its own JVM, killed with SIGKILL at seeded random
 * times after start-up; after every kill, {@link CrashModel#check}: every retained snapshot reads
 * and holds the model, the writer's commits are exactly once, no referenced file is missing. Each
 * test ends with uncrashed runs and then requires the changelog replay to equal the scan and
 * orphan cleanup to leave exactly the referenced files (what the crashes left was unreferenced).
 *
 * <p>The job and the writer run on local disk, on HDFS (a MiniDFSCluster) and on S3A against s3proxy
 * (with a JDBC commit lock shared by the processes), expiration and orphan cleanup on local disk.
 * {@code strata.crash.runs} kills per test on local disk, a fifth of that elsewhere (3 and none by default, 10 and 2 in the soak profile; {@code bin/crash-harness 100} for
 * the figures in docs/RELIABILITY.md, "Crash points"); {@code strata.crash.seed} fixes the seed
 * (printed, with the phase each kill interrupted).
 */
class CrashPointsTest {
    private static final int RUNS = Integer.getInteger("strata.crash.runs", 3);
    private static final long SEED = Long.getLong("strata.crash.seed", 20261204L);
    /**
     * Kills per test on HDFS and on the S3-compatible server: the commit and compaction paths of
     * those stores. None by default (those servers make a kill ten times as slow as on local disk;
     * the soak profile and bin/crash-harness run them).
     */
    private static final int REMOTE_RUNS = RUNS / 5;

    private static MiniDFSCluster hdfs;
    private static S3Warehouse s3;

    @TempDir
    Path dir;

    private record Scenario(String producer, String mode, String strategy) {
        String table() {
            return producer.replace("-", "_") + "_" + mode + "_" + strategy;
        }
    }

    private static final List<Scenario> JOB_SCENARIOS = List.of(
            new Scenario("lookup", "streaming", "minor"),
            new Scenario("full-compaction", "batch", "full"),
            new Scenario("none", "batch", "minor"),
            new Scenario("input", "streaming", "minor"),
            new Scenario("lookup", "batch", "full"));

    private final Map<String, Integer> phases = new TreeMap<>();
    private int killed;
    private int finished;
    /** The file system of the running test: "local", "hdfs" or "s3". */
    private String fs = "local";

    @AfterAll
    static void stopServers() {
        if (hdfs != null) {
            hdfs.shutdown(true);
        }
        if (s3 != null) {
            s3.close();
        }
    }

    private static int runs(String fs) {
        return fs.equals("local") ? RUNS : REMOTE_RUNS;
    }

    /** A new warehouse on {@code fs}; HDFS (a MiniDFSCluster) and s3proxy start once for the class. */
    private String warehouse(String fs) throws Exception {
        this.fs = fs;
        String name = "wh-" + UUID.randomUUID();
        switch (fs) {
            case "local":
                return dir.resolve(name).toString();
            case "hdfs":
                if (hdfs == null) {
                    hdfs = MiniHdfs.start("crash-minidfs");
                }
                return MiniHdfs.uri(hdfs, name);
            case "s3":
                if (s3 == null) {
                    s3 = S3Warehouse.start("crash-s3");
                    s3.installAsDefault();
                }
                return s3.uri(name);
            default:
                throw new IllegalArgumentException(fs);
        }
    }

    /**
     * The child JVM's settings: on S3 the server's address; s3proxy ignores conditional create, so
     * S3 tables commit under a JDBC lock the processes share (an H2 database file in server mode).
     */
    private List<String> jvmArgs() {
        String scratch = "-Dstrata.crash.scratch=" + dir.toAbsolutePath();
        if (!fs.equals("s3")) {
            return List.of(scratch);
        }
        List<String> args = new ArrayList<>(List.of(scratch));
        args.addAll(s3.defaultJvmArgs());
        return args;
    }

    private Map<String, String> storeOptions() {
        return fs.equals("s3") ? s3.commitLockOptions() : Map.of();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "hdfs", "s3"})
    void theCompactionJobKilledAtRandomPointsLosesAndDuplicatesNothing(String fs) throws Exception {
        assumeTrue(runs(fs) > 0, "no kills on " + fs + " below -Dstrata.crash.runs=5 (the soak profile)");
        String wh = warehouse(fs);
        Random rnd = new Random(SEED);
        Map<String, FileStoreTable> tables = new HashMap<>();
        for (int run = 0; run < runs(fs); run++) {
            Scenario s = JOB_SCENARIOS.get(run % JOB_SCENARIOS.size());
            FileStoreTable t = tables.computeIfAbsent(s.table(), n -> create(wh, n, s.producer()));
            long last = CrashModel.lastCommitted(t);
            CrashChild.write(reopen(t), last + 3, false); // not killed here: in this JVM
            // a batch job reports about 12 steps (plan, 4 rewrites, their events, the commit), a streaming
            // one more; none at all means while the MiniCluster starts and the first plan is made
            int steps = rnd.nextInt(s.mode().equals("batch") ? 13 : 20);
            CrashProcess.KillPoint kill = new CrashProcess.KillPoint(steps, rnd.nextInt(steps == 0 ? 8_000 : 300));
            CrashProcess.Outcome o = child(run, kill, "compact", wh, s.table(), s.strategy(), s.mode());
            CrashModel.check(reopen(t), where(run, s.table(), kill, o));
        }
        for (Scenario s : JOB_SCENARIOS) {
            FileStoreTable t = tables.get(s.table());
            if (t != null) {
                child(runs(fs), CrashProcess.KillPoint.NEVER, "compact", wh, s.table(), "full", "batch");
                finish(reopen(t), s.table());
            }
        }
        report("compaction job on " + fs, 3);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "hdfs", "s3"})
    void theWriterKilledAtRandomPointsCommitsEachCommitExactlyOnce(String fs) throws Exception {
        assumeTrue(runs(fs) > 0, "no kills on " + fs + " below -Dstrata.crash.runs=5 (the soak profile)");
        String wh = warehouse(fs);
        Random rnd = new Random(SEED + 1);
        FileStoreTable t = create(wh, "written", "input");
        long target = 0;
        for (int run = 0; run < runs(fs); run++) {
            target += 6;
            // about 4 steps per commit (writing, committing, the snapshot, committed)
            CrashProcess.KillPoint kill = new CrashProcess.KillPoint(rnd.nextInt(24), rnd.nextInt(120));
            CrashProcess.Outcome o = child(run, kill, "write", wh, "written", String.valueOf(target));
            CrashModel.check(reopen(t), where(run, "written", kill, o));
            if (run % 5 == 4) {
                child(run, CrashProcess.KillPoint.NEVER, "compact", wh, "written", "minor", "batch");
            }
        }
        child(runs(fs), CrashProcess.KillPoint.NEVER, "write", wh, "written", String.valueOf(target));
        assertThat(CrashModel.lastCommitted(reopen(t)))
                .as("the restarted writer caught up")
                .isEqualTo(target);
        child(runs(fs), CrashProcess.KillPoint.NEVER, "compact", wh, "written", "full", "batch");
        finish(reopen(t), "written");
        report("writer on " + fs, 3);
    }

    @Test
    void expirationAndOrphanCleanupKilledAtRandomPointsLoseNoLiveFile() throws Exception {
        String wh = warehouse("local");
        Random rnd = new Random(SEED + 2);
        FileStoreTable t = create(wh, "maintained", "lookup");
        CrashChild.write(reopen(t), 12, false); // the writer and the compactions are not killed here: in this JVM
        for (int run = 0; run < RUNS; run++) {
            long last = CrashModel.lastCommitted(reopen(t));
            CrashChild.write(reopen(t), last + 4, false);
            if (run % 3 == 0) {
                reopen(t)
                        .copyWithOptions(Map.of("write-only", "false"))
                        .newCompactor()
                        .compact(CompactStrategy.MINOR, "compactor", run + 1);
            }
            String role = run % 2 == 0 ? "expire" : "orphans";
            CrashProcess.KillPoint kill = new CrashProcess.KillPoint(rnd.nextInt(2), rnd.nextInt(600));
            CrashProcess.Outcome o = child(run, kill, role, wh, "maintained");
            CrashModel.check(reopen(t), where(run, "maintained " + role, kill, o));
        }
        child(RUNS, CrashProcess.KillPoint.NEVER, "expire", wh, "maintained");
        child(RUNS, CrashProcess.KillPoint.NEVER, "compact", wh, "maintained", "full", "batch");
        finish(reopen(t), "maintained");
        report("expiration and orphan cleanup", 2);
    }

    private FileStoreTable create(String wh, String name, String producer) {
        Map<String, String> o = new HashMap<>(storeOptions());
        o.put("write-only", "true");
        o.put("changelog-producer", producer);
        o.put("num-sorted-run.compaction-trigger", "3");
        o.put("manifest.merge-min-count", "3");
        return Catalog.open(wh).createTable("db", name, TestTables.modelSchema(true, 2, o));
    }

    /** A fresh handle, as a new process would open it (nothing cached from before the kill). */
    private static FileStoreTable reopen(FileStoreTable t) {
        return Catalog.open(t.paths().root().getParent().getParent().toString())
                .getTable("db", t.paths().root().getName());
    }

    private CrashProcess.Outcome child(int run, CrashProcess.KillPoint kill, String... args) throws Exception {
        File log = dir.resolve(
                        "run-" + run + "-" + String.join("-", args[0], args[2]) + "-" + System.nanoTime() + ".log")
                .toFile();
        CrashProcess.Outcome o = CrashProcess.run(log, kill, 300, jvmArgs(), List.of(args));
        if (Boolean.getBoolean("strata.crash.verbose")) {
            System.out.println("run " + run + " " + List.of(args) + " kill " + kill + ":\n"
                    + o.log()
                            .lines()
                            .filter(l -> l.startsWith("STEP"))
                            .collect(java.util.stream.Collectors.joining("\n")));
        }
        if (kill != CrashProcess.KillPoint.NEVER) {
            if (o.killed()) {
                killed++;
                phases.merge(args[0] + ": " + phase(o.lastStep()), 1, Integer::sum);
            } else {
                finished++;
            }
        }
        return o;
    }

    /** The phase a step line stands for: what the child had done last when it was killed. */
    static String phase(String step) {
        if (step.startsWith("PlanEnumerator: planned")) {
            return "planned, rewriting";
        } else if (step.startsWith("RewriteOperator:")) {
            return "a bucket rewritten";
        } else if (step.startsWith("TableCommit:") && step.contains(" committed in ")) {
            return "snapshot published, not acknowledged";
        } else if (step.startsWith("CommitOperator: table")) {
            return "commit acknowledged";
        } else if (step.startsWith("REWRITTEN")) {
            return "a bucket rewritten";
        } else if (step.startsWith("COMMITTED")) {
            return "commit acknowledged";
        } else if (step.equals("READY")) {
            return "starting, planning";
        } else if (step.equals("DONE")) {
            return "done, exiting";
        }
        return step.replaceAll(" [0-9].*", ""); // the writer's steps: "writing 12" is "writing"
    }

    private static String where(int run, String table, CrashProcess.KillPoint kill, CrashProcess.Outcome o) {
        return "seed " + SEED + ", run " + run + ", table " + table + ", "
                + (o.killed() ? "killed " + kill + " at '" + o.lastStep() + "'" : "finished before " + kill)
                + "\nchild log:\n" + tail(o.log());
    }

    private static String tail(String log) {
        String[] lines = log.split("\n");
        return String.join("\n", java.util.Arrays.asList(lines).subList(Math.max(0, lines.length - 30), lines.length));
    }

    /**
     * After the crashes and an uncrashed full compaction: the checks, the changelog replay, and
     * orphan cleanup (nothing runs now, so no threshold is needed) leaving exactly the referenced
     * files, after which every snapshot still reads.
     */
    private static void finish(FileStoreTable t, String table) throws InterruptedException {
        long last = CrashModel.check(t, table + " after the crashes");
        assertThat(TableModel.toContents(TestTables.scan(t)))
                .as("%s: the final scan", table)
                .isEqualTo(CrashModel.contentsAfter(last));
        ChangelogOptions.Producer producer = t.schema().tableOptions().get(ChangelogOptions.CHANGELOG_PRODUCER);
        if (t.snapshotManager().earliestId().getAsLong() == 1) {
            if (producer == ChangelogOptions.Producer.INPUT) {
                // the input changelog is the writer's input as given, each commit's rows once
                assertThat(changes(t)).as("%s: the input changelog", table).isEqualTo(inputOf(last));
            } else if (producer != ChangelogOptions.Producer.NONE) {
                assertThat(ChangelogReplay.replay(t))
                        .as("%s: the changelog replay", table)
                        .isEqualTo(TableModel.toContents(TestTables.scan(t)));
            }
        }
        Thread.sleep(1_500); // past the killed writers' heartbeat timeout (CrashModel.SHORT_HEARTBEAT)
        OrphanFilesClean.olderThanAllowingRecent(
                        t.copyWithOptions(CrashModel.SHORT_HEARTBEAT).context(), Duration.ZERO)
                .clean();
        assertThat(TableFiles.onDisk(t))
                .as("%s: after orphan cleanup only referenced files are left", table)
                .isEqualTo(TableFiles.referenced(t));
        CrashModel.check(t, table + " after orphan cleanup");
    }

    /** Every change of the table's changelog, as "kind fields", sorted (a multiset). */
    private static List<String> changes(FileStoreTable t) {
        List<String> out = new java.util.ArrayList<>();
        try (CloseableIterator<GenericRow> it =
                t.newIncrementalRead().read(0, t.snapshotManager().latestId().getAsLong())) {
            it.forEachRemaining(r -> out.add(r.kind() + " " + java.util.Arrays.asList(r.fields())));
        }
        java.util.Collections.sort(out);
        return out;
    }

    private static List<String> inputOf(long lastIdentifier) {
        List<String> out = new java.util.ArrayList<>();
        for (long id = 1; id <= lastIdentifier; id++) {
            CrashModel.rows(id).forEach(r -> out.add(r.kind() + " " + java.util.Arrays.asList(r.fields())));
        }
        java.util.Collections.sort(out);
        return out;
    }

    private void report(String what, int minPhases) {
        System.out.printf(
                "crash points (%s, seed %d): %d killed, %d finished before the kill; phases %s%n",
                what, SEED, killed, finished, phases);
        assertThat(killed).as("%s: runs killed before they finished", what).isPositive();
        if (runs(fs) >= 20) {
            assertThat(phases.size())
                    .as("%s: kills spread over the phases %s", what, phases)
                    .isGreaterThanOrEqualTo(minPhases);
        }
    }
}
