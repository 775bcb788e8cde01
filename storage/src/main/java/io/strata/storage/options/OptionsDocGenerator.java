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
    private OptionsDocGenerator() {
    }

    public static String generate() {
        StringBuilder sb = new StringBuilder();
        sb.append("# Table options\n\n")
          .append("Generated from the option declarations in `storage/src/main/java/io/strata/storage/options/` by\n")
          .append("`OptionsDocGenerator`; a test fails when this file is out of date. Options are set at table\n")
          .append("creation (`strata create --option k=v`, or `options` in the schema file) and can be overridden\n")
          .append("per job. Unknown keys are rejected with the list of known ones.\n");
        for (Class<?> group : OptionRegistry.GROUPS) {
            sb.append("\n## ").append(group.getSimpleName().replace("Options", "")).append("\n\n");
            sb.append("| key | type | default | description |\n| --- | --- | --- | --- |\n");
            for (ConfigOption<?> o : OptionRegistry.optionsOf(group)) {
                sb.append("| `").append(o.key()).append("` | ").append(o.typeName()).append(" | `")
                  .append(o.defaultText()).append("` | ").append(o.description().replace("|", "\\|")).append(" |\n");
            }
        }
        sb.append("\n## Per-field options\n\n")
          .append("| key | description |\n| --- | --- |\n")
          .append("| `").append(MergeOptions.AGGREGATE_FUNCTION_PATTERN).append("` | aggregation: the function of a ")
          .append("value field: sum, min, max, last_value, last_non_null_value (default), first_value, listagg, ")
          .append("bool_and, bool_or, count. See docs/FORMAT.md. |\n")
          .append("| `").append(MergeOptions.IGNORE_RETRACT_PATTERN).append("` | aggregation: ignore -U/-D for this ")
          .append("field instead of failing when its function cannot retract. |\n");
        return sb.toString();
    }

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args.length > 0 ? args[0] : "docs/OPTIONS.md");
        Files.writeString(out, generate(), StandardCharsets.UTF_8);
    }
}
