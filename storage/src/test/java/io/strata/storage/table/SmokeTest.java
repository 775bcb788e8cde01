package io.strata.storage.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.data.GenericRow;
import io.strata.storage.schema.Schema;
import io.strata.storage.util.CloseableIterator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SmokeTest {
    @TempDir
    Path dir;

    @Test
    void writeCommitRead() {
        Catalog catalog = Catalog.open(dir.toString());
        FileStoreTable t = catalog.createTable(
                "db",
                "t",
                Schema.newBuilder()
                        .column("id", "BIGINT")
                        .column("v", "STRING")
                        .primaryKey("id")
                        .option("bucket", "2")
                        .build());
        try (TableWrite w = t.newWrite("u");
                var c = t.newCommit("u")) {
            w.write(GenericRow.insert(1L, "a"));
            w.write(GenericRow.insert(2L, "b"));
            c.commit(1, w.prepareCommit());
            w.write(GenericRow.insert(1L, "c"));
            w.write(GenericRow.delete(2L, null));
            c.commit(2, w.prepareCommit());
        }
        List<GenericRow> rows = new ArrayList<>();
        try (CloseableIterator<GenericRow> it = t.newReadBuilder().readAll()) {
            it.forEachRemaining(rows::add);
        }
        assertThat(rows).containsExactly(GenericRow.insert(1L, "c"));
        List<GenericRow> old = new ArrayList<>();
        try (CloseableIterator<GenericRow> it =
                t.newReadBuilder().withSnapshot(1).readAll()) {
            it.forEachRemaining(old::add);
        }
        assertThat(old).containsExactlyInAnyOrder(GenericRow.insert(1L, "a"), GenericRow.insert(2L, "b"));
    }
}
