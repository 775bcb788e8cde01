package io.strata.cli;

import io.strata.scheduler.ManualRun;
import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.history.Pause;
import io.strata.scheduler.history.Run;
import io.strata.scheduler.lease.Lease;
import io.strata.scheduler.ops.OperationKind;
import io.strata.scheduler.ops.Outcome;
import io.strata.scheduler.quartz.SchedulerDatabase;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The scheduler commands that read or change the scheduler's database directly (run history,
 * status, pauses) or run one operation now; they work while the service runs (an H2 store is
 * opened with {@code AUTO_SERVER}, PostgreSQL is shared anyway).
 */
final class SchedulerStateCommands {
    private SchedulerStateCommands() {}

    private static SchedulerDatabase open(SchedulerConfig c) throws Exception {
        return SchedulerDatabase.open(c.store(), 2, Clock.systemUTC());
    }

    private static String orEmpty(Optional<?> o) {
        return o.map(String::valueOf).orElse("");
    }

    /** {@code strata scheduler history}. */
    @Command(
            name = "history",
            mixinStandardHelpOptions = true,
            description = "The latest runs from the scheduler's run history, newest first.")
    static final class History implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        SchedulerOptions.Config config;

        @Option(names = "--table", paramLabel = "DB.TABLE", description = "Only the runs of this table.")
        String table;

        @Option(
                names = "--limit",
                defaultValue = "20",
                paramLabel = "N",
                description = "At most N runs (default ${DEFAULT-VALUE}).")
        int limit;

        @Option(names = "--json", description = "Print JSON, with the error texts.")
        boolean json;

