package io.strata.scheduler.http;

import io.strata.scheduler.table.TableHealth;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The scheduler's status page: one self-contained HTML document (inline style, no script, no
 * external asset) with the tables and their backlog per bucket, next and last runs, the running
 * operations and the recent failures. Narrow screens get one column. Every value from a table,
 * an error or the configuration is escaped.
 */
public final class StatusPage {
    /** Buckets listed per table, the worst first: a page stays readable for tables of thousands of buckets. */
    static final int BUCKETS_SHOWN = 16;

    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

    private StatusPage() {}

    public static String render(StatusView v) {
        StringBuilder h = new StringBuilder(8192);
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<title>Strata scheduler ")
                .append(esc(v.schedulerId()))
                .append("</title><style>")
                .append("body{font:14px/1.4 system-ui,sans-serif;margin:1em;color:#222}")
                .append("h1{font-size:1.3em}h2{font-size:1.1em;margin-top:1.5em}")
                .append("table{border-collapse:collapse;margin:.5em 0;width:100%}")
                .append("td,th{border-bottom:1px solid #ddd;padding:.25em .5em;text-align:left;vertical-align:top}")
                .append(".over{color:#b00;font-weight:600}.ok{color:#070}.failed{color:#b00}.muted{color:#777}")
                .append(".table{border:1px solid #ccc;border-radius:6px;padding:.5em 1em;margin:1em 0}")
                .append("@media(max-width:600px){td,th{display:block;border:0;padding:.1em 0}tr{display:block;")
                .append("border-bottom:1px solid #ddd;padding:.3em 0}thead{display:none}}")
                .append("</style></head><body>\n");
        h.append("<h1>Strata scheduler <span class=\"muted\">")
                .append(esc(v.schedulerId()))
                .append("</span></h1><p class=\"muted\">")
                .append(TIME.format(v.now()))
                .append(" &middot; ")
                .append(v.tables().size())
                .append(" tables &middot; ")
                .append(v.running().size())
                .append(" running</p>\n");

        h.append("<h2>Running</h2>");
        if (v.running().isEmpty()) {
            h.append("<p class=\"muted\">nothing running</p>");
        } else {
            h.append(
                    "<table><thead><tr><th>table</th><th>operation</th><th>since</th><th>lease owner</th></tr></thead>");
            for (StatusView.RunningOperation r : v.running()) {
                h.append("<tr><td>")
                        .append(esc(r.table()))
                        .append("</td><td>")
                        .append(esc(r.operation()))
                        .append("</td><td>")
                        .append(TIME.format(r.start()))
                        .append(" (")
                        .append(ago(Duration.between(r.start(), v.now())))
                        .append(")</td><td>")
                        .append(esc(r.owner()))
                        .append("</td></tr>");
            }
            h.append("</table>");
        }

        h.append("\n<h2>Recent failures</h2>");
        if (v.recentFailures().isEmpty()) {
            h.append("<p class=\"muted\">none</p>");
        } else {
            h.append("<table><thead><tr><th>table</th><th>operation</th><th>ended</th><th>error</th></tr></thead>");
            for (StatusView.Run r : v.recentFailures()) {
                h.append("<tr><td>")
                        .append(esc(r.table()))
                        .append("</td><td>")
                        .append(esc(r.operation()))
                        .append("</td><td>")
                        .append(TIME.format(r.end()))
                        .append("</td><td class=\"failed\">")
                        .append(esc(r.detail()))
                        .append("</td></tr>");
            }
            h.append("</table>");
        }

        h.append("\n<h2>Tables</h2>");
        for (StatusView.TableStatus t : v.tables()) {
            table(h, t, v.now());
        }
        h.append("</body></html>\n");
        return h.toString();
    }

