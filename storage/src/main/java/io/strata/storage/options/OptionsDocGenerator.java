package io.strata.storage.options;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Generates docs/OPTIONS.md from the option declarations. Run as a main with the output path;
 * {@code OptionsDocTest} fails when the committed file differs from what this generates.
 */
public final class OptionsDocGenerator {
    private OptionsDocGenerator() {}

    public static String generate() {
        StringBuilder sb = new StringBuilder();
        sb.append("# Table options\n\n")
                .append(
                        "Generated from the option declarations in `storage/src/main/java/io/strata/storage/options/` by\n")
                .append("`OptionsDocGenerator`; a test fails when this file is out of date. Options are set at table\n")
                .append("creation (`strata create --option k=v`, or `options` in the schema file). Unknown keys are\n")
                .append("rejected with the list of known ones.\n\n")
                .append("A run may set some of them for itself: `strata gen --option k=v` on an existing table, the\n")
                .append("compaction job's `--table-option k=v` (also `strata compact --table-option`), and\n")
                .append(
                        "`FileStoreTable.copyWithOptions` in the Java API. The column *per run* says which: `yes` for\n")
                .append("what tunes one run (memory, local disk, file sizes, compaction triggers, retries); `no` for\n")
                .append("what defines the table's commit protocol or what its files mean. A run that sets a `no`\n")
                .append("option to another value than the table's is refused with an error naming the option, the\n")
                .append("table and the table's value; setting it to the table's value is accepted.\n\n")
                .append("The column *range* gives the values accepted. A value out of its range, or a set of\n")
                .append("options that breaks a rule between options (listed at the end), is refused when a table is\n")
                .append("created, when a table whose stored options break them is opened (naming the table, the\n")
                .append("schema file and the option; nothing is changed), and when a run starts with its options.\n");
        for (Class<?> group : OptionRegistry.GROUPS) {
            sb.append("\n## ")
                    .append(group.getSimpleName().replace("Options", ""))
                    .append("\n\n");
            sb.append(
                    "| key | type | default | range | per run | description |\n| --- | --- | --- | --- | --- | --- |\n");
            for (ConfigOption<?> o : OptionRegistry.optionsOf(group)) {
                sb.append("| `")
                        .append(o.key())
                        .append("` | ")
                        .append(o.typeName())
                        .append(" | `")
                        .append(o.defaultText())
                        .append("` | ")
                        .append(o.rangeText() == null ? "-" : cell(o.rangeText()))
                        .append(" | ")
                        .append(perRun(o.scope()))
                        .append(" | ")
                        .append(cell(o.description()))
                        .append(" |\n");
            }
        }
        sb.append("\n## Per-field options\n\n")
                .append("| key | default | per run | description |\n| --- | --- | --- | --- |\n");
        for (PatternOption p : OptionRegistry.PATTERNS) {
            sb.append("| `")
                    .append(p.form())
                    .append("` | `")
                    .append(p.defaultText())
                    .append("` | ")
                    .append(perRun(p.scope()))
                    .append(" | ")
                    .append(cell(p.description()))
                    .append(" |\n");
        }
        sb.append("\n## Rules between options\n\n")
                .append("Checked on the table's options with a run's options on top; an unset option counts with\n")
                .append("its default.\n\n");
        for (String rule : OptionRules.texts()) {
            sb.append("- ").append(rule).append("\n");
        }
        return sb.toString();
    }

    private static String perRun(ConfigOption.Scope scope) {
        return scope == ConfigOption.Scope.RUN ? "yes" : "no";
    }

    private static String cell(String text) {
        return text.replace("|", "\\|");
    }

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args.length > 0 ? args[0] : "docs/OPTIONS.md");
        Files.writeString(out, generate(), StandardCharsets.UTF_8);
    }
}
