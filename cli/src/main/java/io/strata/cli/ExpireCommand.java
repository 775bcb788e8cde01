package io.strata.cli;

import io.strata.storage.maintenance.ExpirePlan;
import io.strata.storage.maintenance.ExpireResult;
import io.strata.storage.maintenance.SnapshotExpiration;
import io.strata.storage.maintenance.TableFile;
import io.strata.storage.options.ExpireOptions;
import io.strata.storage.table.FileStoreTable;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code strata expire}: expires the table's oldest snapshots by its retention options, which the
 * flags override for this run, and deletes the files only they referenced.
 */
@Command(
        name = "expire",
        mixinStandardHelpOptions = true,
        description = "Expire old snapshots (metadata first) and delete the files only they referenced. "
                + "Defaults are the table's snapshot.* options.")
final class ExpireCommand implements Callable<Integer> {
    @Mixin
    WarehouseOptions target;

    @Mixin
    MaintenanceJobOptions jobOptions;

    @Spec
    CommandSpec spec;

    @Option(
            names = "--retain-min",
            paramLabel = "N",
            description = "Snapshots always kept (snapshot.num-retained.min).")
    Integer retainMin;

    @Option(
            names = "--retain-max",
            paramLabel = "N",
            description = "Snapshots kept at most (snapshot.num-retained.max).")
    Integer retainMax;

    @Option(
            names = "--older-than",
            paramLabel = "DURATION",
            description = "Expire snapshots older than this, e.g. 2h or 7d (snapshot.time-retained).")
    String olderThan;

    @Option(
            names = "--max-deletes",
            paramLabel = "N",
            description = "Snapshots this run expires at most (snapshot.expire.limit).")
    Integer maxDeletes;

    @Option(
            names = "--max-deletes-per-second",
            paramLabel = "N",
            description = "Delete at most N files a second (maintenance.deletes-per-second).")
    Integer deletesPerSecond;

    @Option(names = "--dry-run", description = "Print what would be expired and deleted; change nothing.")
    boolean dryRun;

    @Option(names = "--json", description = "Print JSON, with every file.")
    boolean json;

    @Override
    public Integer call() {
        RunFlags flags = new RunFlags()
                .put("--retain-min", ExpireOptions.NUM_RETAINED_MIN, retainMin)
                .put("--retain-max", ExpireOptions.NUM_RETAINED_MAX, retainMax)
                .put("--older-than", ExpireOptions.TIME_RETAINED, olderThan)
                .put("--max-deletes", ExpireOptions.EXPIRE_LIMIT, maxDeletes)
                .put("--max-deletes-per-second", ExpireOptions.DELETES_PER_SECOND, deletesPerSecond);
        Map<String, String> run = flags.options();
        FileStoreTable table = flags.open(target.openTable());
        SnapshotExpiration expiration = table.newSnapshotExpiration();
        jobOptions.job(target, run).ifPresent(expiration::deletingWith);
        ExpireResult r = dryRun ? expiration.dryRun() : expiration.expire();
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            printJson(out, r);
        } else {
            printTable(out, r);
        }
        return 0;
    }

    /** The files a dry run would delete, or those a run deleted. */
    private static List<TableFile> files(ExpireResult r) {
        if (!r.dryRun()) {
            return r.deleted();
        }
        List<TableFile> planned = new ArrayList<>(r.plan().files());
        planned.addAll(r.changelogFiles());
        return planned;
    }

    static void printJson(PrintWriter out, ExpireResult r) {
        ExpirePlan p = r.plan();
        List<Map<String, Object>> files = new ArrayList<>();
        for (TableFile f : files(r)) {
            files.add(Json.object("kind", f.kind().name().toLowerCase(), "path", f.path(), "bytes", f.size()));
        }
        Json.print(
                out,
                Json.object(
                        "dryRun", r.dryRun(),
                        "snapshotsExpired", p.snapshotsExpired(),
                        "fromSnapshot", p.fromId(),
                        "earliestRetained", p.toId(),
                        "latest", p.latestId(),
                        "heldBackBy", p.heldBackBy().name().toLowerCase(),
                        "heldBackDetail", p.heldBackDetail(),
                        "changelogKeptFrom", p.changelogKeptFrom(),
                        "changelogsKept", p.changelogsKept(),
                        "changelogsExpired", r.changelogsExpired(),
                        "resumedRuns", r.resumed(),
                        "files", files));
    }

    static void printTable(PrintWriter out, ExpireResult r) {
        ExpirePlan p = r.plan();
        String verb = r.dryRun() ? "would expire" : "expired";
        if (p.isEmpty()) {
            out.println("nothing to expire (" + p.heldBackBy().name().toLowerCase()
                    + (p.heldBackDetail().isEmpty() ? "" : ": " + p.heldBackDetail()) + ")");
        } else {
            out.println(verb + " snapshots " + p.fromId() + ".." + (p.toId() - 1) + "; earliest retained " + p.toId()
                    + " of " + p.latestId() + " (stopped by "
                    + p.heldBackBy().name().toLowerCase()
                    + (p.heldBackDetail().isEmpty() ? "" : ": " + p.heldBackDetail()) + ")");
        }
        if (p.changelogsKept() > 0) {
            out.println((r.dryRun() ? "would keep" : "kept") + " the changelog of snapshots " + p.changelogKeptFrom()
                    + ".." + (p.toId() - 1) + " (changelog retention)");
        }
        if (r.changelogsExpired() > 0) {
            out.println(
                    verb + " the kept changelog of snapshots " + r.changelogFromId() + ".." + (r.changelogToId() - 1));
        }
        if (r.resumed() > 0) {
            out.println("finished " + r.resumed() + " interrupted earlier run(s)");
        }
        Map<TableFile.Kind, long[]> byKind = new LinkedHashMap<>();
        for (TableFile.Kind k : TableFile.Kind.values()) {
            byKind.put(k, new long[2]);
        }
        for (TableFile f : files(r)) {
            long[] c = byKind.get(f.kind());
            c[0]++;
            c[1] += Math.max(0, f.size());
        }
        TextTable t = new TextTable("kind", r.dryRun() ? "files_to_delete" : "files_deleted", "bytes");
        byKind.forEach((k, c) -> t.add(k.name().toLowerCase(), c[0], c[1]));
        t.print(out);
    }
}
