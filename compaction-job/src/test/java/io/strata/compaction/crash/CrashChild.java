package io.strata.compaction.crash;

import io.strata.compaction.CompactionJob;
import io.strata.compaction.EmbeddedJobRunner;
import io.strata.compaction.job.JobSpec;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.maintenance.OrphanFilesClean;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A process {@link CrashPointsTest} kills with SIGKILL: {@code main(role, warehouse, table, ...)}.
 * It prints {@code READY} once the table is open and one {@code STEP <millis> <what>} line per step it
 * reaches (its own, and the job's and the commit's progress through the log configuration
 * {@code crash/log4j2-crash-child.xml}): the harness kills it at a number of steps, and attributes
 * each kill to the phase it interrupted.
 *
 * <ul>
 *   <li>{@code write <wh> <table> <upTo>}: the write-only writer {@value CrashModel#WRITER} commits
 *       identifiers after the last one it committed up to {@code upTo}, each with {@link
 *       CrashModel#rows} (so a restarted writer writes what a killed one would have);
 *   <li>{@code compact <wh> <table> <strategy> <mode>}: the compaction job on an embedded
 *       MiniCluster, batch to its end or streaming until killed;
 *   <li>{@code expire <wh> <table>}: snapshot expiration with {@link CrashModel#EXPIRE};
 *   <li>{@code orphans <wh> <table>}: orphan cleanup of every unreferenced file (nothing else runs).
 * </ul>
 */
public final class CrashChild {
    private CrashChild() {}

    public static void main(String[] args) throws Exception {
        if (System.getProperty("strata.test.s3a.endpoint") != null) {
            // the harness's S3-compatible server, as S3ProxyServer#installAsDefault makes it in the test JVM
            org.apache.hadoop.conf.Configuration.addDefaultResource("strata-s3a-test-site.xml");
        }
        String role = args[0];
        FileStoreTable t = Catalog.open(args[1]).getTable("db", args[2]);
        step("READY");
        switch (role) {
            case "write" -> write(t, Long.parseLong(args[3]), true);
            case "compact" -> compact(args[1], args[2], args[3], args[4]);
            case "expire" -> {
                step("expiring");
                t.copyWithOptions(CrashModel.EXPIRE).newSnapshotExpiration().expire();
            }
            case "orphans" -> {
                step("cleaning orphans");
                OrphanFilesClean.olderThanAllowingRecent(
                                t.copyWithOptions(CrashModel.SHORT_HEARTBEAT).context(), Duration.ZERO)
                        .clean();
            }
            default -> throw new IllegalArgumentException("unknown role " + role);
        }
        step("DONE");
    }

    /**
     * The writer: commits the identifiers after its last committed one up to {@code upTo}; {@code
     * report} prints its steps (in a child; the test calls it in its own JVM where it is not killed).
     */
    static void write(FileStoreTable t, long upTo, boolean report) {
        long from = CrashModel.lastCommitted(t) + 1;
        try (TableWrite w = t.newWrite(CrashModel.WRITER);
                TableCommit c = t.newCommit(CrashModel.WRITER)) {
            for (long id = from; id <= upTo; id++) {
                if (report) {
                    step("writing " + id);
                }
                CrashModel.rows(id).forEach(w::write);
                var messages = w.prepareCommit();
                if (report) {
                    step("committing " + id);
                }
                List<Long> published = c.commit(id, messages);
                if (report) {
                    step("committed " + id + " as " + published);
                }
            }
        }
    }

    private static void compact(String wh, String table, String strategy, String mode) throws Exception {
        List<String> argv = new ArrayList<>(List.of(
                "--warehouse",
                wh,
                "--database",
                "db",
                "--table",
                table,
                "--strategy",
                strategy,
                "--mode",
                mode,
                "--parallelism",
                "2",
                "--discovery-interval",
                "200 ms",
                "--checkpoint-interval",
                "400 ms"));
        JobSpec spec = picocli.CommandLine.populateCommand(new CompactionJob.Args(), argv.toArray(new String[0]))
                .toSpec();
        // in the test's local directory, removed with it (a killed child cannot clean up)
        String savepoints = Files.createTempDirectory(
                        java.nio.file.Path.of(System.getProperty("strata.crash.scratch")), "savepoints")
                .toString();
        try (EmbeddedJobRunner runner = new EmbeddedJobRunner(spec, savepoints)) {
            runner.run(e -> step(e.kind + " " + (e.bucket == null ? "" : "bucket " + e.partition + "/" + e.bucket)
                    + (e.snapshots == null ? "" : " snapshots " + e.snapshots)));
        }
    }

    static void step(String what) {
        System.out.println("STEP " + System.currentTimeMillis() + " " + what);
        System.out.flush();
    }
}
