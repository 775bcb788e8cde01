package io.strata.storage.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.TableCompactor;
import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import io.strata.storage.fs.CommitLock;
import io.strata.storage.options.CompactionOptions;
import io.strata.storage.options.ConfigOption;
import io.strata.storage.options.OptionRegistry;
import io.strata.storage.options.PatternOption;
import io.strata.storage.options.WriteOptions;
import io.strata.storage.schema.Schema;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Options of one run (FileStoreTable.copyWithOptions): table-defining ones keep the table's value. */
class RunOptionsTest {
    @TempDir
    Path dir;

    /** A lock that excludes nobody: the lock the writers of issue 13 each set for themselves. */
    public static final class NoLock implements CommitLock {
        @Override
        public <T> T runExclusive(String tableLocation, Callable<T> action) throws Exception {
            return action.call();
        }
    }

    @Test
    void aRunCannotReplaceTheTablesCommitLock() {
        FileStoreTable t = TestTables.oneRowTable(dir.toString());
        String lock = t.schema().tableOptions().getRaw("commit.lock.class");
        assertThatThrownBy(() -> t.copyWithOptions(Map.of("commit.lock.class", NoLock.class.getName())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("table db.t")
                .hasMessageContaining("'commit.lock.class'")
                .hasMessageContaining("commit.lock.class=" + lock)
                .hasMessageContaining(NoLock.class.getName());

        FileStoreTable same = t.copyWithOptions(Map.of("commit.lock.class", lock, "write-only", "false"));
        assertThat(same.publisher().describe()).contains(lock);
        try (TableWrite w = same.newWrite("w2");
                TableCommit c = same.newCommit("w2")) {
            w.write(new GenericRow(RowKind.INSERT, 2L, "two"));
            c.commit(1, w.prepareCommit());
        }
        assertThat(TestTables.scan(t)).hasSize(2);

        FileStoreTable unlocked = Catalog.open(dir.toString())
                .createTable(
                        "db",
                        "u",
                        Schema.newBuilder()
                                .column("k", "BIGINT NOT NULL")
                                .primaryKey("k")
                                .build());
        assertThatThrownBy(() -> unlocked.copyWithOptions(Map.of("commit.lock.class", NoLock.class.getName())))
                .hasMessageContaining("table db.u")
                .hasMessageContaining("commit.lock.class=(none)");
    }

    /** A value other than the table's for every table-defining option (a new one must be added here). */
    private static final Map<String, String> OTHER_VALUES = new LinkedHashMap<>();

    static {
        OTHER_VALUES.put("bucket", "3");
        OTHER_VALUES.put("bucket-key", "v");
        OTHER_VALUES.put("file.format", "parquet");
        OTHER_VALUES.put("merge-engine", "partial-update");
        OTHER_VALUES.put("ignore-delete", "true");
        OTHER_VALUES.put("sequence.field", "s");
        OTHER_VALUES.put("partial-update.remove-record-on-delete", "true");
        OTHER_VALUES.put("aggregation.remove-record-on-delete", "false");
        OTHER_VALUES.put("num-levels", "9");
        OTHER_VALUES.put("changelog-producer", "input");
        OTHER_VALUES.put("commit.lock.class", NoLock.class.getName());
        OTHER_VALUES.put("commit.lock.jdbc.url", "jdbc:h2:mem:another-lock-database");
        OTHER_VALUES.put("fields.v.aggregate-function", "max");
        OTHER_VALUES.put("fields.v.ignore-retract", "false");
        OTHER_VALUES.put("fields.v.sequence-group", "s");
        OTHER_VALUES.put("fields.v.distinct", "true");
    }

    private FileStoreTable aggregationTable() {
        return Catalog.open(dir.toString())
                .createTable(
                        "db",
                        "agg",
                        Schema.newBuilder()
                                .column("k", "BIGINT NOT NULL")
                                .column("v", "BIGINT")
                                .column("s", "BIGINT")
                                .primaryKey("k")
                                .option("bucket", "2")
                                .option("merge-engine", "aggregation")
                                .option("aggregation.remove-record-on-delete", "true")
                                .option("fields.v.aggregate-function", "sum")
                                .option("fields.v.ignore-retract", "true")
                                .build());
    }

    @Test
    void everyTableDefiningOptionIsRefusedWithAnotherValueNamingTableOptionAndValue() {
        Set<String> tableDefining = new HashSet<>();
        OptionRegistry.all().values().stream()
                .filter(o -> o.scope() == ConfigOption.Scope.TABLE)
                .forEach(o -> tableDefining.add(o.key()));
        for (PatternOption p : OptionRegistry.PATTERNS) {
            if (p.scope() == ConfigOption.Scope.TABLE) {
                tableDefining.add(p.form().replace("<field>", "v"));
            }
        }
        tableDefining.remove("file.format"); // one format only: no other value exists
        Set<String> tested = new HashSet<>(OTHER_VALUES.keySet());
        tested.remove("file.format");
        assertThat(tested).as("a test value for every table-defining option").isEqualTo(tableDefining);

        FileStoreTable t = aggregationTable();
        for (String key : tableDefining) {
            String value = OTHER_VALUES.get(key);
            assertThatThrownBy(() -> t.copyWithOptions(Map.of(key, value)))
                    .as(key)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("table db.agg")
                    .hasMessageContaining("'" + key + "'")
                    .hasMessageContaining("defines the table")
                    .hasMessageContaining("'" + value + "'");
        }
        assertThatThrownBy(() -> t.copyWithOptions(Map.of("bucket", "3"))).hasMessageContaining("bucket=2");
        assertThatThrownBy(() -> t.copyWithOptions(Map.of("merge-engine", "partial-update")))
                .hasMessageContaining("merge-engine=aggregation");
        assertThatThrownBy(() -> t.copyWithOptions(Map.of("fields.v.aggregate-function", "max")))
                .hasMessageContaining("fields.v.aggregate-function=sum");
        assertThatThrownBy(() -> t.copyWithOptions(Map.of("fields.s.aggregate-function", "sum")))
                .as("unset: the default function")
                .hasMessageContaining("fields.s.aggregate-function=last_non_null_value");
    }

    @Test
    void theTablesOwnValuesAreAcceptedInAnyForm() {
        FileStoreTable t = aggregationTable();
        FileStoreTable same = t.copyWithOptions(Map.of(
                "bucket",
                " 2",
                "merge-engine",
                "AGGREGATION",
                "fields.v.aggregate-function",
                "SUM",
                "fields.s.aggregate-function",
                "last_non_null_value",
                "changelog-producer",
                "none",
                "num-levels",
                "6",
                "file.format",
                "parquet"));
        assertThat(same.schema().numBuckets()).isEqualTo(2);
    }

    @Test
    void perRunOptionsApplyAndATriggerOfTheRunKeepsTheTablesLevels() {
        FileStoreTable t = aggregationTable();
        FileStoreTable run = t.copyWithOptions(Map.of(
                "write-buffer-size",
                "64 mb",
                "write-only",
                "true",
                "num-sorted-run.compaction-trigger",
                "10",
                "commit.max-retries",
                "3",
                "file.compression",
                "snappy"));
        assertThat(run.schema().tableOptions().get(WriteOptions.WRITE_BUFFER_SIZE))
                .isEqualTo(64L << 20);
        assertThat(run.schema().tableOptions().get(CompactionOptions.COMPACTION_TRIGGER))
                .isEqualTo(10);
        assertThat(TableCompactor.numLevels(t.schema().tableOptions())).isEqualTo(6);
        assertThat(TableCompactor.numLevels(run.schema().tableOptions()))
                .as("the levels (and the top level full compactions write) stay the table's")
                .isEqualTo(6);
        assertThat(t.schema().tableOptions().get(CompactionOptions.COMPACTION_TRIGGER))
                .as("the table is unchanged")
                .isEqualTo(5);
    }
}
