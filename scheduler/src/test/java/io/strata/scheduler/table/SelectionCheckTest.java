package io.strata.scheduler.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.scheduler.config.ConfigException;
import io.strata.scheduler.config.ConfigLoader;
import io.strata.scheduler.config.SchedulerConfig;
import io.strata.storage.table.Catalog;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A config naming what the warehouse does not have stops start-up at the key's line. */
class SelectionCheckTest {
    @TempDir
    Path dir;

    private SchedulerConfig config(Path warehouse, String tables) {
        return ConfigLoader.parse("s.yaml", "warehouse: " + warehouse + "\n" + tables);
    }

    private Path warehouseWithTable() {
        Path w = dir.resolve("w");
        TestTables.oneRowTable(w.toString());
        return w;
    }

    @Test
    void existingNamesPass() {
        Path w = warehouseWithTable();
        SelectionCheck.check(
                config(w, "tables:\n  names: [db.t]\n  databases:\n    - name: db\noverrides:\n  db.t: {}\n"),
                Catalog.open(w.toString()));
    }

    @Test
    void aMisspeltTableIsNamedWithItsLineAndTheTablesThere() {
        Path w = warehouseWithTable();
        SchedulerConfig c = config(w, "tables:\n  names:\n    - db.t\n    - db.tt\n");
        assertThatThrownBy(() -> SelectionCheck.check(c, Catalog.open(w.toString())))
                .isInstanceOf(ConfigException.class)
                .hasMessage("s.yaml:5:7: tables.names[1]: table 'db.tt' does not exist in warehouse " + w
                        + " (tables of db: t)");
    }

    @Test
    void aMisspeltDatabaseIsNamedWithTheDatabasesThere() {
        Path w = warehouseWithTable();
        SchedulerConfig c = config(w, "tables:\n  databases:\n    - name: dv\n");
        assertThatThrownBy(() -> SelectionCheck.check(c, Catalog.open(w.toString())))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("s.yaml:4:7: tables.databases[0].name: database 'dv' does not exist")
                .hasMessageEndingWith("(its databases: db)");
        SchedulerConfig named = config(w, "tables:\n  names: [dv.t]\n");
        assertThatThrownBy(() -> SelectionCheck.check(named, Catalog.open(w.toString())))
                .hasMessageContaining("tables.names[0]: table 'dv.t': database 'dv' does not exist");
    }

    @Test
    void anOverrideOfAMissingOrUnselectedTableIsRefused() {
        Path w = warehouseWithTable();
        SchedulerConfig missing = config(w, "tables:\n  databases:\n    - name: db\noverrides:\n  db.x: {}\n");
        assertThatThrownBy(() -> SelectionCheck.check(missing, Catalog.open(w.toString())))
                .hasMessageStartingWith("s.yaml:6:3: overrides.db.x: table 'db.x' does not exist");
        SchedulerConfig unselected =
                config(w, "tables:\n  databases:\n    - name: db\n      exclude: [t]\noverrides:\n  db.t: {}\n");
        assertThatThrownBy(() -> SelectionCheck.check(unselected, Catalog.open(w.toString())))
                .hasMessageStartingWith("s.yaml:7:3: overrides.db.t: table 'db.t' is not selected");
    }

    @Test
    void aFreshWarehouseWaitsForItsTables() {
        Path w = dir.resolve("fresh");
        SelectionCheck.check(
                config(w, "tables:\n  names: [db.t]\n  databases:\n    - name: other\n"), Catalog.open(w.toString()));
        assertThat(new TableDiscovery(
                                Catalog.open(w.toString()),
                                config(w, "tables:\n  names: [db.t]\n").tables())
                        .discover())
                .isEmpty();
    }
}
