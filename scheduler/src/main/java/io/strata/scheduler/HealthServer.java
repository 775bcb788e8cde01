package io.strata.scheduler;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.strata.scheduler.http.MetricsHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * The service's HTTP endpoints on 127.0.0.1 (JDK HttpServer): {@code GET /health}, 200 with
 * {@code {"status":"running",...}} while the service runs and 503 with its state once shutdown has
 * begun; {@code GET /metrics} (Prometheus) and {@code GET /} (the status page, built per request).
 */
public final class HealthServer implements AutoCloseable {
    private final HttpServer server;

    private HealthServer(HttpServer server) {
        this.server = server;
    }

    /** Serves the health of {@code service} on {@code port} (0: any free port). */
    public static HealthServer start(int port, SchedulerService service) throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
        http.createContext("/health", exchange -> respond(exchange, service));
        http.createContext("/metrics", MetricsHandler.metrics(service.metrics()));
        http.createContext("/", MetricsHandler.statusPage(service::statusView));
        http.start();
        return new HealthServer(http);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private static void respond(HttpExchange exchange, SchedulerService service) throws IOException {
        try (exchange) {
            if (!"GET".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            SchedulerService.State state = service.state();
            String body = "{\"status\":\"" + state.name().toLowerCase() + "\",\"schedules\":"
                    + service.schedules().size() + ",\"running\":"
                    + service.guard().running() + "}\n";
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(state == SchedulerService.State.RUNNING ? 200 : 503, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
