package io.strata.scheduler.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

class OffPeakWindowTest {
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    private static Instant berlin(String localDateTime) {
        return LocalDateTime.parse(localDateTime).atZone(BERLIN).toInstant();
    }

    @Test
    void startsOnlyInsideTheWindow() {
        OffPeakWindow w = OffPeakWindow.parse("02:00-05:00", BERLIN);
        Instant due = berlin("2026-06-10T02:00");
        assertThat(w.decide(due, due).startsNow()).isTrue();
        assertThat(w.contains(berlin("2026-06-10T01:59:59"))).isFalse();
        assertThat(w.contains(berlin("2026-06-10T04:59:59"))).isTrue();
        assertThat(w.contains(berlin("2026-06-10T05:00"))).as("half open").isFalse();
    }

    @Test
    void aMisfiredRunStartsLateWhileTheWindowIsOpen() {
        OffPeakWindow w = OffPeakWindow.parse("02:00-05:00", BERLIN);
        Instant due = berlin("2026-06-10T02:00");
        StartDecision late = w.decide(due, berlin("2026-06-10T04:30"));
        assertThat(late.startsNow()).isTrue();
        assertThat(late.lateness()).isEqualTo(Duration.ofMinutes(150));
    }

    @Test
    void aMisfiredRunAfterTheWindowWaitsForTheNextOpening() {
        OffPeakWindow w = OffPeakWindow.parse("02:00-05:00", BERLIN);
        Instant due = berlin("2026-06-10T02:00");
        StartDecision d = w.decide(due, berlin("2026-06-10T09:15"));
        assertThat(d.startsNow()).isFalse();
        assertThat(d.startAt()).contains(berlin("2026-06-11T02:00"));
        assertThat(d.reason()).contains("outside the off-peak window 02:00-05:00 Europe/Berlin");
        // before the window on the same day: today's opening
        assertThat(w.decide(due, berlin("2026-06-11T00:30")).startAt()).contains(berlin("2026-06-11T02:00"));
    }

    @Test
    void aWindowCrossingMidnight() {
        OffPeakWindow w = OffPeakWindow.parse("22:00-02:00", ZoneOffset.UTC);
        Instant evening = Instant.parse("2026-06-10T23:30:00Z");
        Instant night = Instant.parse("2026-06-11T01:59:00Z");
        assertThat(w.contains(evening)).isTrue();
        assertThat(w.contains(night)).isTrue();
        assertThat(w.contains(Instant.parse("2026-06-11T02:00:00Z"))).isFalse();
        assertThat(w.contains(Instant.parse("2026-06-10T21:59:59Z"))).isFalse();
        assertThat(w.nextOpening(Instant.parse("2026-06-11T02:00:00Z")))
                .isEqualTo(Instant.parse("2026-06-11T22:00:00Z"));
        assertThat(w.decide(Instant.parse("2026-06-10T22:00:00Z"), night).startsNow())
                .as("a run due before midnight starts after midnight while the window is open")
                .isTrue();
    }

    @Test
    void springForwardShortensTheWindowAndOpensAtTheEndOfTheGap() {
        // 2026-03-29 in Berlin: 02:00 CET jumps to 03:00 CEST; 02:00-03:00 does not exist
        OffPeakWindow w = OffPeakWindow.parse("02:00-05:00", BERLIN);
        Instant lastCet = Instant.parse("2026-03-29T00:59:59Z"); // 01:59:59 CET
        assertThat(w.contains(lastCet)).isFalse();
        Instant opening = w.nextOpening(lastCet);
        assertThat(opening).isEqualTo(Instant.parse("2026-03-29T01:00:00Z")); // 03:00 CEST
        assertThat(opening.atZone(BERLIN).toLocalTime().toString()).isEqualTo("03:00");
        Instant close = Instant.parse("2026-03-29T03:00:00Z"); // 05:00 CEST
        assertThat(w.contains(close.minusSeconds(1))).isTrue();
        assertThat(w.contains(close)).isFalse();
        assertThat(Duration.between(opening, close))
                .as("two hours long that day")
                .isEqualTo(Duration.ofHours(2));
    }

    @Test
    void fallBackLengthensTheWindowByTheRepeatedHour() {
        // 2026-10-25 in Berlin: 03:00 CEST goes back to 02:00 CET; 02:00-03:00 happens twice
        OffPeakWindow w = OffPeakWindow.parse("02:00-05:00", BERLIN);
        Instant opening = w.nextOpening(Instant.parse("2026-10-24T23:00:00Z")); // 01:00 CEST
        assertThat(opening).isEqualTo(Instant.parse("2026-10-25T00:00:00Z")); // 02:00 CEST, the first one
        Instant secondTwoOClock = Instant.parse("2026-10-25T01:00:00Z"); // 02:00 CET
        assertThat(secondTwoOClock.atZone(BERLIN).toLocalTime().toString()).isEqualTo("02:00");
        assertThat(w.contains(secondTwoOClock)).isTrue();
        Instant close = ZonedDateTime.of(LocalDateTime.parse("2026-10-25T05:00"), BERLIN)
                .toInstant();
        assertThat(Duration.between(opening, close))
                .as("four hours long that day")
                .isEqualTo(Duration.ofHours(4));
        assertThat(w.decide(opening, close.minusSeconds(60)).startsNow()).isTrue();
        assertThat(w.decide(opening, close).startAt()).contains(berlin("2026-10-26T02:00"));
    }

    @Test
    void badWindows() {
        assertThatThrownBy(() -> OffPeakWindow.parse("2am-5am", BERLIN)).hasMessageContaining("like 02:00-05:00");
        assertThatThrownBy(() -> OffPeakWindow.parse("02:00-02:00", BERLIN)).hasMessageContaining("empty");
        assertThatThrownBy(() -> OffPeakWindow.zone("Mars/Olympus")).hasMessageContaining("Mars/Olympus");
    }
}
