package io.strata.scheduler.time;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.Objects;

/**
 * A daily window of local wall-clock time in a named zone, such as {@code 02:00-05:00} in
 * {@code Europe/Berlin}, in which full compactions may start. The window is half open
 * ({@code start <= t < end}) and crosses midnight when {@code end <= start}
 * ({@code 22:00-02:00}). It is judged by the local time of an instant, so on a day the clocks
 * spring forward the window is shorter by the skipped hour (02:00-03:00 does not exist) and on a
 * day they fall back it is longer by the repeated hour (02:00-03:00 happens twice).
 */
public final class OffPeakWindow {
    private final LocalTime start;
    private final LocalTime end;
    private final ZoneId zone;

    public OffPeakWindow(LocalTime start, LocalTime end, ZoneId zone) {
        this.start = Objects.requireNonNull(start, "start");
        this.end = Objects.requireNonNull(end, "end");
        this.zone = Objects.requireNonNull(zone, "zone");
        if (start.equals(end)) {
            throw new IllegalArgumentException("an off-peak window must not be empty: " + start + "-" + end);
        }
    }

    /**
     * Parses {@code HH:mm-HH:mm} in {@code zone}.
     *
     * @throws IllegalArgumentException saying what is wrong with the text
     */
    public static OffPeakWindow parse(String text, ZoneId zone) {
        String[] parts = text.trim().split("-", -1);
        if (parts.length != 2) {
            throw new IllegalArgumentException("expected a window like 02:00-05:00, got '" + text + "'");
        }
        try {
            return new OffPeakWindow(LocalTime.parse(parts[0].trim()), LocalTime.parse(parts[1].trim()), zone);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("expected a window like 02:00-05:00, got '" + text + "'", e);
        }
    }

    /**
     * Parses a zone id such as {@code Europe/Berlin} or {@code UTC}.
     *
     * @throws IllegalArgumentException naming the zone
     */
    public static ZoneId zone(String id) {
        try {
            return ZoneId.of(id);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("unknown time zone '" + id + "' (use a region id like Europe/Berlin)");
        }
    }

    public ZoneId zone() {
        return zone;
    }

    /** Whether a run may start at {@code instant}. */
    public boolean contains(Instant instant) {
        LocalTime t = instant.atZone(zone).toLocalTime();
        if (start.isBefore(end)) {
            return !t.isBefore(start) && t.isBefore(end);
        }
        return !t.isBefore(start) || t.isBefore(end);
    }

    /**
     * The earliest instant at or after {@code from} at which the window is open: {@code from} itself
     * when it is inside. A start time inside a spring-forward gap opens at the end of the gap.
     */
    public Instant nextOpening(Instant from) {
        if (contains(from)) {
            return from;
        }
        LocalDate day = from.atZone(zone).toLocalDate().minusDays(1);
        for (int i = 0; i < 3; i++, day = day.plusDays(1)) {
            Instant opening = ZonedDateTime.of(day, start, zone).toInstant();
            if (!opening.isBefore(from) && contains(opening)) {
                return opening;
            }
        }
        throw new IllegalStateException("no opening of " + this + " within two days of " + from);
    }

    /**
     * Whether a run that was due at {@code due} (its cron fire time, perhaps missed while the
     * scheduler was down) may start at {@code now}: only inside the window, whether or not it is
     * late. Outside, it waits for {@link #nextOpening}.
     */
    public StartDecision decide(Instant due, Instant now) {
        if (contains(now)) {
            return StartDecision.startNow(due, now);
        }
        return StartDecision.waitUntil(due, nextOpening(now), "outside the off-peak window " + this);
    }

    @Override
    public String toString() {
        return start + "-" + end + " " + zone.getId();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OffPeakWindow w && w.start.equals(start) && w.end.equals(end) && w.zone.equals(zone);
    }

    @Override
    public int hashCode() {
        return Objects.hash(start, end, zone);
    }
}
