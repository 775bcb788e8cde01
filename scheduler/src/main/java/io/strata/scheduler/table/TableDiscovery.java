package io.strata.scheduler.table;

import io.strata.scheduler.config.SchedulerConfig.DatabaseSelection;
import io.strata.scheduler.config.SchedulerConfig.TableSelection;
import io.strata.storage.table.Catalog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.TreeSet;

/**
 * The tables of the warehouse a config selects, listed anew on every call so tables are picked up
 * as they are created: the named ones that exist, and those of each selected database whose names
 * pass its patterns. A database or named table that does not exist yet is simply not listed.
 */
public final class TableDiscovery {
    private final Catalog catalog;
    private final TableSelection selection;

    public TableDiscovery(Catalog catalog, TableSelection selection) {
        this.catalog = catalog;
        this.selection = selection;
    }

    /** The selected tables that exist now, as sorted {@code db.name} identifiers. */
    public List<String> discover() {
        TreeSet<String> out = new TreeSet<>();
        for (String name : selection.names()) {
            String[] id = Catalog.splitIdentifier(name);
            if (catalog.tableExists(id[0], id[1])) {
                out.add(name);
            }
        }
        try {
            List<String> databases = catalog.listDatabases();
            for (DatabaseSelection d : selection.databases()) {
                if (!databases.contains(d.name())) {
                    continue;
                }
                for (String t : catalog.listTables(d.name())) {
                    if (d.matches(t)) {
                        out.add(d.name() + "." + t);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the tables of warehouse " + catalog.warehouse(), e);
        }
        return List.copyOf(out);
    }
}
