package io.strata.storage.compact;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.data.ValueComparators;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.table.system.FilesTable;
import io.strata.storage.testutil.LsmInvariants;
import io.strata.storage.testutil.TestTables;
import io.strata.storage.util.CloseableIterator;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Compactions carry STRING values as raw UTF-8 bytes. With a STRING primary key (and a STRING
 * sequence field) of multi-byte and supplementary characters, key order, file key ranges, the
 * manifest's min/max keys (still {@link String}s), the scan and the lookup changelog must be
 * exactly what they are with decoded strings.
 */
class RawStringCompactionTest {
    private static final String[] PARTS = {"a", "b", "z", "é", "ß", "中", "日本", "\uD83D\uDE00", "\uFFFD", "\u00A0", ""};

    @TempDir
    Path dir;

    @ParameterizedTest(name = "sequence.field={0}")
    @ValueSource(booleans = {false, true})
    void stringKeysCompactAndReplay(boolean sequenceField) {
        Schema.Builder b = Schema.newBuilder()
                .column("k", "STRING NOT NULL")
                .column("v", "STRING")
                .column("s", "STRING")
                .primaryKey("k")
                .option("bucket", "2")
                .option("write-only", "true")
                .option("changelog-producer", "lookup")
                .option("target-file-size", "8 kb")
                .option("num-sorted-run.compaction-trigger", "3");
        if (sequenceField) {
            b.option("sequence.field", "s");
        }
        FileStoreTable t = Catalog.open(dir.toString()).createTable("db", "t" + sequenceField, b.build());
        Random rnd = new Random(sequenceField ? 5 : 4);
        Map<String, String[]> model = new HashMap<>(); // key -> {v, s}; v null: deleted (s still orders later rows)
        TableCompactor compactor = t.newCompactor();
        long compactions = 0;
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            for (int commit = 1; commit <= 12; commit++) {
                for (int i = 0; i < 150; i++) {
                    String k = word(rnd, 3);
                    String s = word(rnd, 2);
                    String[] old = model.get(k);
                    boolean wins = !sequenceField || old == null || ValueComparators.compareStrings(s, old[1]) >= 0;
                    if (rnd.nextInt(8) == 0) {
                        w.write(GenericRow.delete(k, null, s));
                        if (wins) {
                            model.put(k, new String[] {null, s});
                        }
                    } else {
                        String v = word(rnd, 6);
                        w.write(GenericRow.insert(k, v, s));
                        if (wins) {
                            model.put(k, new String[] {v, s});
                        }
                    }
                }
                c.commit(commit, w.prepareCommit());
                compactor.compact(
                        rnd.nextBoolean() ? CompactStrategy.LOOKUP : CompactStrategy.FULL, "compactor", ++compactions);
                LsmInvariants.check(t);
                for (FilesTable.FileRow f : FilesTable.rows(t, null)) {
                    DataFileMeta m = f.file;
                    assertThat(m.minKey()[0]).isInstanceOf(String.class);
                    assertThat(m.maxKey()[0]).isInstanceOf(String.class);
                }
                Map<String, List<Object>> scan = new TreeMap<>();
                for (GenericRow r : TestTables.scan(t)) {
                    assertThat(r.get(1)).isInstanceOfAny(String.class, Void.class);
                    scan.put((String) r.get(0), Arrays.asList(r.fields()));
                }
                Map<String, List<Object>> expected = new TreeMap<>();
                model.forEach((k, vs) -> {
                    if (vs[0] != null) {
                        expected.put(k, Arrays.asList(k, vs[0], vs[1]));
                    }
                });
                assertThat(scan).as("scan after commit %d", commit).isEqualTo(expected);
                assertThat(replay(t))
                        .as("changelog replay after commit %d", commit)
                        .isEqualTo(expected);
            }
        }
    }

    /** The state the changelog from the first snapshot describes; each -U/-D must carry the current value. */
    private static Map<String, List<Object>> replay(FileStoreTable t) {
        Map<String, List<Object>> state = new TreeMap<>();
        long latest = t.snapshotManager().latestId().orElse(0);
        try (CloseableIterator<GenericRow> it = t.newIncrementalRead().read(0, latest)) {
            while (it.hasNext()) {
                GenericRow r = it.next();
                List<Object> row = Arrays.asList(r.fields());
                if (r.kind().isRetract()) {
                    assertThat(state.get((String) r.get(0)))
                            .as("%s of %s", r.kind(), r.get(0))
                            .isEqualTo(row);
                    state.remove((String) r.get(0));
                } else {
                    state.put((String) r.get(0), row);
                }
            }
        }
        return state;
    }

    private static String word(Random rnd, int parts) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0, n = 1 + rnd.nextInt(parts); i < n; i++) {
            sb.append(PARTS[rnd.nextInt(PARTS.length)]);
        }
        return sb.toString();
    }
}
