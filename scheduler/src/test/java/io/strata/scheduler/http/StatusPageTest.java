package io.strata.scheduler.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.strata.scheduler.metrics.SchedulerMetrics;
import io.strata.scheduler.table.TableHealth;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The status page and the metrics endpoint over HTTP, as a browser and Prometheus see them. */
class StatusPageTest {
    private static final Instant NOW = Instant.parse("2026-12-03T12:00:00Z");

    private HttpServer server;
    private final HttpClient client = HttpClient.newHttpClient();
    private final SchedulerMetrics metrics = new SchedulerMetrics(4);

    private static StatusView view() {
        List<TableHealth.Bucket> buckets = new ArrayList<>();
        for (int b = 0; b < 20; b++) {
            buckets.add(new TableHealth.Bucket("dt=2026-12-01", b, b == 3 ? 9 : 2, b == 3 ? 8 : 1, 3, 3 << 20));
        }
        TableHealth orders = new TableHealth("db.orders", 42, 12, 3, 60, 60L << 20, buckets);
        StatusView.Run lastExpire = new StatusView.Run(
                "db.orders",
                "expire",
                NOW.minusSeconds(600),
                NOW.minusSeconds(590),
                "SUCCEEDED",
                "expired 5 snapshots");
        StatusView.Run failed = new StatusView.Run(
                "db.<script>alert(1)</script>",
                "orphan-clean",
                NOW.minusSeconds(120),
                NOW.minusSeconds(100),
                "FAILED",
                "table db.x: cannot list s3a://b/wh & <retry>");
        return new StatusView(
                "host-a",
                NOW,
                List.of(
                        new StatusView.TableStatus(
                                "db.orders",
                                Optional.of(orders),
                                Optional.empty(),
                                5,
                                5,
                                false,
                                List.of(
                                        new StatusView.OperationStatus(
                                                "expire", Optional.of(NOW.plusSeconds(3600)), Optional.of(lastExpire)),
                                        new StatusView.OperationStatus(
                                                "full-compaction", Optional.empty(), Optional.empty()))),
                        new StatusView.TableStatus(
                                "db.<script>alert(1)</script>",
                                Optional.empty(),
                                Optional.of("snapshot 7 cannot be read"),
                                5,
                                5,
                                true,
                                List.of())),
                List.of(new StatusView.RunningOperation("db.orders", "compaction", NOW.minusSeconds(75), "host-a")),
                List.of(failed));
    }

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", MetricsHandler.statusPage(StatusPageTest::view));
        server.createContext("/metrics", MetricsHandler.metrics(metrics));
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private HttpResponse<String> get(String path, String method) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
        return client.send(
                HttpRequest.newBuilder(uri)
                        .method(method, HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void thePageShowsBacklogRunsAndFailuresAndEscapesWhatItQuotes() throws Exception {
        HttpResponse<String> r = get("/", "GET");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).contains("text/html; charset=utf-8");
        String html = r.body();
        assertThat(html)
                .startsWith("<!DOCTYPE html>")
                .contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .contains("<h3>db.orders</h3>")
                .contains("snapshot 42 &middot; 12 snapshots retained &middot; 60 files, 60.0 MiB")
                .contains("1 of 20 buckets over 5 sorted runs, 1 over 5 level-0 files")
                .contains("<td>3</td><td class=\"over\">9</td>")
                .contains("4 more buckets, fewer sorted runs")
                .contains("2026-12-03 13:00:00Z (in 1 h 0 min)")
                .contains("<span class=\"ok\">succeeded</span> expired 5 snapshots")
                .contains("<td>compaction</td><td>2026-12-03 11:58:45Z (1 min)</td><td>host-a</td>")
                .contains("table db.x: cannot list s3a://b/wh &amp; &lt;retry&gt;")
                .contains("db.&lt;script&gt;alert(1)&lt;/script&gt; <span class=\"muted\">(paused)</span>")
                .contains("last poll failed: snapshot 7 cannot be read")
                .doesNotContain("<script>")
                .doesNotContain("src=")
                .doesNotContain("href=");
        assertThat(html.indexOf("<tr><td>dt=2026-12-01</td><td>3</td>"))
                .as("the worst bucket is listed first")
                .isLessThan(html.indexOf("<tr><td>dt=2026-12-01</td><td>0</td>"));
    }

    @Test
    void metricsAreServedInThePrometheusTextFormat() throws Exception {
        metrics.setQueue(2, 1);
        HttpResponse<String> r = get("/metrics", "GET");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/plain; version=0.0.4");
        assertThat(r.body()).contains("strata_scheduler_queue_length 2.0");
    }

    @Test
    void otherPathsAndMethodsAreRefused() throws Exception {
        assertThat(get("/nope", "GET").statusCode()).isEqualTo(404);
        HttpResponse<String> post = get("/", "POST");
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("Allow")).contains("GET, HEAD");
        assertThat(get("/metrics", "HEAD").statusCode()).isEqualTo(200);
    }
}
