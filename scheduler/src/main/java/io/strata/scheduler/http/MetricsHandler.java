package io.strata.scheduler.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.strata.scheduler.metrics.SchedulerMetrics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * {@code GET /metrics} (Prometheus text format) and {@code GET /} (the status page) for the JDK's
 * HTTP server the service runs; anything else is 404, any method but GET and HEAD 405.
 */
public final class MetricsHandler {
    private MetricsHandler() {}

    public static HttpHandler metrics(SchedulerMetrics metrics) {
        return exchange -> {
            if (!allowed(exchange, "/metrics")) {
                return;
            }
            ByteArrayOutputStream body = new ByteArrayOutputStream(16384);
            metrics.write(body);
            respond(exchange, 200, SchedulerMetrics.contentType(), body.toByteArray());
        };
    }

    public static HttpHandler statusPage(Supplier<StatusView> view) {
        return exchange -> {
            if (!allowed(exchange, "/")) {
                return;
            }
            byte[] body;
            try {
                body = StatusPage.render(view.get()).getBytes(StandardCharsets.UTF_8);
            } catch (RuntimeException e) {
                respond(
                        exchange,
                        500,
                        "text/plain; charset=utf-8",
                        ("status unavailable: " + e).getBytes(StandardCharsets.UTF_8));
                return;
            }
            respond(exchange, 200, "text/html; charset=utf-8", body);
        };
    }

    private static boolean allowed(HttpExchange exchange, String path) throws IOException {
        if (!exchange.getRequestURI().getPath().equals(path)) {
            respond(exchange, 404, "text/plain; charset=utf-8", "not found\n".getBytes(StandardCharsets.UTF_8));
            return false;
        }
        String method = exchange.getRequestMethod();
        if (!method.equals("GET") && !method.equals("HEAD")) {
            exchange.getResponseHeaders().set("Allow", "GET, HEAD");
            respond(exchange, 405, "text/plain; charset=utf-8", "GET only\n".getBytes(StandardCharsets.UTF_8));
            return false;
        }
        return true;
    }

    private static void respond(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", type);
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(status, head ? -1 : body.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
        exchange.close();
    }
}
