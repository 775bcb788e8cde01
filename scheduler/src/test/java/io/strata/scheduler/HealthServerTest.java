package io.strata.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.scheduler.support.SchedulerTests;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code GET /health} on 127.0.0.1: 200 while the service runs, 503 once it has stopped. */
class HealthServerTest {
    @TempDir
    Path dir;

    @Test
    void healthFollowsTheServiceState() throws Exception {
        var config = SchedulerTests.config(dir.resolve("warehouse"), SchedulerTests.h2Store(dir), "");
        SchedulerService service =
                SchedulerService.start(config, SchedulerTests.noCompactions(), Clock.systemUTC(), o -> {});
        try (HealthServer health = HealthServer.start(0, service)) {
            HttpClient http = HttpClient.newHttpClient();
            HttpRequest get = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + health.port() + "/health"))
                    .build();
            HttpResponse<String> up = http.send(get, HttpResponse.BodyHandlers.ofString());
            assertThat(up.statusCode()).isEqualTo(200);
            assertThat(up.body()).isEqualTo("{\"status\":\"running\",\"schedules\":0,\"running\":0}\n");
            service.close();
            HttpResponse<String> down = http.send(get, HttpResponse.BodyHandlers.ofString());
            assertThat(down.statusCode()).isEqualTo(503);
            assertThat(down.body()).contains("\"status\":\"stopped\"");
            HttpResponse<String> post = http.send(
                    HttpRequest.newBuilder(get.uri())
                            .POST(HttpRequest.BodyPublishers.noBody())
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(post.statusCode()).isEqualTo(405);
        } finally {
            service.close();
        }
    }
}
