package io.strata.cli;

import io.strata.storage.maintenance.OrphanCleanResult;
import io.strata.storage.maintenance.OrphanFilesClean;
import io.strata.storage.maintenance.TableFile;
import io.strata.storage.options.DurationParser;
import io.strata.storage.options.ExpireOptions;
import io.strata.storage.table.FileStoreTable;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code strata orphan-clean}: deletes files under the table directory that nothing references. */
@Command(
        name = "orphan-clean",
        mixinStandardHelpOptions = true,
        description = "Delete files under the table directory that no retained snapshot references and that are "
                + "older than --older-than (data, changelog, manifests, manifest lists, temporaries).")
final class OrphanCleanCommand implements Callable<Integer> {
    @Mixin
    WarehouseOptions target;

    @Mixin
    MaintenanceJobOptions jobOptions;

    @Spec
    CommandSpec spec;

    @Option(
            names = "--older-than",
            paramLabel = "DURATION",
            defaultValue = "1d",
            description = "Only files older than this go (default ${DEFAULT-VALUE}; under 1 h needs --allow-recent).")
    String olderThan;

    @Option(
            names = "--allow-recent",
            description = "Accept --older-than under 1 hour: only when no writer, commit or compaction runs on the "
                    + "table, whose files in flight would otherwise go.")
    boolean allowRecent;

    @Option(
            names = "--max-deletes-per-second",
            paramLabel = "N",
            description = "Delete at most N files a second (maintenance.deletes-per-second).")
    Integer deletesPerSecond;

    @Option(names = "--dry-run", description = "List what would be deleted; delete nothing.")
    boolean dryRun;

    @Option(names = "--json", description = "Print JSON, with every file.")
    boolean json;

    @Override
    public Integer call() {
        Duration age;
        try {
            age = DurationParser.parse(olderThan);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--older-than: " + e.getMessage(), e);
        }
        RunFlags flags =
                new RunFlags().put("--max-deletes-per-second", ExpireOptions.DELETES_PER_SECOND, deletesPerSecond);
        Map<String, String> run = flags.options();
        FileStoreTable table = flags.open(target.openTable());
        OrphanFilesClean clean = allowRecent
                ? OrphanFilesClean.olderThanAllowingRecent(table.context(), age)
                : table.newOrphanFilesClean(age);
        jobOptions.job(target, run).ifPresent(job -> clean.runningWith(job, job));
        OrphanCleanResult r = dryRun ? clean.dryRun() : clean.clean();
        PrintWriter out = spec.commandLine().getOut();
        List<TableFile> files = dryRun ? r.orphans() : r.deleted();
        if (json) {
            List<Map<String, Object>> list = new ArrayList<>();
            for (TableFile f : files) {
                list.add(Json.object("kind", f.kind().name().toLowerCase(), "path", f.path(), "bytes", f.size()));
            }
            Json.print(
                    out,
                    Json.object(
                            "dryRun", r.dryRun(),
                            "scanned", r.scanned(),
                            "youngerThanThreshold", r.youngSkipped(),
                            "bytes", r.bytes(),
                            "refused", r.refused(),
                            "files", list));
            return 0;
        }
        out.println((dryRun ? "would delete " : "deleted ") + files.size() + " files (" + r.bytes() + " bytes) of "
                + r.scanned() + " listed; " + r.youngSkipped() + " younger than " + olderThan + " kept");
        TextTable t = new TextTable("kind", dryRun ? "files_to_delete" : "files_deleted");
        r.counts().forEach((k, n) -> t.add(k.name().toLowerCase(), n));
        t.print(out);
        for (String refused : r.refused()) {
            out.println("refused: " + refused);
        }
        return 0;
    }
}
