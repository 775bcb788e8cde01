package io.strata.scheduler.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.strata.scheduler.table.TableHealth;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code configs/grafana/strata-scheduler.json} loads as a dashboard, and every metric its queries
 * name is one the scheduler exports (a renamed metric would leave a panel silently empty).
 */
class GrafanaDashboardTest {
    private static final Path DASHBOARD = Path.of("..", "configs", "grafana", "strata-scheduler.json")
            .toAbsolutePath()
            .normalize();
    private static final Pattern METRIC = Pattern.compile("\\bstrata_[a-z0-9_]+");

    @Test
    void everyPanelQueriesAnExportedMetric() throws Exception {
        SchedulerMetrics m = new SchedulerMetrics(1);
        m.update(new TableHealth("db.t", 1, 1, 0, 1, 1, List.of(new TableHealth.Bucket("", 0, 1, 1, 1, 1))), 5, 5);
        m.recordRun("db.t", "expire", "succeeded", Duration.ofSeconds(1), Instant.now(), true);
        m.setLeases(List.of(new SchedulerMetrics.HeldLease("db.t", "expire", "me")));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        m.write(out);
        Set<String> exported = new HashSet<>();
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            if (line.startsWith("# TYPE ")) {
                String name = line.split(" ")[2];
                exported.add(name);
                exported.add(name + "_total");
            }
        }

        JsonNode d = new ObjectMapper().readTree(DASHBOARD.toFile());
        assertThat(d.get("uid").asText()).isEqualTo("strata-scheduler");
        assertThat(d.get("panels")).isNotEmpty();
        Set<String> queried = new HashSet<>();
        for (JsonNode panel : d.get("panels")) {
            assertThat(panel.get("title").asText()).isNotBlank();
            assertThat(panel.get("targets")).as(panel.get("title").asText()).isNotEmpty();
            for (JsonNode target : panel.get("targets")) {
                Matcher x = METRIC.matcher(target.get("expr").asText());
                boolean any = false;
                while (x.find()) {
                    any = true;
                    queried.add(x.group());
                    assertThat(exported)
                            .as("panel '%s' queries %s", panel.get("title").asText(), x.group())
                            .contains(x.group());
                }
                assertThat(any)
                        .as(
                                "panel '%s' queries a strata metric",
                                panel.get("title").asText())
                        .isTrue();
            }
        }
        Matcher tableVariable = METRIC.matcher(d.at("/templating/list/1/query").asText());
        assertThat(tableVariable.find()).isTrue();
        assertThat(exported).contains(tableVariable.group());
        assertThat(queried).as("the dashboard shows the backlog").contains("strata_table_buckets_over_threshold");
    }
}
