package io.strata.scheduler.metrics;

import io.strata.scheduler.table.TableHealth;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names the scheduler's {@code /metrics} exports, and the {@code strata_} metric names
 * a text (a dashboard query, a runbook page) mentions: for tests that a text names only metrics
 * that exist, since a renamed metric leaves a panel or an alert silently empty.
 */
public final class ExportedMetrics {
    private static final Pattern METRIC = Pattern.compile("\\bstrata_[a-z0-9_]+");

    private ExportedMetrics() {}

    /**
     * The names a query may use against a scheduler that has seen one table's health, one run and
     * one held lease (so every family has a sample): each family's name, and for a counter also
     * its {@code _total} sample name.
     */
    public static Set<String> ofAScheduler() {
        SchedulerMetrics m = new SchedulerMetrics(1);
        m.update(new TableHealth("db.t", 1, 1, 0, 1, 1, List.of(new TableHealth.Bucket("", 0, 1, 1, 1, 1))), 5, 5);
        m.recordRun("db.t", "expiration", "succeeded", Duration.ofSeconds(1), Instant.now(), true);
        m.setLeases(List.of(new SchedulerMetrics.HeldLease("db.t", "expiration", "me")));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            m.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return inScrape(out.toString(StandardCharsets.UTF_8));
    }

    /** The names of a Prometheus text scrape's families ({@code # TYPE} lines), with {@code _total} for counters. */
    public static Set<String> inScrape(String scrape) {
        Set<String> names = new HashSet<>();
        for (String line : scrape.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                String[] words = line.split(" ");
                names.add(words[2]);
                if (words[3].equals("counter")) {
                    names.add(words[2] + "_total");
                }
            }
        }
        return names;
    }

    /** The {@code strata_} metric names {@code text} mentions, in the order it first mentions them. */
    public static Set<String> mentionedIn(String text) {
        Set<String> named = new LinkedHashSet<>();
        Matcher x = METRIC.matcher(text);
        while (x.find()) {
            named.add(x.group());
        }
        return named;
    }
}