    private static void table(StringBuilder h, StatusView.TableStatus t, Instant now) {
        h.append("<div class=\"table\" id=\"")
                .append(esc(t.table()))
                .append("\"><h3>")
                .append(esc(t.table()));
        if (t.paused()) {
            h.append(" <span class=\"muted\">(paused)</span>");
        }
        h.append("</h3>");
        t.pollError()
                .ifPresent(e -> h.append("<p class=\"failed\">last poll failed: ")
                        .append(esc(e))
                        .append("</p>"));
        if (t.health().isPresent()) {
            TableHealth th = t.health().get();
            long over = th.bucketsOverSortedRuns(t.maxSortedRuns());
            long overL0 = th.bucketsOverLevel0Files(t.maxLevel0Files());
            h.append("<p>snapshot ")
                    .append(th.latestSnapshot())
                    .append(" &middot; ")
                    .append(th.snapshotsRetained())
                    .append(" snapshots retained &middot; ")
                    .append(th.liveFiles())
                    .append(" files, ")
                    .append(bytes(th.liveBytes()))
                    .append(" &middot; <span class=\"")
                    .append(over + overL0 > 0 ? "over" : "ok")
                    .append("\">")
                    .append(over)
                    .append(" of ")
                    .append(th.buckets().size())
                    .append(" buckets over ")
                    .append(t.maxSortedRuns())
                    .append(" sorted runs, ")
                    .append(overL0)
                    .append(" over ")
                    .append(t.maxLevel0Files())
                    .append(" level-0 files</span></p>");
            List<TableHealth.Bucket> worst = th.buckets().stream()
                    .sorted(Comparator.comparingInt(TableHealth.Bucket::sortedRuns)
                            .thenComparingInt(TableHealth.Bucket::level0Files)
                            .reversed())
                    .limit(BUCKETS_SHOWN)
                    .toList();
            if (!worst.isEmpty()) {
                h.append("<table><thead><tr><th>partition</th><th>bucket</th><th>sorted runs</th>")
                        .append("<th>level-0 files</th><th>files</th><th>size</th></tr></thead>");
                for (TableHealth.Bucket b : worst) {
                    boolean hot = b.sortedRuns() > t.maxSortedRuns() || b.level0Files() > t.maxLevel0Files();
                    h.append("<tr><td>")
                            .append(b.partition().isEmpty() ? "-" : esc(b.partition()))
                            .append("</td><td>")
                            .append(b.bucket())
                            .append("</td><td")
                            .append(hot ? " class=\"over\"" : "")
                            .append(">")
                            .append(b.sortedRuns())
                            .append("</td><td>")
                            .append(b.level0Files())
                            .append("</td><td>")
                            .append(b.files())
                            .append("</td><td>")
                            .append(bytes(b.bytes()))
                            .append("</td></tr>");
                }
                h.append("</table>");
                if (th.buckets().size() > worst.size()) {
                    h.append("<p class=\"muted\">")
                            .append(th.buckets().size() - worst.size())
                            .append(" more buckets, fewer sorted runs</p>");
                }
            }
        } else if (t.pollError().isEmpty()) {
            h.append("<p class=\"muted\">not polled yet</p>");
        }
        if (!t.operations().isEmpty()) {
            h.append("<table><thead><tr><th>operation</th><th>next</th><th>last run</th></tr></thead>");
            for (StatusView.OperationStatus o : t.operations()) {
                h.append("<tr><td>")
                        .append(esc(o.operation()))
                        .append("</td><td>")
                        .append(o.nextFire()
                                .map(n -> TIME.format(n) + " (in " + ago(Duration.between(now, n)) + ")")
                                .orElse("-"))
                        .append("</td><td>")
                        .append(lastRun(o.lastRun()))
                        .append("</td></tr>");
            }
            h.append("</table>");
        }
        h.append("</div>\n");
    }

    private static String lastRun(Optional<StatusView.Run> run) {
        if (run.isEmpty()) {
            return "<span class=\"muted\">never</span>";
        }
        StatusView.Run r = run.get();
        String cls = r.outcome().equalsIgnoreCase("succeeded") ? "ok" : "failed";
        return TIME.format(r.end()) + " <span class=\"" + cls + "\">"
                + esc(r.outcome().toLowerCase()) + "</span>"
                + (r.detail().isEmpty() ? "" : " " + esc(r.detail())) + " <span class=\"muted\">("
                + ago(Duration.between(r.start(), r.end())) + ")</span>";
    }

    static String esc(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    static String ago(Duration d) {
        long s = Math.max(0, d.getSeconds());
        if (s < 60) {
            return s + " s";
        }
        if (s < 3600) {
            return s / 60 + " min";
        }
        if (s < 86400) {
            return s / 3600 + " h " + (s % 3600) / 60 + " min";
        }
        return s / 86400 + " d " + (s % 86400) / 3600 + " h";
    }

    static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB"};
        double v = n;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(java.util.Locale.ROOT, "%.1f %s", v, units[u]);
    }
}
