package io.strata.cli;

import io.strata.storage.maintenance.Rollback;
import io.strata.storage.table.FileStoreTable;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code strata rollback}: makes a snapshot or a tag the table's latest state. */
@Command(
        name = "rollback",
        mixinStandardHelpOptions = true,
        description = "Make a snapshot or a tag the latest state: later snapshots leave the metadata (their files "
                + "are left to orphan-clean). Stop the table's writers and compaction jobs first.")
final class RollbackCommand implements Callable<Integer> {
    @Mixin
    WarehouseOptions target;

    @Spec
    CommandSpec spec;

    static final class Target {
        @Option(
                names = "--to-snapshot",
                required = true,
                paramLabel = "ID",
                description = "Roll back to this snapshot.")
        Long snapshot;

        @Option(names = "--to-tag", required = true, paramLabel = "NAME", description = "Roll back to this tag.")
        String tag;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Target to;

    @Option(names = "--dry-run", description = "List the snapshots that would go; change nothing.")
    boolean dryRun;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Override
    public Integer call() {
        FileStoreTable table = target.openTable();
        Rollback rollback = table.newRollback();
        Rollback.Result r;
        if (to.snapshot != null) {
            r = dryRun ? rollback.planToSnapshot(to.snapshot) : rollback.toSnapshot(to.snapshot);
        } else {
            r = dryRun ? rollback.planToTag(to.tag) : rollback.toTag(to.tag);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Json.print(
                    out,
                    Json.object(
                            "dryRun", r.dryRun(),
                            "target", r.target(),
                            "latestBefore", r.latestBefore(),
                            "snapshotsRemoved", r.snapshotsRemoved(),
                            "changelogsRemoved", r.changelogsRemoved(),
                            "restoredFromTag", r.restored()));
            return 0;
        }
        out.println((dryRun ? "would roll back" : "rolled back") + " to snapshot " + r.target()
                + (r.restored() ? " (restored from its tag)" : "") + "; "
                + (dryRun ? "would remove" : "removed") + " snapshots " + r.snapshotsRemoved()
                + (r.changelogsRemoved().isEmpty() ? "" : " and the kept changelog of " + r.changelogsRemoved()));
        return 0;
    }
}
