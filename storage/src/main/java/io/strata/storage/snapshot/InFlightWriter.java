package io.strata.storage.snapshot;

import io.strata.storage.format.DataFileNames;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running writer's registration ({@link WriterRegistrations}): a token, which every file named
 * through {@link #fileNames()} carries, and a heartbeat that keeps those files from orphan cleanup
 * while it is fresh.
 *
 * <ul>
 *   <li>The registration is written before the first file is named: a writer that creates no file
 *       leaves none, and no file of the writer exists before its registration. If it cannot be
 *       written, the file is not created (the writer's call fails, naming the table).
 *   <li>The heartbeat is renewed from the writer's own activity, at most every quarter of the
 *       timeout: when a file is named and when the writer calls {@link #renew()} (a prepared
 *       commit, a checkpoint). A failed renewal is logged and tried again at the next activity; the
 *       other three quarters of the timeout are its margin. A writer that may sit idle longer than
 *       the timeout with files not yet committed asks for {@link #renewInBackground()}: one daemon
 *       thread of this instance, started with the registration and stopped by {@link #close()}.
 *   <li>{@link #close()} removes the registration; from then on the writer's uncommitted files are
 *       orphans like any others. A writer that crashes leaves its registration, whose heartbeat goes
 *       stale: after the timeout it protects nothing, and orphan cleanup removes it later.
 * </ul>
 *
 * Thread-safe: the writer's threads name files concurrently.
 */
public final class InFlightWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(InFlightWriter.class);

    private final WriterRegistrations registrations;
    private final String token;
    private final String owner;
    private final Clock clock;
    private final long renewEveryMillis;
    private final DataFileNames names;
    /** -1 until registered. */
    private long createdMillis = -1;

    private long heartbeatMillis;
    private boolean closed;
    private boolean background;
    private ScheduledExecutorService renewal;

    InFlightWriter(WriterRegistrations registrations, String token, String owner, Clock clock, Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("table " + registrations.tableName()
                    + ": the writer heartbeat timeout must be positive, got " + timeout);
        }
        this.registrations = registrations;
        this.token = token;
        this.owner = owner;
        this.clock = clock;
        this.renewEveryMillis = Math.max(1, timeout.toMillis() / 4);
        this.names = new DataFileNames(token, this::beforeNewFile);
    }

    /** The uuid every file named through {@link #fileNames()} carries. */
    public String token() {
        return token;
    }

    public String owner() {
        return owner;
    }

    /** The names of this writer's files: naming one registers the writer, or renews it when due. */
    public DataFileNames fileNames() {
        return names;
    }

    public synchronized boolean isRegistered() {
        return createdMillis >= 0 && !closed;
    }

    private synchronized void beforeNewFile() {
        if (closed) {
            throw new IllegalStateException("table " + registrations.tableName() + ": writer " + owner
                    + " (registration " + token + ") is closed and names no more files");
        }
        if (createdMillis < 0) {
            register();
        } else {
            renewIfDue();
        }
    }

    private void register() {
        long now = clock.millis();
        try {
            registrations.write(token, owner, now, now);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "table " + registrations.tableName() + ": cannot register writer " + owner + " (token " + token
                            + ") before its first file; no file was written: " + e.getMessage(),
                    e);
        }
        createdMillis = now;
        heartbeatMillis = now;
        if (background) {
            startRenewal();
        }
    }

    /** Renews the heartbeat if a quarter of the timeout has passed since the last one (and the writer is registered). */
    public synchronized void renew() {
        if (createdMillis >= 0 && !closed) {
            renewIfDue();
        }
    }

    private void renewIfDue() {
        long now = clock.millis();
        if (now - heartbeatMillis < renewEveryMillis) {
            return;
        }
        try {
            registrations.write(token, owner, createdMillis, now);
            heartbeatMillis = now;
        } catch (IOException | RuntimeException e) {
            LOG.warn(
                    "table {}: cannot renew the heartbeat of writer {} (registration {}); tried again at its next "
                            + "activity: {}",
                    registrations.tableName(),
                    owner,
                    token,
                    e.toString());
        }
    }

    /**
     * Renews the heartbeat also while the writer is idle, on one daemon thread of this instance,
     * started when the writer registers (now, if it has) and stopped by {@link #close()}.
     */
    public synchronized void renewInBackground() {
        background = true;
        if (createdMillis >= 0 && !closed) {
            startRenewal();
        }
    }

    private void startRenewal() {
        if (renewal != null) {
            return;
        }
        renewal = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "strata-writer-heartbeat-" + registrations.tableName());
            t.setDaemon(true);
            return t;
        });
        renewal.scheduleWithFixedDelay(this::renew, renewEveryMillis, renewEveryMillis, TimeUnit.MILLISECONDS);
    }

    /** Stops the background renewal and removes the registration. Idempotent. */
    @Override
    public void close() {
        ScheduledExecutorService stop;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            stop = renewal;
            renewal = null;
            if (createdMillis >= 0) {
                try {
                    registrations.remove(token);
                } catch (IOException | RuntimeException e) {
                    LOG.warn(
                            "table {}: cannot remove the registration {} of writer {}; its heartbeat goes stale and "
                                    + "orphan cleanup removes it: {}",
                            registrations.tableName(),
                            token,
                            owner,
                            e.toString());
                }
            }
        }
        if (stop != null) {
            stop.shutdownNow();
        }
    }

    @Override
    public String toString() {
        return "writer " + owner + " (registration " + token + ")";
    }
}
