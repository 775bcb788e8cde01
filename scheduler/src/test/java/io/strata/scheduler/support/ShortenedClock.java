package io.strata.scheduler.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock that runs {@code speed} times faster than real time: {@code e} of real time after it was
 * made it reads {@code start + speed × e}. A day of a table's life passes in minutes, so off-peak
 * windows open and close, and retention and orphan ages pass, while a test runs.
 *
 * <p>{@link #stamp} maps a wall-clock time (a file's modification time, stamped by the file system)
 * onto this clock the same way, so that an age judged on this clock ({@link ShortenedAgeFileIO}) is
 * shortened alike. Always at or after the real time when {@code start} is.
 */
public final class ShortenedClock extends Clock {
    private final Instant start;
    private final long speed;
    private final long realStartNanos = System.nanoTime();
    private final long realStartMillis = System.currentTimeMillis();

    public ShortenedClock(Instant start, long speed) {
        if (speed < 1) {
            throw new IllegalArgumentException("a shortened clock runs at least at real speed, got " + speed);
        }
        this.start = start;
        this.speed = speed;
    }

    public long speed() {
        return speed;
    }

    /** The real time in which {@code simulated} passes on this clock. */
    public Duration real(Duration simulated) {
        return simulated.dividedBy(speed);
    }

    /** The wall-clock time {@code wallMillis} as this clock reads it. */
    public long stamp(long wallMillis) {
        return start.toEpochMilli() + (wallMillis - realStartMillis) * speed;
    }

    @Override
    public long millis() {
        return start.toEpochMilli() + (System.nanoTime() - realStartNanos) * speed / 1_000_000;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a ShortenedClock is always UTC");
    }

    @Override
    public String toString() {
        return "ShortenedClock[" + speed + "x from " + start + "]";
    }
}
