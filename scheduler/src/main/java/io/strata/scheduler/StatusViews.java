package io.strata.scheduler;

import io.strata.scheduler.config.TableSettings.BacklogCompaction;
import io.strata.scheduler.history.PauseStore;
import io.strata.scheduler.history.Run;
import io.strata.scheduler.history.RunHistory;
import io.strata.scheduler.history.RunOutcome;
import io.strata.scheduler.http.StatusView;
import io.strata.scheduler.quartz.HealthPolls;
import io.strata.scheduler.quartz.Schedule;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;

/** Builds the status page's {@link StatusView} of a running service at request time. */
final class StatusViews {
    /** How many of the latest runs are searched for the last run of each operation and for failures. */
    private static final int RECENT_RUNS = 500;

    private static final int FAILURES_SHOWN = 10;

    private StatusViews() {}

    static StatusView build(SchedulerService service, Instant now) throws SQLException, SchedulerException {
        RunHistory history = service.database().history();
        PauseStore pauses = service.database().pauses();
        Scheduler quartz = service.quartz();
        HealthPolls polls = service.polls();
        List<Run> recent = history.recent(Optional.empty(), RECENT_RUNS);
        Map<String, Run> lastRun = new HashMap<>();
        List<StatusView.Run> failures = new ArrayList<>();
        for (Run r : recent) {
            if (r.outcome() == RunOutcome.RUNNING) {
                continue;
            }
            lastRun.putIfAbsent(r.table() + "\u0000" + r.operation(), r);
            if ((r.outcome() == RunOutcome.FAILED || r.outcome() == RunOutcome.INTERRUPTED)
                    && failures.size() < FAILURES_SHOWN) {
                failures.add(view(r));
            }
        }
        Map<String, List<Schedule>> byTable = new HashMap<>();
        for (Schedule s : service.schedules()) {
            byTable.computeIfAbsent(s.table(), t -> new ArrayList<>()).add(s);
        }
        List<StatusView.TableStatus> tables = new ArrayList<>();
        for (String table : service.tables()) {
            List<StatusView.OperationStatus> operations = new ArrayList<>();
            boolean paused = false;
            for (Schedule s : byTable.getOrDefault(table, List.of())) {
                String op = s.kind().key();
                paused |= pauses.isPaused(table, op);
                operations.add(new StatusView.OperationStatus(
                        op,
                        nextFire(quartz, s),
                        Optional.ofNullable(lastRun.get(table + "\u0000" + op)).map(StatusViews::view)));
            }
            Optional<HealthPolls.LastPoll> last = polls.last(table);
            BacklogCompaction thresholds = polls.thresholds(table);
            tables.add(new StatusView.TableStatus(
                    table,
                    last.flatMap(HealthPolls.LastPoll::health),
                    last.flatMap(HealthPolls.LastPoll::error),
                    thresholds.maxSortedRuns(),
                    thresholds.maxLevel0Files(),
                    paused,
                    operations));
        }
        List<StatusView.RunningOperation> running = history.running().stream()
                .map(r -> new StatusView.RunningOperation(r.table(), r.operation(), r.start(), r.owner()))
                .toList();
        return new StatusView(service.config().schedulerId(), now, tables, running, failures);
    }

    /** The earliest next fire of the schedule's job (its regular trigger or a deferred one). */
    static Optional<Instant> nextFire(Scheduler quartz, Schedule s) throws SchedulerException {
        Optional<Instant> next = Optional.empty();
        for (Trigger t : quartz.getTriggersOfJob(s.jobKey())) {
            if (t.getNextFireTime() != null) {
                Instant at = t.getNextFireTime().toInstant();
                if (next.isEmpty() || at.isBefore(next.get())) {
                    next = Optional.of(at);
                }
            }
        }
        return next;
    }

    private static StatusView.Run view(Run r) {
        return new StatusView.Run(
                r.table(),
                r.operation(),
                r.start(),
                r.end().orElse(r.start()),
                r.outcome().name().toLowerCase(),
                detail(r));
    }

    /** The first line of the error, else what held the run back, else its counters. */
    static String detail(Run r) {
        if (r.error().isPresent()) {
            return r.error().get().lines().findFirst().orElse("");
        }
        if (r.heldBack().isPresent()) {
            return r.heldBack().get();
        }
        var c = r.counters();
        List<String> parts = new ArrayList<>();
        count(parts, c.snapshotsExpired(), "snapshots expired");
        count(parts, c.changelogsExpired(), "changelogs expired");
        count(parts, c.partitionsExpired(), "partitions expired");
        count(parts, c.tagsCreated(), "tags created");
        if (c.filesDeleted() > 0 || c.bytesFreed() > 0) {
            parts.add(c.filesDeleted() + " files deleted, " + c.bytesFreed() + " bytes freed");
        }
        return String.join(", ", parts);
    }

    private static void count(List<String> parts, long n, String what) {
        if (n > 0) {
            parts.add(n + " " + what);
        }
    }
}
