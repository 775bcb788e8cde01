package io.strata.cli;

import io.strata.cli.workload.ExpectedTable;
import io.strata.cli.workload.StandardWorkload;
import io.strata.cli.workload.TableChecksum;
import io.strata.cli.workload.WorkloadCheck;
import io.strata.cli.workload.WorkloadIngest;
import io.strata.compaction.CompactionJob;
import io.strata.scheduler.SchedulerService;
import io.strata.scheduler.config.ConfigLoader;
import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.history.Run;
import io.strata.scheduler.history.RunOutcome;
import io.strata.storage.data.GenericRow;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.system.BucketsTable;
import io.strata.storage.util.CloseableIterator;
import java.io.File;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code strata demo}: the end-to-end path on a fresh local warehouse: ingest the standard
 * workload with a write-only writer, show the LSM shape of every bucket, and verify
 * {@code live_rows} and {@code checksum} by merge-on-read against WORKLOAD.md; then run the
 * dedicated compaction job on an embedded Flink, show the buckets and the changelog it produced, and
 * verify again.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = "Ingest the standard workload write-only into a fresh local warehouse, show its buckets, "
                + "run the dedicated compaction job (embedded Flink) with lookup changelog, and verify the scan "
                + "against WORKLOAD.md before and after.")
final class DemoCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(
            names = "--warehouse",
            defaultValue = "./demo-warehouse",
            paramLabel = "DIR",
            description = "Parent directory; each run creates a fresh warehouse inside it (default ${DEFAULT-VALUE}).")
    String parent;

    @Option(
            names = "--large",
            description =
                    "The first workload of WORKLOAD.md (10 x 200,000 rows) instead of the " + "second (5 x 20,000).")
    boolean large;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        String warehouse = new File(
                        parent, "run-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS")))
                .toPath()
                .toAbsolutePath()
                .normalize()
                .toString();
        StandardWorkload workload = large ? StandardWorkload.large() : StandardWorkload.small();
        out.println("== Strata demo: warehouse " + warehouse);
        out.println("== 1. ingest " + workload + " with a write-only writer (one snapshot per commit), "
                + "changelog-producer lookup");
        out.flush();
        FileStoreTable table = WorkloadIngest.openOrCreate(
                Catalog.open(warehouse),
                "demo",
                "workload",
                4,
                Map.of("write-only", "true", "changelog-producer", "lookup"));
        ExpectedTable expected = new ExpectedTable(workload.keySpace());
        Progress progress = new Progress(spec.commandLine().getErr(), "commit", workload.commits());
        long start = System.nanoTime();
        long rows = WorkloadIngest.write(
                table,
                workload,
                expected::apply,
                c -> progress.update(c + 1, (long) (c + 1) * workload.rowsPerCommit()));
        progress.done();
        double ingestSeconds = (System.nanoTime() - start) / 1e9;
        out.printf("   %,d rows in %.1f s (%,.0f rows/s)%n", rows, ingestSeconds, rows / ingestSeconds);
        out.println("== 2. buckets: every commit left one level-0 sorted run per bucket");
        BucketsCommand.printTable(out, BucketsTable.rows(table, null));
        out.println("== 3. merge-on-read scan of the latest snapshot");
        start = System.nanoTime();
        WorkloadCheck actual = TableChecksum.of(table.newReadBuilder());
        double scanSeconds = (System.nanoTime() - start) / 1e9;
        WorkloadCheck want = expected.check();
        out.printf("   live_rows=%d checksum=%d (%.1f s)%n", actual.liveRows(), actual.checksum(), scanSeconds);
        out.printf("   expected  live_rows=%d checksum=%d%n", want.liveRows(), want.checksum());
        boolean ok = actual.equals(want);

        out.println("== 4. the dedicated compaction job on an embedded Flink (local MiniCluster), decoupled from "
                + "ingestion: batch, minor strategy, which is lookup compaction for a lookup-changelog table");
        out.flush();
        CompactionJob.Args args = new CompactionJob.Args();
        args.warehouse = warehouse;
        args.tables = List.of("demo.workload");
        args.strategy = "minor";
        args.mode = "batch";
        args.parallelism = 2;
        args.discoveryInterval = "10 s";
        args.checkpointInterval = "10 s";
        args.tableOptions = List.of();
        EmbeddedCompaction.Summary summary =
                EmbeddedCompaction.run(args.toSpec(), 4, out, spec.commandLine().getErr());
        out.println("== 5. buckets after the job");
        BucketsCommand.printTable(out, BucketsTable.rows(table, null));
        long[] kinds = new long[4];
        long latest = table.snapshotManager().latestId().orElse(0);
        try (CloseableIterator<GenericRow> it = table.newIncrementalRead().read(0, latest)) {
            while (it.hasNext()) {
                kinds[it.next().kind().toByteValue()]++;
            }
        }
        out.println("== 6. changelog produced by the job (write-only writers produce none), and the scan again");
        out.printf("   changelog: +I=%d -U=%d +U=%d -D=%d%n", kinds[0], kinds[1], kinds[2], kinds[3]);
        WorkloadCheck afterCompaction = TableChecksum.of(table.newReadBuilder());
        out.printf(
                "   after compaction live_rows=%d checksum=%d%n",
                afterCompaction.liveRows(), afterCompaction.checksum());
        ok &= afterCompaction.equals(want) && kinds[0] - kinds[3] == want.liveRows() && summary.buckets.size() == 4;
        ok &= schedulerRun(out, warehouse, table, expected, workload.keySpace());
        out.println("== result: "
                + (ok
                        ? "OK, the table holds exactly the workload's last writes, before and after "
                                + "compaction, the changelog adds up, and the scheduler kept it healthy"
                        : "MISMATCH: the table does not match the workload"));
        out.flush();
        return ok ? 0 : 2;
    }

    /**
     * Step 7: the scheduler service on this warehouse for a few seconds. More write-only commits
     * pile sorted runs up; its backlog poll compacts them (on its own embedded Flink) and its
     * expiration drops old snapshots, each under a lease and recorded in the run history.
     */
    private boolean schedulerRun(
            PrintWriter out, String warehouse, FileStoreTable table, ExpectedTable expected, long keySpace)
            throws Exception {
        StandardWorkload more = new StandardWorkload(MORE_COMMITS, 2_000, keySpace, 0.05, 43);
        out.println("== 7. the scheduler service (Quartz, its job store an H2 file under the warehouse): "
                + MORE_COMMITS + " more write-only commits; its backlog poll (every 2 s, max-sorted-runs 4) "
                + "compacts them, its expiration (every 5 s, retain-max 5) expires old snapshots");
        WorkloadIngest.write(table, more, expected::apply, c -> {});
        long snapshotsBefore = table.snapshotManager().latestId().orElse(0)
                - table.snapshotManager().earliestId().orElse(0)
                + 1;
        out.printf(
                "   before: %d snapshots retained, at most %d sorted runs in a bucket%n",
                snapshotsBefore, maxSortedRuns(table));
        out.flush();
        SchedulerConfig config = ConfigLoader.parse(
                "demo-scheduler.yaml",
                "warehouse: " + warehouse + "\n"
                        + "tables:\n  names: [demo.workload]\n"
                        + "shutdown-timeout: 30s\n"
                        + "defaults:\n"
                        + "  expiration:\n    cron: \"0/5 * * * * ?\"\n    retain-min: 1\n    retain-max: 5\n"
                        + "  backlog-compaction:\n    poll-interval: 2s\n    max-sorted-runs: 4\n"
                        + "    max-level0-files: 100\n"
                        + "  compaction:\n    parallelism: 2\n");
        List<Run> runs;
        long deadline = System.nanoTime() + SCHEDULER_RUN_LIMIT.toNanos();
        try (SchedulerService service = SchedulerService.start(config)) {
            while (true) {
                runs = service.database().history().recent(Optional.empty(), 20);
                if (succeeded(runs, "backlog-compaction") && succeeded(runs, "expiration")) {
                    break;
                }
                if (System.nanoTime() > deadline) {
                    out.println("   the scheduler did not both compact and expire within " + SCHEDULER_RUN_LIMIT);
                    break;
                }
                Thread.sleep(500);
            }
        }
        SchedulerStateCommands.printRuns(out, runs);
        long snapshotsAfter = table.snapshotManager().latestId().orElse(0)
                - table.snapshotManager().earliestId().orElse(0)
                + 1;
        WorkloadCheck want = expected.check();
        WorkloadCheck after = TableChecksum.of(table.newReadBuilder());
        out.printf(
                "   after: %d snapshots retained, at most %d sorted runs in a bucket%n",
                snapshotsAfter, maxSortedRuns(table));
        out.printf(
                "   live_rows=%d checksum=%d, expected live_rows=%d checksum=%d%n",
                after.liveRows(), after.checksum(), want.liveRows(), want.checksum());
        return after.equals(want)
                && succeeded(runs, "backlog-compaction")
                && succeeded(runs, "expiration")
                && snapshotsAfter < snapshotsBefore;
    }

    private static final int MORE_COMMITS = 6;
    private static final Duration SCHEDULER_RUN_LIMIT = Duration.ofSeconds(90);

    private static boolean succeeded(List<Run> runs, String operation) {
        return runs.stream().anyMatch(r -> r.operation().equals(operation) && r.outcome() == RunOutcome.SUCCEEDED);
    }

    private static int maxSortedRuns(FileStoreTable table) {
        return BucketsTable.rows(table, null).stream()
                .mapToInt(r -> r.sortedRuns)
                .max()
                .orElse(0);
    }
}
