package io.strata.compaction.maintenance;

import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;

/**
 * How the subtasks of a maintenance job open the table: shipped with the job, called once per
 * subtask when it starts (and once on the driver, for the table's name and options).
 */
@FunctionalInterface
public interface TableOpener extends Serializable {
    FileStoreTable open();

    /** The table {@code identifier} of {@code warehouse}, with {@code options} for this run (none: the table's). */
    static TableOpener of(String warehouse, String identifier, Map<String, String> options) {
        HashMap<String, String> run = new HashMap<>(options);
        return () -> {
            FileStoreTable t = Catalog.open(warehouse).getTable(identifier);
            return run.isEmpty() ? t : t.copyWithOptions(run);
        };
    }
}
