package io.strata.storage.changelog;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import io.strata.storage.fs.DelegatingFileIO;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.Rows;
import io.strata.storage.testutil.TestTables;
import io.strata.storage.util.CloseableIterator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.parquet.io.OutputFile;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The changelog holds exactly the changes (docs/DESIGN.md, "Changelog"): a key no new record took
 * effect on emits nothing, whatever the producer and merge engine; and the input changelog of a
 * commit does not depend on where the write buffer spilled.
 */
class ChangelogExactTest {
    @TempDir
    Path dir;

    private int tables;

    /** Table k BIGINT key, a BIGINT, ts BIGINT; one bucket; write-only; compactions by hand. */
    private FileStoreTable table(String... options) {
        Schema.Builder b = Schema.newBuilder()
                .column("k", "BIGINT NOT NULL")
                .column("a", "BIGINT")
                .column("ts", "BIGINT")
                .primaryKey("k")
                .option("bucket", "1")
                .option("write-only", "true");
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        return Catalog.open(dir.toString()).createTable("db", "t" + (tables++), b.build());
    }

    /** Commits {@code rows} as one commit, then compacts with {@code strategy}; returns that round's changelog. */
    private static List<String> commitAndCompact(
            FileStoreTable t, TableWrite w, TableCommit c, long id, CompactStrategy strategy, GenericRow... rows) {
        long before = t.snapshotManager().latestId().orElse(0);
        for (GenericRow r : rows) {
            w.write(r);
        }
        c.commit(id, w.prepareCommit());
        t.newCompactor().compact(strategy, "compactor", id);
        return changelog(t, before);
    }

    private static List<String> changelog(FileStoreTable t, long fromExclusive) {
        List<String> out = new ArrayList<>();
        try (CloseableIterator<GenericRow> it = t.newIncrementalRead()
                .read(fromExclusive, t.snapshotManager().latestId().orElse(0))) {
            it.forEachRemaining(r -> out.add(r.toString()));
        }
        return out;
    }

    private static GenericRow row(RowKind kind, long k, long a, Long ts) {
        return new GenericRow(kind, k, a, ts);
    }

