package io.strata.cli;

import io.strata.scheduler.HealthServer;
import io.strata.scheduler.SchedulerService;
import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.quartz.Schedule;
import io.strata.scheduler.table.SelectionCheck;
import io.strata.scheduler.table.TableDiscovery;
import io.strata.storage.table.Catalog;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import sun.misc.Signal;

/** {@code strata scheduler}: the service that runs maintenance and compaction on a schedule. */
@Command(
        name = "scheduler",
        mixinStandardHelpOptions = true,
        description = "The scheduler service: snapshot expiration, orphan cleanup, off-peak full compaction and "
                + "backlog-driven compaction for the tables of a config (configs/scheduler.yaml).",
        subcommands = {
            SchedulerCommand.Validate.class,
            SchedulerCommand.Run.class,
            SchedulerStateCommands.Status.class,
            SchedulerStateCommands.History.class,
            SchedulerStateCommands.PauseCommand.class,
            SchedulerStateCommands.Resume.class,
            SchedulerStateCommands.Trigger.class,
            SchedulerStateCommands.BreakLease.class
        })
final class SchedulerCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine()
                .getErr()
                .println(
                        "strata: error: give a scheduler command: validate, run, status, history, pause, resume, trigger or break-lease");
        spec.commandLine().usage(spec.commandLine().getErr());
        return StrataCli.USAGE_ERROR;
    }

    /** {@code strata scheduler validate}: checks a config and shows what it would schedule. */
    @Command(
            name = "validate",
            mixinStandardHelpOptions = true,
            description = "Check a scheduler config without starting anything: print the tables it selects now "
                    + "and the next fire time of each schedule.")
    static final class Validate implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        SchedulerOptions.Config config;

        @Override
        public Integer call() {
            SchedulerConfig c = config.load();
            PrintWriter out = spec.commandLine().getOut();
            Catalog catalog = Catalog.open(c.warehouse());
            SelectionCheck.check(c, catalog);
            List<String> tables = new TableDiscovery(catalog, c.tables()).discover();
            out.println("config " + config.file + " is valid: warehouse " + c.warehouse() + ", job store "
                    + c.store().jdbcUrl());
            Instant now = Instant.now();
            TextTable t = new TextTable("table", "operation", "schedule", "next fire (UTC)");
            for (String table : tables) {
                for (Schedule s : Schedule.of(table, c.settingsFor(table))) {
                    t.add(
                            table,
                            s.kind().key(),
                            s.definition(),
                            s.nextFireAfter(now).map(Instant::toString).orElse("never"));
                }
            }
            t.print(out);
            for (String named : c.tables().names()) {
                if (!tables.contains(named)) {
                    out.println(named + ": not found yet; scheduled once it is created");
                }
            }
            out.println(tables.size() + " tables selected now; tables created later are picked up while running");
            out.flush();
            return 0;
        }
    }

    /** {@code strata scheduler run}: the long-running service. */
    @Command(
            name = "run",
            mixinStandardHelpOptions = true,
            description = "Run the scheduler until SIGTERM or Ctrl-C: then no new operation starts, running ones "
                    + "get the config's shutdown-timeout to finish, and the job store is closed cleanly.")
    static final class Run implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        SchedulerOptions.Config config;

        @Option(
                names = "--port",
                defaultValue = "9464",
                paramLabel = "N",
                description = "Port of GET /health, /metrics and / on 127.0.0.1 (default ${DEFAULT-VALUE}; 0: any free "
                        + "port).")
        int port;

        @Override
        public Integer call() throws Exception {
            SchedulerConfig c = config.load();
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            SchedulerService service = SchedulerService.start(c);
            HealthServer health;
            try {
                health = HealthServer.start(port, service);
            } catch (Exception e) {
                service.close();
                throw new IllegalStateException("cannot serve HTTP on 127.0.0.1:" + port + ": " + e.getMessage(), e);
            }
            // SIGTERM and Ctrl-C stop the service before the JVM begins its shutdown: H2 closes its
            // databases in a shutdown hook of its own, which would race a stop run from ours
            CountDownLatch signalled = new CountDownLatch(1);
            int[] signal = {15};
            for (String name : new String[] {"TERM", "INT"}) {
                Signal.handle(new Signal(name), sig -> {
                    signal[0] = sig.getNumber();
                    signalled.countDown();
                });
            }
            // any other shutdown (System.exit elsewhere, SIGHUP) still stops it, as best it can
            Thread fallback = new Thread(() -> stop(service, health, c, out, err), "strata-scheduler-stop");
            Runtime.getRuntime().addShutdownHook(fallback);
            out.println("strata: scheduler running on " + c.warehouse() + " with "
                    + service.schedules().size() + " schedules; health on http://127.0.0.1:" + health.port()
                    + "/health (status page on /, metrics on /metrics)");
            out.flush();
            signalled.await();
            stop(service, health, c, out, err);
            // the exit status of a process ended by the signal (143 for SIGTERM), as service managers expect
            return 128 + signal[0];
        }

        private static synchronized void stop(
                SchedulerService service, HealthServer health, SchedulerConfig c, PrintWriter out, PrintWriter err) {
            if (service.state() == SchedulerService.State.STOPPED) {
                return;
            }
            err.println("strata: scheduler stopping: no new operations; waiting up to " + c.shutdownTimeout()
                    + " for running ones");
            err.flush();
            try {
                service.close();
                out.println("strata: scheduler stopped cleanly");
            } catch (Exception e) {
                err.println("strata: error: scheduler did not stop cleanly: " + e.getMessage());
            } finally {
                health.close();
                out.flush();
                err.flush();
            }
        }
    }
}
