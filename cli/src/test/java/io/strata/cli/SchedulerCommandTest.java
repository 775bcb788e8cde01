package io.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.testutil.TestTables;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code strata scheduler validate} in-process; {@code strata scheduler run} as a process stopped by SIGTERM. */
class SchedulerCommandTest {
    @TempDir
    Path dir;

    private Path config(Path warehouse) throws Exception {
        return Files.writeString(dir.resolve("scheduler.yaml"), """
                warehouse: %s
                discovery-interval: 200 ms
                shutdown-timeout: 10s
                tables:
                  databases:
                    - name: db
                defaults:
                  expiration:
                    cron: "0 0 3 * * ?"
                  backlog-compaction:
                    poll-interval: 1h
                """.formatted(warehouse));
    }

    @Test
    void validatePrintsTheTablesAndNextFireTimes() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        TestTables.oneRowTable(warehouse.toString());
        CliRunner.Result r = CliRunner.run(
                "scheduler", "validate", "--config", config(warehouse).toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("is valid").contains("1 tables selected now");
        assertThat(r.out())
                .containsPattern("db\\.t +expiration +cron 0 0 3 \\* \\* \\? Z +20\\d\\d-\\d\\d-\\d\\dT03:00:00Z");
        assertThat(r.out()).contains("backlog-compaction");
        assertThat(Files.exists(warehouse.resolve("_scheduler")))
                .as("validate starts nothing")
                .isFalse();
    }

    @Test
    void validateAcceptsTheSampleConfig() {
        Path sample = Path.of(System.getProperty("strata.repo.root"), "configs", "scheduler.yaml");
        CliRunner.Result r = CliRunner.run("scheduler", "validate", "--config", sample.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("is valid").contains("tables selected now");
    }

    @Test
    void validateNamesAConfigErrorWithItsLine() throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.yaml"), "warehouse: /tmp/w\nretention: 3\n");
        CliRunner.Result r = CliRunner.run("scheduler", "validate", "--config", bad.toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).startsWith("strata: error: bad.yaml:2:1: retention: unknown key 'retention'");
    }

    @Test
    void validateNamesATableTheWarehouseDoesNotHave() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        TestTables.oneRowTable(warehouse.toString());
        Path bad = Files.writeString(
                dir.resolve("typo.yaml"), "warehouse: " + warehouse + "\ntables:\n  names: [db.tt]\n");
        CliRunner.Result r = CliRunner.run("scheduler", "validate", "--config", bad.toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err())
                .startsWith("strata: error: typo.yaml:3:11: tables.names[0]: table 'db.tt' does not exist")
                .contains("(tables of db: t)");
    }

    @Test
    void runServesHealthPicksUpNewTablesAndStopsCleanlyOnSigterm() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        String cp = System.getProperty("strata.cli.classes")
                + File.pathSeparator
                + System.getProperty("strata.cli.runtime.classpath");
        List<String> cmd = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-Djava.io.tmpdir=" + dir,
                "-cp",
                cp,
                "io.strata.cli.StrataCli",
                "scheduler",
                "run",
                "--config",
                config(warehouse).toString(),
                "--port",
                "0");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        List<String> output = java.util.Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<Integer> port = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            Pattern ready = Pattern.compile("health on http://127\\.0\\.0\\.1:(\\d+)/health");
            try (BufferedReader in =
                    new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    output.add(line);
                    Matcher m = ready.matcher(line);
                    if (m.find()) {
                        port.complete(Integer.parseInt(m.group(1)));
                    }
                }
            } catch (java.io.IOException closed) {
                // the process ended
            }
            port.completeExceptionally(new AssertionError("the service did not start: " + output));
        });
        reader.start();
        try {
            HttpClient http = HttpClient.newHttpClient();
            URI health = URI.create("http://127.0.0.1:" + port.get(60, TimeUnit.SECONDS) + "/health");
            HttpResponse<String> h =
                    http.send(HttpRequest.newBuilder(health).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(h.statusCode()).isEqualTo(200);
            assertThat(h.body()).contains("\"status\":\"running\"").contains("\"schedules\":0");

            // a table created while the service runs is picked up by discovery
            TestTables.oneRowTable(warehouse.toString());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            String body = "";
            while (!body.contains("\"schedules\":2") && System.nanoTime() < deadline) {
                Thread.sleep(100);
                body = http.send(HttpRequest.newBuilder(health).build(), HttpResponse.BodyHandlers.ofString())
                        .body();
            }
            assertThat(body).contains("\"schedules\":2");

            // SIGTERM by pid: Process.destroy would also close our end of its output
            assertThat(new ProcessBuilder("kill", "-TERM", String.valueOf(p.pid()))
                            .start()
                            .waitFor())
                    .isZero();
            assertThat(p.waitFor(60, TimeUnit.SECONDS))
                    .as("stopped within the shutdown timeout")
                    .isTrue();
            reader.join(10_000);
        } finally {
            p.destroyForcibly();
        }
        String all;
        synchronized (output) {
            all = String.join("\n", output);
        }
        assertThat(all).contains("strata: scheduler stopping").contains("strata: scheduler stopped cleanly");
        assertThat(all).doesNotContain("Exception");
        assertThat(p.exitValue()).as(all).isEqualTo(143);
    }
}