    @Test
    void fullCompactionEmitsOnlyTheKeysThatChanged() {
        FileStoreTable t = table("changelog-producer", "full-compaction");
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            assertThat(commitAndCompact(
                            t,
                            w,
                            c,
                            1,
                            CompactStrategy.FULL,
                            row(RowKind.INSERT, 1, 1, null),
                            row(RowKind.INSERT, 2, 1, null)))
                    .containsExactly("+I(1, 1, null)", "+I(2, 1, null)");
            assertThat(commitAndCompact(t, w, c, 2, CompactStrategy.FULL, row(RowKind.UPDATE_AFTER, 1, 2, null)))
                    .as("key 2 got no record since the previous full compaction")
                    .containsExactly("-U(1, 1, null)", "+U(1, 2, null)");
            assertThat(commitAndCompact(t, w, c, 3, CompactStrategy.FULL, row(RowKind.DELETE, 2, 1, null)))
                    .containsExactly("-D(2, 1, null)");
        }
    }

    @Test
    void firstRowEmitsOnlyTheFirstRowOfAKey() {
        for (String producer : List.of("lookup", "full-compaction")) {
            FileStoreTable t = table("merge-engine", "first-row", "changelog-producer", producer);
            CompactStrategy strategy = producer.equals("lookup") ? CompactStrategy.LOOKUP : CompactStrategy.FULL;
            try (TableWrite w = t.newWrite("w");
                    TableCommit c = t.newCommit("w")) {
                assertThat(commitAndCompact(t, w, c, 1, strategy, row(RowKind.INSERT, 1, 1, null)))
                        .containsExactly("+I(1, 1, null)");
                assertThat(commitAndCompact(
                                t,
                                w,
                                c,
                                2,
                                strategy,
                                row(RowKind.INSERT, 1, 2, null),
                                row(RowKind.INSERT, 2, 7, null),
                                row(RowKind.INSERT, 2, 8, null)))
                        .as("%s: first-row keeps key 1's row; key 2 is new", producer)
                        .containsExactly("+I(2, 7, null)");
            }
            Map<Long, List<Object>> expected = new TreeMap<>();
            expected.put(1L, Arrays.asList(1L, null));
            expected.put(2L, Arrays.asList(7L, null));
            assertThat(Rows.byKey(TestTables.scan(t))).isEqualTo(expected);
        }
    }

    /** A late row that loses against sequence.field does not take effect, so it emits nothing. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"lookup", "full-compaction"})
    void aLateRowThatLosesEmitsNothing(String producer) {
        FileStoreTable t = table("sequence.field", "ts", "changelog-producer", producer);
        CompactStrategy strategy = producer.equals("lookup") ? CompactStrategy.LOOKUP : CompactStrategy.FULL;
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            commitAndCompact(t, w, c, 1, strategy, row(RowKind.INSERT, 1, 1, 5L));
            assertThat(commitAndCompact(t, w, c, 2, strategy, row(RowKind.INSERT, 1, 2, 3L)))
                    .isEmpty();
            assertThat(commitAndCompact(t, w, c, 3, strategy, row(RowKind.DELETE, 1, 2, 4L)))
                    .isEmpty();
            assertThat(commitAndCompact(t, w, c, 4, strategy, row(RowKind.INSERT, 1, 3, 6L)))
                    .containsExactly("-U(1, 1, 5)", "+U(1, 3, 6)");
        }
    }

    /**
     * first-row with sequence.field: the lowest ordering value wins, so a late row with a lower
     * one replaces the winner ({@code -U} old, {@code +U} new), a higher or equal one emits nothing,
     * and a null ordering value orders first (it wins against every non-null one).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"lookup", "full-compaction"})
    void firstRowUnderSequenceFieldEmitsALateLowerRowAsAnUpdate(String producer) {
        FileStoreTable t = table(
                "merge-engine",
                "first-row",
                "ignore-delete",
                "true",
                "sequence.field",
                "ts",
                "changelog-producer",
                producer);
        CompactStrategy strategy = producer.equals("lookup") ? CompactStrategy.LOOKUP : CompactStrategy.FULL;
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            assertThat(commitAndCompact(t, w, c, 1, strategy, row(RowKind.INSERT, 1, 1, 5L)))
                    .containsExactly("+I(1, 1, 5)");
            assertThat(commitAndCompact(t, w, c, 2, strategy, row(RowKind.INSERT, 1, 2, 7L)))
                    .as("a higher ordering value loses")
                    .isEmpty();
            assertThat(commitAndCompact(t, w, c, 3, strategy, row(RowKind.INSERT, 1, 3, 5L)))
                    .as("a tie: the earlier arrival stays")
                    .isEmpty();
            assertThat(commitAndCompact(t, w, c, 4, strategy, row(RowKind.INSERT, 1, 4, 2L)))
                    .as("a late row with a lower ordering value replaces the winner")
                    .containsExactly("-U(1, 1, 5)", "+U(1, 4, 2)");
            assertThat(commitAndCompact(
                            t,
                            w,
                            c,
                            5,
                            strategy,
                            row(RowKind.INSERT, 1, 5, 3L),
                            row(RowKind.INSERT, 1, 6, 1L),
                            row(RowKind.INSERT, 1, 7, 0L)))
                    .as("several rows in one commit: one change, to the lowest")
                    .containsExactly("-U(1, 4, 2)", "+U(1, 7, 0)");
            assertThat(commitAndCompact(t, w, c, 6, strategy, row(RowKind.DELETE, 1, 8, -1L)))
                    .as("ignore-delete drops the retraction")
                    .isEmpty();
            assertThat(commitAndCompact(t, w, c, 7, strategy, row(RowKind.INSERT, 1, 9, null)))
                    .as("null orders first, so it wins")
                    .containsExactly("-U(1, 7, 0)", "+U(1, 9, null)");
            assertThat(commitAndCompact(t, w, c, 8, strategy, row(RowKind.INSERT, 1, 10, null)))
                    .as("a second null is a tie")
                    .isEmpty();
        }
        assertThat(Rows.byKey(TestTables.scan(t))).isEqualTo(Map.of(1L, Arrays.asList(9L, null)));
    }

    /** partial-update ignores -U: nothing took effect. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"lookup", "full-compaction"})
    void anIgnoredRetractionEmitsNothing(String producer) {
        FileStoreTable t = table(
                "merge-engine",
                "partial-update",
                "partial-update.remove-record-on-delete",
                "true",
                "changelog-producer",
                producer);
        CompactStrategy strategy = producer.equals("lookup") ? CompactStrategy.LOOKUP : CompactStrategy.FULL;
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            commitAndCompact(t, w, c, 1, strategy, row(RowKind.INSERT, 1, 1, 5L));
            assertThat(commitAndCompact(t, w, c, 2, strategy, row(RowKind.UPDATE_BEFORE, 1, 1, 5L)))
                    .isEmpty();
        }
    }

    /**
     * A record that takes effect and leaves the row as it was still emits its -U/+U pair unless
     * {@code changelog-producer.row-deduplicate}: the key was written (Paimon does the same).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"lookup", "full-compaction"})
    void anEqualWriteEmitsAPairUnlessRowDeduplicate(String producer) {
        CompactStrategy strategy = producer.equals("lookup") ? CompactStrategy.LOOKUP : CompactStrategy.FULL;
        for (String dedup : List.of("false", "true")) {
            FileStoreTable t = table("changelog-producer", producer, "changelog-producer.row-deduplicate", dedup);
            try (TableWrite w = t.newWrite("w");
                    TableCommit c = t.newCommit("w")) {
                commitAndCompact(t, w, c, 1, strategy, row(RowKind.INSERT, 1, 1, null));
                List<String> equal = commitAndCompact(t, w, c, 2, strategy, row(RowKind.INSERT, 1, 1, null));
                if (dedup.equals("true")) {
                    assertThat(equal).isEmpty();
                } else {
                    assertThat(equal).containsExactly("-U(1, 1, null)", "+U(1, 1, null)");
                }
            }
        }
    }

    /**
     * The input changelog of one commit is sorted by key, then sequence.field, then arrival, as
     * one run, whatever the writer's memory: a consumer applying it in order ends in the table's
     * state (here the later insert wins over the delete with the older ordering value).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"256 mb", "1 b", "1 b, not spillable"})
    void inputChangelogDoesNotDependOnSpills(String memory) {
        FileStoreTable t = table(
                "sequence.field",
                "ts",
                "changelog-producer",
                "input",
                "write-buffer-size",
                memory.split(",")[0],
                "write-buffer-spillable",
                String.valueOf(!memory.contains("not spillable")));
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            w.write(row(RowKind.INSERT, 2, 1, 1L));
            w.write(row(RowKind.INSERT, 1, 1, 2L));
            w.write(row(RowKind.DELETE, 1, 1, 1L));
            w.write(row(RowKind.INSERT, 3, 1, 1L));
            w.write(row(RowKind.UPDATE_AFTER, 1, 5, 2L));
            c.commit(1, w.prepareCommit());
        }
        List<String> changelog = changelog(t, 0);
        assertThat(changelog)
                .as("write-buffer-size %s", memory)
                .containsExactly("-D(1, 1, 1)", "+I(1, 1, 2)", "+U(1, 5, 2)", "+I(2, 1, 1)", "+I(3, 1, 1)");
        Map<Long, List<Object>> applied = new TreeMap<>();
        for (String r : changelog) {
            String[] f = r.substring(3, r.length() - 1).split(", ");
            if (r.startsWith("-")) {
                applied.remove(Long.parseLong(f[0]));
            } else {
                applied.put(Long.parseLong(f[0]), List.of(Long.parseLong(f[1]), Long.parseLong(f[2])));
            }
        }
        assertThat(applied).isEqualTo(Rows.byKey(TestTables.scan(t)));
    }

    /**
     * A commit whose input changelog file cannot be written fails, and keeps the rows: the
     * retried prepareCommit writes the whole changelog, spilled rows included.
     */
    @Test
    void aFailedInputChangelogWriteLosesNoRow() {
        // a test FileIO publishes snapshots only under a commit lock (docs/FORMAT.md)
        FileStoreTable created = table(
                "changelog-producer",
                "input",
                "write-buffer-size",
                "1 b",
                "commit.lock.class",
                "io.strata.storage.fs.CommitLockTest$JvmLock");
        FailsFirstChangelogFile io = new FailsFirstChangelogFile(dir.toString());
        FileStoreTable t =
                Catalog.open(dir.toString(), io).getTable("db", created.name().replaceFirst("^db\\.", ""));
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            w.write(row(RowKind.INSERT, 2, 1, null));
            w.write(row(RowKind.INSERT, 1, 1, null));
            w.write(row(RowKind.DELETE, 2, 1, null));
            Assertions.assertThatThrownBy(w::prepareCommit).hasStackTraceContaining("injected: cannot create");
            c.commit(1, w.prepareCommit());
        }
        assertThat(io.failed).isTrue();
        assertThat(changelog(t, 0)).containsExactly("+I(1, 1, null)", "+I(2, 1, null)", "-D(2, 1, null)");
        assertThat(Rows.byKey(TestTables.scan(t))).containsOnlyKeys(1L);
    }

    /** Fails the creation of the first changelog file, once. */
    private static final class FailsFirstChangelogFile extends DelegatingFileIO {
        boolean failed;

        FailsFirstChangelogFile(String warehouse) {
            super(warehouse);
        }

        @Override
        public OutputFile dataOutputFile(org.apache.hadoop.fs.Path path) {
            if (!failed && path.getName().startsWith("changelog-")) {
                failed = true;
                throw new UncheckedIOException(new IOException("injected: cannot create " + path));
            }
            return super.dataOutputFile(path);
        }
    }
}
