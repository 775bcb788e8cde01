package io.strata.cli;

import io.strata.storage.snapshot.ConsumerManager;
import io.strata.storage.table.FileStoreTable;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code strata consumer list|reset|delete}: named reader positions that hold expiration back. */
@Command(
        name = "consumer",
        mixinStandardHelpOptions = true,
        description = "List, reset or delete consumers: named reader positions (strata scan --changelog --consumer "
                + "ID) whose unread snapshots expiration keeps.",
        subcommands = {ConsumerCommand.ListConsumers.class, ConsumerCommand.Reset.class, ConsumerCommand.Delete.class})
final class ConsumerCommand {

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List the consumers and their positions.")
    static final class ListConsumers implements Callable<Integer> {
        @Mixin
        WarehouseOptions target;

        @Spec
        CommandSpec spec;

        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Override
        public Integer call() {
            List<ConsumerManager.Consumer> consumers =
                    target.openTable().context().consumerManager().list();
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
                List<Map<String, Object>> rows = new ArrayList<>();
                for (ConsumerManager.Consumer c : consumers) {
                    rows.add(Json.object(
                            "id", c.id(),
                            "nextSnapshot", c.nextSnapshot(),
                            "updated", Instant.ofEpochMilli(c.updatedMillis()).toString()));
                }
                Json.print(out, rows);
                return 0;
            }
            TextTable t = new TextTable("id", "next_snapshot", "updated");
            for (ConsumerManager.Consumer c : consumers) {
                t.add(c.id(), c.nextSnapshot(), Instant.ofEpochMilli(c.updatedMillis()));
            }
            t.print(out);
            return 0;
        }
    }

    @Command(name = "reset", mixinStandardHelpOptions = true, description = "Set a consumer's next snapshot.")
    static final class Reset implements Callable<Integer> {
        @Mixin
        WarehouseOptions target;

        @Spec
        CommandSpec spec;

        @Option(names = "--id", required = true, paramLabel = "ID", description = "The consumer.")
        String id;

        @Option(
                names = "--next-snapshot",
                required = true,
                paramLabel = "N",
                description = "The snapshot it reads next.")
        long next;

        @Override
        public Integer call() {
            FileStoreTable table = target.openTable();
            long earliest = table.snapshotManager().earliestId().orElse(1);
            long latest = table.snapshotManager().latestId().orElse(0);
            if (next < earliest || next > latest + 1) {
                throw new IllegalArgumentException("table " + table.name() + ": --next-snapshot " + next
                        + " is outside the retained snapshots " + earliest + ".." + latest + " (or " + (latest + 1)
                        + ", the next one)");
            }
            table.context().consumerManager().record(id, next, table.clock().millis());
            spec.commandLine().getOut().println("consumer '" + id + "' reads snapshot " + next + " next");
            return 0;
        }
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete a consumer.")
    static final class Delete implements Callable<Integer> {
        @Mixin
        WarehouseOptions target;

        @Spec
        CommandSpec spec;

        @Option(names = "--id", required = true, paramLabel = "ID", description = "The consumer.")
        String id;

        @Override
        public Integer call() {
            FileStoreTable table = target.openTable();
            if (!table.context().consumerManager().delete(id)) {
                throw new IllegalArgumentException("table " + table.name() + " has no consumer '" + id + "'");
            }
            spec.commandLine().getOut().println("consumer '" + id + "' deleted");
            return 0;
        }
    }
}
