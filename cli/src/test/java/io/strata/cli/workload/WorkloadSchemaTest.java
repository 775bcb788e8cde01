package io.strata.cli.workload;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WorkloadSchemaTest {

    @Test
    void schemaJsonNamesEveryColumnTheKeyAndTheTableOptions() {
        String json = WorkloadSchema.schemaJson();

        assertThat(json)
                .contains("{\"name\": \"id\", \"type\": \"BIGINT\", \"nullable\": false}")
                .contains("{\"name\": \"payload\", \"type\": \"STRING\", \"nullable\": true}")
                .contains("\"primaryKey\": [\"id\"]")
                .contains("\"bucket\": \"4\"")
                .contains("\"file.compression.zstd-level\": \"1\"");
        assertThat(WorkloadSchema.COLUMNS.get(WorkloadSchema.ID).typeText()).isEqualTo("BIGINT NOT NULL");
        assertThat(WorkloadSchema.COLUMNS.get(WorkloadSchema.TS).name()).isEqualTo("ts");
    }
}