        @Override
        public Integer call() throws Exception {
            SchedulerConfig c = config.load();
            PrintWriter out = spec.commandLine().getOut();
            List<Run> runs;
            try (SchedulerDatabase db = open(c)) {
                runs = db.history().recent(Optional.ofNullable(table), limit);
            }
            if (json) {
                List<Map<String, Object>> rows = new ArrayList<>();
                for (Run r : runs) {
                    rows.add(Json.object(
                            "id", r.id(),
                            "table", r.table(),
                            "operation", r.operation(),
                            "outcome", r.outcome().name(),
                            "owner", r.owner(),
                            "fireId", r.fireId().orElse(null),
                            "start", r.start().toString(),
                            "end", r.end().map(Object::toString).orElse(null),
                            "snapshotsExpired", r.counters().snapshotsExpired(),
                            "filesDeleted", r.counters().filesDeleted(),
                            "bytesFreed", r.counters().bytesFreed(),
                            "rowsCompacted", r.counters().rowsCompacted(),
                            "changelogsExpired", r.counters().changelogsExpired(),
                            "partitionsExpired", r.counters().partitionsExpired(),
                            "tagsCreated", r.counters().tagsCreated(),
                            "heldBack", r.heldBack().orElse(null),
                            "error", r.error().orElse(null)));
                }
                Json.print(out, rows);
                return 0;
            }
            printRuns(out, runs);
            out.println(runs.size() + " runs");
            out.flush();
            return 0;
        }
    }

    /** The runs as the text table of {@code strata scheduler history}. */
    static void printRuns(PrintWriter out, List<Run> runs) {
        TextTable t = new TextTable(
                "id",
                "table",
                "operation",
                "outcome",
                "start (UTC)",
                "end (UTC)",
                "snapshots",
                "changelogs",
                "partitions",
                "tags",
                "files",
                "bytes",
                "rows",
                "detail");
        for (Run r : runs) {
            String detail = r.error()
                    .map(e -> e.lines().findFirst().orElse(""))
                    .or(r::heldBack)
                    .orElse("");
            t.add(
                    r.id(),
                    r.table(),
                    r.operation(),
                    r.outcome().name(),
                    r.start(),
                    orEmpty(r.end()),
                    r.counters().snapshotsExpired(),
                    r.counters().changelogsExpired(),
                    r.counters().partitionsExpired(),
                    r.counters().tagsCreated(),
                    r.counters().filesDeleted(),
                    r.counters().bytesFreed(),
                    r.counters().rowsCompacted(),
                    detail);
        }
        t.print(out);
    }

    /** {@code strata scheduler status}. */
    @Command(
            name = "status",
            mixinStandardHelpOptions = true,
            description = "Next fire times from the job store, running operations, live leases and pauses.")
    static final class Status implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        SchedulerOptions.Config config;

        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Override
        public Integer call() throws Exception {
            SchedulerConfig c = config.load();
            PrintWriter out = spec.commandLine().getOut();
            List<SchedulerDatabase.NextFire> fires;
            List<Run> running;
            List<Lease> leases;
            List<Pause> pauses;
            try (SchedulerDatabase db = open(c)) {
                fires = db.nextFires();
                running = db.history().running();
                leases = db.leases().live();
                pauses = db.pauses().pauses();
            }
            if (json) {
                Json.print(
                        out,
                        Json.object(
                                "schedules",
                                fires.stream()
                                        .map(f -> Json.object(
                                                "table", f.table(),
                                                "operation", f.operation(),
                                                "nextFire", f.at().toString(),
                                                "state", f.state()))
                                        .toList(),
                                "running",
                                running.stream()
                                        .map(r -> Json.object(
                                                "id", r.id(),
                                                "table", r.table(),
                                                "operation", r.operation(),
                                                "owner", r.owner(),
                                                "start", r.start().toString()))
                                        .toList(),
                                "leases",
                                leases.stream()
                                        .map(l -> Json.object(
                                                "table", l.table(),
                                                "operation", l.operationId(),
                                                "owner", l.owner(),
                                                "epoch", l.epoch(),
                                                "expiresAt", l.expiresAt().toString()))
                                        .toList(),
                                "pauses",
                                pauses.stream()
                                        .map(p -> Json.object(
                                                "table", p.table().orElse("*"),
                                                "operation", p.operation().orElse("*"),
                                                "pausedBy", p.pausedBy(),
                                                "reason", p.reason().orElse(null)))
                                        .toList()));
                return 0;
            }
            out.println("schedules (" + c.store().jdbcUrl() + "):");
            TextTable s = new TextTable("table", "operation", "next fire (UTC)", "state");
            fires.forEach(f -> s.add(f.table(), f.operation(), f.at(), f.state()));
            s.print(out);
            out.println("running: " + running.size());
            TextTable r = new TextTable("id", "table", "operation", "owner", "start (UTC)");
            running.forEach(x -> r.add(x.id(), x.table(), x.operation(), x.owner(), x.start()));
            r.print(out);
            out.println("leases: " + leases.size());
            TextTable l = new TextTable("table", "operation", "owner", "epoch", "expires (UTC)");
            leases.forEach(x -> l.add(x.table(), x.operationId(), x.owner(), x.epoch(), x.expiresAt()));
            l.print(out);
            out.println("pauses: " + pauses.size());
            TextTable p = new TextTable("table", "operation", "paused by", "reason");
            pauses.forEach(x -> p.add(
                    x.table().orElse("*"),
                    x.operation().orElse("*"),
                    x.pausedBy(),
                    x.reason().orElse("")));
            p.print(out);
            out.flush();
            return 0;
        }
    }

    /** {@code strata scheduler pause}. */
    @Command(
            name = "pause",
            mixinStandardHelpOptions = true,
            description = "Pause an operation (all without --operation) on a table (all without --table); the "
                    + "scheduler records the fires it holds back as skipped.")
    static final class PauseCommand implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        SchedulerOptions.Config config;

        @Mixin
        SchedulerOptions.Scope scope;

        @Option(names = "--reason", paramLabel = "TEXT", description = "Why, shown with the skipped runs.")
        String reason;

        @Override
        public Integer call() throws Exception {
            SchedulerConfig c = config.load();
            Optional<String> op = scope.operation();
            boolean added;
            try (SchedulerDatabase db = open(c)) {
                added = db.pauses()
                        .pause(
                                scope.table(),
                                op,
                                "cli:" + System.getProperty("user.name", "unknown"),
                                Optional.ofNullable(reason));
            }
            PrintWriter out = spec.commandLine().getOut();
            String described = scope.describe();
            out.println(added ? "paused " + described : described + " was paused already");
            out.flush();
            return 0;
        }
    }

    /** {@code strata scheduler resume}. */
    @Command(
            name = "resume",
            mixinStandardHelpOptions = true,
            description = "Remove the pause of exactly this scope (as given to pause).")
    static final class Resume implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        SchedulerOptions.Config config;

        @Mixin
        SchedulerOptions.Scope scope;

        @Override
        public Integer call() throws Exception {
            SchedulerConfig c = config.load();
            Optional<String> op = scope.operation();
            boolean removed;
            try (SchedulerDatabase db = open(c)) {
                removed = db.pauses().resume(scope.table(), op);
            }
            String described = scope.describe();
            if (!removed) {
                spec.commandLine().getErr().println("strata: error: " + described + " is not paused");
                spec.commandLine().getErr().flush();
                return 1;
            }
            spec.commandLine().getOut().println("resumed " + described);
            spec.commandLine().getOut().flush();
            return 0;
        }
    }

    /** {@code strata scheduler trigger}. */
    @Command(
            name = "trigger",
            mixinStandardHelpOptions = true,
            description = "Run one operation on one table now, in this process, as a fire would run it: held back "
                    + "by a pause or a conflicting lease, recorded in the run history. Prints the outcome.")
    static final class Trigger implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        SchedulerOptions.Config config;

        @Mixin
        SchedulerOptions.Table table;

        @Option(names = "--operation", required = true, paramLabel = "OP", description = "The operation.")
        String operation;

        @Override
        public Integer call() throws Exception {
            SchedulerConfig c = config.load();
            OperationKind kind = SchedulerOptions.operation(operation);
            Optional<Outcome> o = ManualRun.run(c, table.name(), kind);
            if (o.isEmpty()) {
                spec.commandLine()
                        .getErr()
                        .println("strata: error: " + config.file + " schedules no " + kind.key() + " for "
                                + table.name());
                spec.commandLine().getErr().flush();
                return 1;
            }
            spec.commandLine()
                    .getOut()
                    .println(table.name() + " " + kind.key() + ": " + o.get().summary());
            spec.commandLine().getOut().flush();
            return 0;
        }
    }

    /** {@code strata scheduler break-lease}. */
    @Command(
            name = "break-lease",
            mixinStandardHelpOptions = true,
            description = "Break a live lease (see status) whose holder hangs: its next renewal fails and its run ends "
                    + "as failed without committing again; the table's next lease gets a higher epoch. A holder "
                    + "that died needs nothing: its lease expires after lease-ttl.")
    static final class BreakLease implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        SchedulerOptions.Config config;

        @Mixin
        SchedulerOptions.Table table;

        @Option(names = "--epoch", required = true, paramLabel = "N", description = "The lease's epoch (status).")
        long epoch;

        @Override
        public Integer call() throws Exception {
            SchedulerConfig c = config.load();
            Optional<Lease> broken;
            List<Lease> live;
            try (SchedulerDatabase db = open(c)) {
                broken = db.leases().breakLease(table.name(), epoch);
                live = db.leases().live(table.name());
            }
            if (broken.isEmpty()) {
                String held = live.isEmpty()
                        ? "none"
                        : String.join(
                                ", ",
                                live.stream()
                                        .map(l -> "epoch " + l.epoch() + " (" + l.operationId() + " by " + l.owner()
                                                + ")")
                                        .toList());
                spec.commandLine()
                        .getErr()
                        .println("strata: error: " + table.name() + " has no live lease of epoch " + epoch
                                + "; its live leases: " + held);
                spec.commandLine().getErr().flush();
                return 1;
            }
            Lease l = broken.get();
            spec.commandLine()
                    .getOut()
                    .println("broke the lease of " + table.name() + " epoch " + l.epoch() + ": " + l.operationId()
                            + " held by " + l.owner() + " since " + l.acquiredAt()
                            + "; its holder stops at its next renewal");
            spec.commandLine().getOut().flush();
            return 0;
        }
    }
}
