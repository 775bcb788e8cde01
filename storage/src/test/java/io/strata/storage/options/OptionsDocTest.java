package io.strata.storage.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OptionsDocTest {

    @Test
    void docsOptionsIsGeneratedFromTheDeclarations() throws Exception {
        Path doc = Path.of("..", "docs", "OPTIONS.md");
        assertThat(Files.readString(doc, StandardCharsets.UTF_8))
                .as("docs/OPTIONS.md is out of date: regenerate it with bin/generate-docs")
                .isEqualTo(OptionsDocGenerator.generate());
        for (String key : OptionRegistry.all().keySet()) {
            assertThat(OptionsDocGenerator.generate()).contains("`" + key + "`");
        }
    }

    @Test
    void docsSayForEveryOptionWhetherARunMaySetIt() {
        String doc = OptionsDocGenerator.generate();
        for (ConfigOption<?> o : OptionRegistry.all().values()) {
            assertThat(perRunCell(doc, o.key(), 4))
                    .as(o.key())
                    .isEqualTo(o.scope() == ConfigOption.Scope.RUN ? "yes" : "no");
        }
        for (PatternOption p : OptionRegistry.PATTERNS) {
            assertThat(perRunCell(doc, p.form(), 2)).as(p.form()).isEqualTo("no");
        }
        assertThat(perRunCell(doc, "commit.lock.class", 4)).isEqualTo("no");
        assertThat(perRunCell(doc, "bucket", 4)).isEqualTo("no");
        assertThat(perRunCell(doc, "write-buffer-size", 4)).isEqualTo("yes");
    }

    @Test
    void docsStateEveryOptionsRangeAndTheRulesBetweenOptions() {
        String doc = OptionsDocGenerator.generate();
        for (ConfigOption<?> o : OptionRegistry.all().values()) {
            assertThat(perRunCell(doc, o.key(), 3)).as(o.key()).isEqualTo(o.rangeText() == null ? "-" : o.rangeText());
        }
        assertThat(perRunCell(doc, "num-sorted-run.compaction-trigger", 3)).isEqualTo("between 1 and 1000");
        assertThat(perRunCell(doc, "target-file-size", 3)).isEqualTo("> 0");
        assertThat(doc)
                .contains("## Rules between options")
                .contains("- `num-sorted-run.stop-trigger` >= `num-sorted-run.compaction-trigger`")
                .contains("- `snapshot.num-retained.max` >= `snapshot.num-retained.min`");
    }

    /** The cell at {@code column} (0: the key) of the table row of {@code key}. */
    private static String perRunCell(String doc, String key, int column) {
        for (String line : doc.split("\n")) {
            if (line.startsWith("| `" + key + "` |")) {
                return line.split(" \\| ")[column].trim();
            }
        }
        throw new AssertionError("no row for " + key);
    }

    @Test
    void unknownOptionIsRejectedWithTheKnownOnes() {
        assertThatThrownBy(() -> TableOptions.validate("table db.t", Map.of("bukcet", "4")))
                .hasMessageContaining("table db.t")
                .hasMessageContaining("'bukcet'")
                .hasMessageContaining("bucket")
                .hasMessageContaining("write-buffer-size");
    }

    @Test
    void typedValuesParse() {
        TableOptions o = TableOptions.validate(
                "t",
                Map.of("write-buffer-size", "64 mb", "commit.min-retry-wait", "2 s", "merge-engine", "partial-update"));
        assertThat(o.get(WriteOptions.WRITE_BUFFER_SIZE)).isEqualTo(64L << 20);
        assertThat(o.get(CommitOptions.MIN_RETRY_WAIT)).isEqualTo(Duration.ofSeconds(2));
        assertThat(o.get(MergeOptions.MERGE_ENGINE)).isEqualTo(MergeOptions.MergeEngine.PARTIAL_UPDATE);
        assertThat(o.get(BucketOptions.BUCKET)).isEqualTo(1);
        assertThatThrownBy(() -> TableOptions.validate("t", Map.of("merge-engine", "dedup")))
                .hasMessageContaining("merge-engine")
                .hasMessageContaining("deduplicate");
    }
}
