package io.strata.compaction.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.compact.CompactStrategy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobSpecTest {

    @Test
    void builderDefaultsAreABatchMinorJobOverTheWholeDatabase() {
        JobSpec spec = JobSpec.builder("/wh", "db").build();
        assertThat(spec.warehouse()).isEqualTo("/wh");
        assertThat(spec.database()).isEqualTo("db");
        assertThat(spec.tables()).isEmpty();
        assertThat(spec.includingTables()).isNull();
        assertThat(spec.strategy()).isEqualTo(CompactStrategy.MINOR);
        assertThat(spec.mode()).isEqualTo(JobSpec.Mode.BATCH);
        assertThat(spec.parallelism()).isEqualTo(1);
        assertThat(spec.partialCommitEvery()).isZero();
        assertThat(spec.discoveryIntervalMillis()).isEqualTo(5_000);
        assertThat(spec.checkpointIntervalMillis()).isEqualTo(5_000);
        assertThat(spec.tableOptions()).isEmpty();
        assertThat(spec.commitUser()).startsWith("strata-compaction-");
        assertThat(JobSpec.builder("/wh", "db").build().commitUser())
                .as("a fresh commit user per spec")
                .isNotEqualTo(spec.commitUser());
    }

    @Test
    void builderCarriesEverySetting() {
        JobSpec spec = JobSpec.builder("/wh", "db")
                .tables(List.of("a", "b"))
                .strategy(CompactStrategy.FULL)
                .parallelism(3)
                .partialCommitEvery(7)
                .tableOptions(Map.of("target-file-size", "1 mb"))
                .commitUser("nightly")
                .discoveryInterval(Duration.ofSeconds(2))
                .checkpointInterval(Duration.ofMinutes(1))
                .build();
        assertThat(spec.tables()).containsExactly("a", "b");
        assertThat(spec.strategy()).isEqualTo(CompactStrategy.FULL);
        assertThat(spec.parallelism()).isEqualTo(3);
        assertThat(spec.partialCommitEvery()).isEqualTo(7);
        assertThat(spec.tableOptions()).containsEntry("target-file-size", "1 mb");
        assertThat(spec.commitUser()).isEqualTo("nightly");
        assertThat(spec.discoveryIntervalMillis()).isEqualTo(2_000);
        assertThat(spec.checkpointIntervalMillis()).isEqualTo(60_000);
    }

    @Test
    void buildRejectsContradictionsNamingTheFlag() {
        assertThatThrownBy(() -> JobSpec.builder("/wh", "db")
                        .strategy(CompactStrategy.FULL)
                        .mode(JobSpec.Mode.STREAMING)
                        .build())
                .hasMessageContaining("--strategy full");
        assertThatThrownBy(() -> JobSpec.builder("/wh", "db")
                        .tables(List.of("a"))
                        .includingTables("a.*")
                        .build())
                .hasMessageContaining("--including-tables");
        assertThatThrownBy(() -> JobSpec.builder("/wh", "db").parallelism(0).build())
                .hasMessageContaining("--parallelism");
        assertThatThrownBy(() -> JobSpec.builder("/wh", "db").commitUser(" ").build())
                .hasMessageContaining("--commit-user");
    }
}
