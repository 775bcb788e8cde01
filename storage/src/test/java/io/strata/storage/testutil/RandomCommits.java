package io.strata.storage.testutil;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.GenericRow;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * Writes rows into a table in commits of random sizes, with compactions of random strategies in
 * between and a full compaction at the end, and checks the table against a model of keyed rows
 * after every commit and compaction (seed and step in every failure).
 */
public final class RandomCommits {
    private RandomCommits() {}

    /** A model of the table's contents: each key's row, normalized as the test compares them. */
    public interface KeyedModel {
        void apply(GenericRow row);

        Map<Long, List<Object>> contents();
    }

    /** @param contents the table's contents, normalized as {@link KeyedModel#contents()} */
    public static void writeAndCheck(
            FileStoreTable t,
            List<GenericRow> rows,
            Random rnd,
            KeyedModel model,
            Function<FileStoreTable, Map<Long, List<Object>>> contents,
            String name,
            long seed) {
        long identifier = 0;
        long compactions = 0;
        try (TableWrite w = t.newWrite("u");
                TableCommit c = t.newCommit("u")) {
            for (int from = 0; from < rows.size(); ) {
                int to = Math.min(rows.size(), from + 1 + rnd.nextInt(rnd.nextBoolean() ? 5 : 60));
                for (GenericRow r : rows.subList(from, to)) {
                    w.write(r);
                    model.apply(r);
                }
                from = to;
                c.commit(++identifier, w.prepareCommit());
                assertThat(contents.apply(t))
                        .as("%s after commit %d, seed %d", name, identifier, seed)
                        .isEqualTo(model.contents());
                if (rnd.nextInt(3) == 0) {
                    CompactStrategy strategy = CompactStrategy.values()[rnd.nextInt(CompactStrategy.values().length)];
                    t.newCompactor().compact(strategy, "compactor", ++compactions);
                    assertThat(contents.apply(t))
                            .as("%s after %s compaction %d, seed %d", name, strategy, compactions, seed)
                            .isEqualTo(model.contents());
                }
            }
        }
        t.newCompactor().compact(CompactStrategy.FULL, "compactor", ++compactions);
        assertThat(contents.apply(t))
                .as("%s after a full compaction, seed %d", name, seed)
                .isEqualTo(model.contents());
    }
}
