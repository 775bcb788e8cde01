package io.strata.scheduler.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code configs/grafana/strata-scheduler.json} loads as a dashboard, and every metric its queries
 * name is one the scheduler exports (a renamed metric would leave a panel silently empty).
 */
class GrafanaDashboardTest {
    private static final Path DASHBOARD = Path.of("..", "configs", "grafana", "strata-scheduler.json")
            .toAbsolutePath()
            .normalize();

    @Test
    void everyPanelQueriesAnExportedMetric() throws Exception {
        Set<String> exported = ExportedMetrics.ofAScheduler();

        JsonNode d = new ObjectMapper().readTree(DASHBOARD.toFile());
        assertThat(d.get("uid").asText()).isEqualTo("strata-scheduler");
        assertThat(d.get("panels")).isNotEmpty();
        Set<String> queried = new HashSet<>();
        for (JsonNode panel : d.get("panels")) {
            String title = panel.get("title").asText();
            assertThat(title).isNotBlank();
            assertThat(panel.get("targets")).as(title).isNotEmpty();
            for (JsonNode target : panel.get("targets")) {
                Set<String> named =
                        ExportedMetrics.mentionedIn(target.get("expr").asText());
                assertThat(named)
                        .as("panel '%s' queries a strata metric", title)
                        .isNotEmpty();
                for (String metric : named) {
                    assertThat(exported)
                            .as("panel '%s' queries %s", title, metric)
                            .contains(metric);
                }
                queried.addAll(named);
            }
        }
        Set<String> tableVariable =
                ExportedMetrics.mentionedIn(d.at("/templating/list/1/query").asText());
        assertThat(tableVariable)
                .as("the table variable's query names a metric")
                .isNotEmpty();
        assertThat(exported).containsAll(tableVariable);
        assertThat(queried).as("the dashboard shows the backlog").contains("strata_table_buckets_over_threshold");
    }
}
