package io.strata.scheduler.table;

import io.strata.scheduler.config.SchedulerConfig;
import io.strata.scheduler.config.SchedulerConfig.DatabaseSelection;
import io.strata.storage.table.Catalog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The start-up check of what a config names against the warehouse: a misspelt table or database
 * stops start-up with the key's line and column instead of a scheduler that silently manages
 * nothing. Against a warehouse that holds a database, every selected database, every named table
 * and every table with an override must exist, and every override must be of a selected table.
 * A warehouse with no database yet (a fresh one) passes: the service waits for its tables and
 * picks them up as they are created, as it does for new tables of a selected database.
 */
public final class SelectionCheck {
    /** How many existing names an error lists. */
    private static final int LISTED = 20;

    private SelectionCheck() {}

    /** Throws the {@link io.strata.scheduler.config.ConfigException} of the first name that does not resolve. */
    public static void check(SchedulerConfig config, Catalog catalog) {
        List<String> databases = list(catalog, () -> catalog.listDatabases());
        if (databases.isEmpty()) {
            return;
        }
        List<DatabaseSelection> selected = config.tables().databases();
        for (int i = 0; i < selected.size(); i++) {
            String db = selected.get(i).name();
            if (!databases.contains(db)) {
                throw config.error(
                        "tables.databases[" + i + "].name",
                        "database '" + db + "' does not exist in warehouse " + catalog.warehouse() + " (its databases: "
                                + shown(databases) + ")");
            }
        }
        List<String> names = config.tables().names();
        for (int i = 0; i < names.size(); i++) {
            String reason = missing(catalog, databases, names.get(i));
            if (reason != null) {
                throw config.error("tables.names[" + i + "]", reason);
            }
        }
        for (String table : config.overrides().keySet()) {
            String key = "overrides." + table;
            String reason = missing(catalog, databases, table);
            if (reason != null) {
                throw config.error(key, reason);
            }
            String[] id = Catalog.splitIdentifier(table);
            boolean isSelected = names.contains(table)
                    || selected.stream().anyMatch(d -> d.name().equals(id[0]) && d.matches(id[1]));
            if (!isSelected) {
                throw config.error(
                        key,
                        "table '" + table + "' is not selected by tables.names or tables.databases, so this "
                                + "override would never apply");
            }
        }
    }

    /** Why {@code table} does not resolve, or null when it exists. */
    private static String missing(Catalog catalog, List<String> databases, String table) {
        String[] id = Catalog.splitIdentifier(table);
        if (!databases.contains(id[0])) {
            return "table '" + table + "': database '" + id[0] + "' does not exist in warehouse " + catalog.warehouse()
                    + " (its databases: " + shown(databases) + ")";
        }
        if (catalog.tableExists(id[0], id[1])) {
            return null;
        }
        List<String> tables = list(catalog, () -> catalog.listTables(id[0]));
        return "table '" + table + "' does not exist in warehouse " + catalog.warehouse() + " (tables of " + id[0]
                + ": " + shown(tables) + ")";
    }

    private static String shown(List<String> names) {
        if (names.isEmpty()) {
            return "none";
        }
        if (names.size() <= LISTED) {
            return String.join(", ", names);
        }
        return String.join(", ", names.subList(0, LISTED)) + " and " + (names.size() - LISTED) + " more";
    }

    private interface Listing {
        List<String> list() throws IOException;
    }

    private static List<String> list(Catalog catalog, Listing listing) {
        try {
            return listing.list();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list warehouse " + catalog.warehouse(), e);
        }
    }
}
