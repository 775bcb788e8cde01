package io.strata.storage.maintenance;

import io.strata.storage.commit.CommitMessage;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The model of writers whose data files wait for their commit, each registered with a heartbeat:
 * a live writer renews its heartbeat as the clock moves (as its background renewal does, every
 * quarter of {@code orphan-clean.writer-heartbeat-timeout}) and later commits; a crashed one goes
 * silent and leaves its registration behind; a stopped one (closed for a rollback) removes its
 * registration and leaves its files. Says which files a registration protects and which
 * registrations the table must hold.
 *
 * <p>Each writer writes keys no other writer of the model writes ({@code id >= 1000}), so the order
 * of its commit among the others decides nothing about which row wins. A writer's own background
 * renewal runs by the wall clock, every quarter of the timeout (15 minutes for the model's hour):
 * longer than a run of the model lasts, so only the model's steps renew.
 */
final class InFlightWriterModel {
    /** One writer: its files, in-flight until it commits, and the rows they hold, in write order. */
    static final class Writer {
        final int number;
        final TableWrite write;
        final List<CommitMessage> messages = new ArrayList<>();
        final List<GenericRow> rows = new ArrayList<>();
        final Set<String> files = new HashSet<>();
        /** The heartbeat its registration must hold; -1 before its first file. */
        long heartbeat = -1;

        Writer(int number, TableWrite write) {
            this.number = number;
            this.write = write;
        }

        String commitUser() {
            return InFlightWriterModel.commitUser(number);
        }

        String token() {
            return write.inFlightWriter().token();
        }
    }

    private static String commitUser(int number) {
        return "in-flight-" + number;
    }

    private final Clock clock;
    private final Duration timeout;
    private final List<Writer> live = new ArrayList<>();
    /** Crashed writers whose registrations are still on disk. */
    private final List<Writer> crashed = new ArrayList<>();
    /** Every writer not yet closed: a crashed one is closed only at the end of the run. */
    private final List<Writer> open = new ArrayList<>();

    /** The files of the writers that crashed or stopped. */
    private final Set<String> abandoned = new HashSet<>();

    private int started;

    InFlightWriterModel(Clock clock, Duration timeout) {
        this.clock = clock;
        this.timeout = timeout;
    }

    List<Writer> live() {
        return live;
    }

    /** A new writer that has written one batch of rows and holds their files uncommitted. */
    Writer start(FileStoreTable t, Random rnd, int today, int[] daysBack) {
        int number = ++started;
        Writer w = new Writer(number, t.newWrite(commitUser(number)));
        live.add(w);
        open.add(w);
        writeBatch(w, rnd, today, daysBack);
        return w;
    }

    /** One more batch: naming its files renews the heartbeat when a quarter of the timeout has passed. */
    void writeBatch(Writer w, Random rnd, int today, int[] daysBack) {
        for (int r = 0; r < 10 + rnd.nextInt(20); r++) {
            int dt = today - daysBack[rnd.nextInt(daysBack.length)];
            long id = 1000L * w.number + rnd.nextInt(20);
            GenericRow row = rnd.nextInt(5) == 0
                    ? new GenericRow(RowKind.DELETE, dt, id, null)
                    : GenericRow.insert(dt, id, "f" + rnd.nextInt(100));
            w.write.write(row);
            w.rows.add(row);
        }
        List<CommitMessage> prepared = w.write.prepareCommit();
        for (CommitMessage m : prepared) {
            m.appendFiles().forEach(f -> w.files.add(f.fileName()));
            m.changelogFiles().forEach(f -> w.files.add(f.fileName()));
        }
        w.messages.addAll(prepared);
        if (w.heartbeat < 0) {
            w.heartbeat = clock.millis(); // registered before its first file
        } else {
            renewIfDue(w);
        }
    }

    /** Commits everything {@code w} prepared, closes it, and returns the rows it committed. */
    List<GenericRow> commit(FileStoreTable t, Writer w) {
        try (TableCommit c = t.newCommit(w.commitUser())) {
            c.commit(1, w.messages);
        }
        close(w);
        return w.rows;
    }

    /** {@code w} crashes: it renews no more and its registration stays until orphan cleanup removes it. */
    void crash(Writer w) {
        live.remove(w);
        crashed.add(w);
        abandoned.addAll(w.files);
    }

    /** Every live writer stops without committing (as before a rollback): registrations removed, files left. */
    void stopLive() {
        for (Writer w : List.copyOf(live)) {
            close(w);
            abandoned.addAll(w.files);
        }
    }

    private void close(Writer w) {
        w.write.close();
        live.remove(w);
        open.remove(w);
    }

    /** The clock moved: every live writer renews, as its background renewal would have meanwhile. */
    void heartbeatLive() {
        for (Writer w : live) {
            w.write.inFlightWriter().renew();
            renewIfDue(w);
        }
    }

    private void renewIfDue(Writer w) {
        long now = clock.millis();
        if (now - w.heartbeat >= timeout.toMillis() / 4) {
            w.heartbeat = now;
        }
    }

    private boolean fresh(Writer w, long now) {
        return now - w.heartbeat < timeout.toMillis();
    }

    /** The files of the writers whose registration is on disk with a heartbeat younger than the timeout. */
    Set<String> protectedFiles() {
        long now = clock.millis();
        Set<String> files = new HashSet<>();
        for (List<Writer> registered : List.of(live, crashed)) {
            for (Writer w : registered) {
                if (fresh(w, now)) {
                    files.addAll(w.files);
                }
            }
        }
        return files;
    }

    /** The files of the writers that crashed or stopped: they will never be committed. */
    Set<String> abandonedFiles() {
        return abandoned;
    }

    /**
     * An orphan cleanup with threshold {@code olderThan} ran: a crashed writer's registration whose
     * heartbeat is older than both the timeout and the threshold is gone.
     *
     * @return the number of registrations that went
     */
    int cleaned(Duration olderThan) {
        long now = clock.millis();
        int before = crashed.size();
        crashed.removeIf(w -> !fresh(w, now) && now - w.heartbeat >= olderThan.toMillis());
        return before - crashed.size();
    }

    /** Token to heartbeat of every registration the table must hold. */
    Map<String, Long> registrations() {
        Map<String, Long> out = new HashMap<>();
        for (List<Writer> registered : List.of(live, crashed)) {
            for (Writer w : registered) {
                out.put(w.token(), w.heartbeat);
            }
        }
        return out;
    }

    /** Closes every writer still open (the end of a run). */
    void closeAll() {
        for (Writer w : List.copyOf(open)) {
            close(w);
        }
        crashed.clear();
    }
}
