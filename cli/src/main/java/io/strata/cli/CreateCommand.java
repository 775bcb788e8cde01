package io.strata.cli;

import io.strata.storage.schema.Schema;
import io.strata.storage.schema.SchemaFiles;
import io.strata.storage.table.FileStoreTable;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code strata create}: a table from a JSON or YAML schema file. */
@Command(
        name = "create",
        mixinStandardHelpOptions = true,
        description = "Create a table from a schema file (JSON, or YAML with .yaml/.yml).")
final class CreateCommand implements Callable<Integer> {
    @Mixin
    WarehouseOptions target;

    @Spec
    CommandSpec spec;

    @Option(
            names = "--schema-file",
            required = true,
            paramLabel = "FILE",
            description = "fields (name, type, nullable), primaryKey, partitionKeys, options.")
    Path schemaFile;

    @Option(names = "--option", paramLabel = "KEY=VALUE", description = "Table option; overrides the schema file.")
    Map<String, String> options = new LinkedHashMap<>();

    @Override
    public Integer call() {
        Schema schema = SchemaFiles.read(schemaFile).withOptions(options);
        FileStoreTable t = target.catalog().createTable(target.database(), target.tableName(), schema);
        spec.commandLine()
                .getOut()
                .println("created table " + t.name() + " at " + t.paths().root()
                        + " (schema " + t.schema().id() + ", "
                        + t.schema().fields().size() + " columns, "
                        + t.schema().numBuckets() + " buckets)");
        return 0;
    }
}
