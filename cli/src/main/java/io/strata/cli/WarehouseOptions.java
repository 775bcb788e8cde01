package io.strata.cli;

import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import picocli.CommandLine.Option;

/** {@code --warehouse} and {@code --table}, shared by the commands. */
public final class WarehouseOptions {
    @Option(
            names = "--warehouse",
            defaultValue = "./warehouse",
            paramLabel = "URI",
            description = "Warehouse location: a local path or any Hadoop FileSystem URI (file://, hdfs://, s3a://). "
                    + "Default: ${DEFAULT-VALUE}")
    String warehouse;

    @Option(
            names = "--table",
            required = true,
            paramLabel = "DB.NAME",
            description = "The table, as <database>.<table>.")
    String table;

    Catalog catalog() {
        return Catalog.open(warehouse);
    }

    FileStoreTable openTable() {
        return catalog().getTable(table);
    }

    String database() {
        return Catalog.splitIdentifier(table)[0];
    }

    String tableName() {
        return Catalog.splitIdentifier(table)[1];
    }
}
